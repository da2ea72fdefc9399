import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export type Issue = { path: string; message: string };

/** A domain error: its status code and a Portuguese message a user can read. */
export class AppError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 422 | 429 | 502 | 503,
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
  }
}

export const notFound = (message = 'Registro não encontrado') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const unprocessable = (message: string) => new AppError(422, message);
export const unauthorized = (message = 'Sessão expirada ou inválida. Faça login novamente.') =>
  new AppError(401, message);
/** An external service (CEP, WhatsApp, freight) could not answer. */
export const unavailable = (message: string) => new AppError(503, message);
export const forbidden = (message = 'Você não tem permissão para esta ação') => new AppError(403, message);

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

const FRAMEWORK_MESSAGES: Record<number, string> = {
  400: 'Requisição inválida',
  404: 'Rota não encontrada',
  413: 'Arquivo ou requisição grande demais',
  415: 'Tipo de conteúdo não suportado',
  429: 'Muitas requisições. Tente novamente em instantes.',
};

function body(statusCode: number, message: string, issues?: Issue[]) {
  return { statusCode, error: STATUS_NAMES[statusCode] ?? 'Error', message, ...(issues ? { issues } : {}) };
}

/** Unique-violation of PostgreSQL (a race the service check did not catch). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * A PostgreSQL data exception (class 22: a number out of range, text that is not a valid number or
 * date...): input the schemas let through, answered as bad input rather than a server error.
 */
function isDataException(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  const code = typeof e?.code === 'string' ? e.code : e?.cause?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** One error handler: the DESIGN.md error shape, never a stack trace or SQL text. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(body(error.statusCode, error.message, error.issues));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'Valor inválido',
      }));
      const first = issues[0];
      const message = first
        ? first.path
          ? `${first.message} (${first.path})`
          : first.message
        : 'Dados inválidos';
      return reply.status(400).send(body(400, message, issues));
    }
    if (isUniqueViolation(error)) {
      return reply.status(409).send(body(409, 'Registro duplicado: já existe um cadastro com estes dados'));
    }
    if (isDataException(error)) {
      return reply.status(400).send(body(400, 'Valor inválido em um dos campos'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = FRAMEWORK_MESSAGES[status] ?? 'Requisição inválida';
      return reply.status(status).send(body(status, message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body(500, 'Ocorreu um erro inesperado. Tente novamente.'));
  });
}
