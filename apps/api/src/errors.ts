import type { ErrorCode } from '@balcao/core/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

type Issue = { path: string; message: string };

/** The stable machine code of an error answer (core's contract: the web branches on the same codes). */
export type { ErrorCode };

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503;

const DEFAULT_CODES: Record<number, ErrorCode> = {
  400: 'validation',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media_type',
  422: 'rule',
  429: 'rate_limited',
  500: 'internal',
  502: 'unavailable',
  503: 'unavailable',
};

const codeOf = (status: number): ErrorCode =>
  DEFAULT_CODES[status] ?? (status >= 500 ? 'internal' : 'validation');

/** A domain error: its status, a Portuguese message a user can read, and a machine code. */
export class AppError extends Error {
  readonly code: ErrorCode;
  /** A 429's wait, sent as Retry-After (seconds). */
  retryAfterSeconds?: number;
  constructor(
    readonly statusCode: ErrorStatus,
    message: string,
    readonly issues?: Issue[],
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? codeOf(statusCode);
  }
}

/** 400 for input a schema cannot express (an issue per field when given). */
export const invalid = (message: string, issues?: Issue[]) => new AppError(400, message, issues);
export const notFound = (message = 'Registro não encontrado') => new AppError(404, message);
/** 409: the request conflicts with the current state of the record. */
export const conflict = (message: string, issues?: Issue[]) => new AppError(409, message, issues);
/** 409: a value that must be unique is taken. */
export const duplicate = (message: string, issues?: Issue[]) =>
  new AppError(409, message, issues, 'duplicate');
export const insufficientStock = (message: string) =>
  new AppError(409, message, undefined, 'insufficient_stock');
/** 422: a business rule refuses a well-formed request. */
export const unprocessable = (message: string, issues?: Issue[]) => new AppError(422, message, issues);
export const unauthorized = (message = 'Sessão expirada ou inválida. Faça login novamente.') =>
  new AppError(401, message);
export const forbidden = (message = 'Você não tem permissão para esta ação') => new AppError(403, message);
/** 429; `retryAfterSeconds` becomes the Retry-After header (when the counter's window ends). */
export const rateLimited = (message: string, retryAfterSeconds?: number) =>
  Object.assign(new AppError(429, message), { retryAfterSeconds });
/** An external service (CEP, WhatsApp, freight) could not answer. */
export const unavailable = (message: string) => new AppError(503, message);

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

/** The error answer (DESIGN.md): status, its name, the machine code, the Portuguese message, issues. */
export function errorBody(statusCode: number, message: string, code?: ErrorCode, issues?: Issue[]) {
  return {
    statusCode,
    error: STATUS_NAMES[statusCode] ?? 'Error',
    code: code ?? codeOf(statusCode),
    message,
    ...(issues ? { issues } : {}),
  };
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

/** 503 when a write cannot reach the disk (issue 37): the transaction rolled back, nothing was kept. */
export const DISK_FULL_MESSAGE =
  'Sem espaço em disco no servidor: a operação não foi gravada. Libere espaço no disco e tente novamente.';

/**
 * The disk is full: PostgreSQL's 53100 disk_full (and PGlite's, the same engine), or a Node file
 * write's ENOSPC, or a driver error that only says "No space left on device" in its text.
 */
export function isDiskFull(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; errno?: unknown; message?: unknown; cause?: unknown } | undefined,
      depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.code === '53100' || e.code === 'ENOSPC') return true;
    if (typeof e.message === 'string' && /No space left on device/i.test(e.message)) return true;
  }
  return false;
}

/** One error handler: the DESIGN.md error shape, never a stack trace or SQL text. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined)
        reply.header('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
      return reply
        .status(error.statusCode)
        .send(errorBody(error.statusCode, error.message, error.code, error.issues));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'Valor inválido',
      }));
      // The message is for people: the first issue's text, never an internal field name ("(reason)");
      // programs read the paths in `issues`.
      const message = issues[0]?.message ?? 'Dados inválidos';
      return reply.status(400).send(errorBody(400, message, 'validation', issues));
    }
    if (isUniqueViolation(error)) {
      return reply
        .status(409)
        .send(errorBody(409, 'Registro duplicado: já existe um cadastro com estes dados', 'duplicate'));
    }
    if (isDataException(error)) {
      return reply.status(400).send(errorBody(400, 'Valor inválido em um dos campos', 'validation'));
    }
    if (isDiskFull(error)) {
      request.log.error({ err: error }, 'disk full: write refused');
      reply.header('Retry-After', '30');
      return reply.status(503).send(errorBody(503, DISK_FULL_MESSAGE, 'unavailable'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = FRAMEWORK_MESSAGES[status] ?? 'Requisição inválida';
      return reply.status(status).send(errorBody(status, message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody(500, 'Ocorreu um erro inesperado. Tente novamente.', 'internal'));
  });
}
