import type { EndpointDef, FileKind, ResponseOf } from '@balcao/core/contract';
import { binaryFileSchema, csvFileSchema, ndjsonSchema } from '@balcao/core/responses';
import type { z } from '@balcao/core/zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';
import { readUpload } from './upload.ts';

/**
 * Registers routes from their declarations in core (`@balcao/core/endpoints/*`, issue 29): method,
 * path, access, the schemas (validation, serialization and OpenAPI), the success status, the
 * Idempotency-Key (one rule, parsed once), the image upload (read once) and the download's content
 * type come from the declaration; the module writes only the handler.
 */

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export type EndpointRequest<E extends EndpointDef> = FastifyRequest<{
  Params: Out<E['params']>;
  Querystring: Out<E['query']>;
  Body: Out<E['body']>;
}> & {
  /** The Idempotency-Key header, checked: null when absent (never absent on a 'required' route). */
  idempotencyKey: E['idempotencyKey'] extends 'required' ? string : string | null;
  /** The uploaded image's bytes (routes with `upload`). */
  upload: E['upload'] extends object ? Buffer : undefined;
  /** The uploaded file's name as the browser sent it (routes with `upload`). */
  uploadName: E['upload'] extends object ? string : undefined;
};

/** A handler answers its declaration's body, or takes the reply in hand (downloads, replays). */
export type EndpointHandler<E extends EndpointDef> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<ResponseOf<E> | FastifyReply> | ResponseOf<E> | FastifyReply;

// biome-ignore lint/suspicious/noExplicitAny: the server generics of a module's Fastify instance vary
type AnyApp = FastifyInstance<any, any, any, any, ZodTypeProvider>;

/** The one Idempotency-Key rule: printable ASCII without spaces, 8 to 200 characters (a UUID is 36). */
const KEY_PATTERN = /^[\x21-\x7e]{8,200}$/;
export const IDEMPOTENCY_KEY_INVALID = 'Idempotency-Key inválida: use de 8 a 200 caracteres sem espaços';
export const IDEMPOTENCY_KEY_MISSING = 'Envie o cabeçalho Idempotency-Key (uma chave por envio)';

/** The request's Idempotency-Key: null without one (400 when required), 400 when malformed. */
export function idempotencyKeyOf(request: FastifyRequest, required: boolean): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) {
    if (!required) return null;
    throw new AppError(400, IDEMPOTENCY_KEY_MISSING, [
      { path: 'Idempotency-Key', message: 'Idempotency-Key obrigatória' },
    ]);
  }
  const key = (Array.isArray(raw) ? raw[0] : raw).trim();
  if (!KEY_PATTERN.test(key)) {
    throw new AppError(400, IDEMPOTENCY_KEY_INVALID, [
      { path: 'Idempotency-Key', message: 'Idempotency-Key inválida' },
    ]);
  }
  return key;
}

const FILE_CONTENT: Record<FileKind, { type: string; schema: z.ZodType }> = {
  csv: { type: 'text/csv', schema: csvFileSchema },
  pdf: { type: 'application/pdf', schema: binaryFileSchema },
  binary: { type: 'application/octet-stream', schema: binaryFileSchema },
  ndjson: { type: 'application/x-ndjson', schema: ndjsonSchema },
  html: { type: 'text/html', schema: binaryFileSchema },
  text: { type: 'text/plain', schema: binaryFileSchema },
  webp: { type: 'image/webp', schema: binaryFileSchema },
  jpeg: { type: 'image/jpeg', schema: binaryFileSchema },
  png: { type: 'image/png', schema: binaryFileSchema },
};

/** The response schemas Fastify serializes with (and documents): a download under its content type. */
function responseSchemas(definition: EndpointDef) {
  const statuses = Object.keys(definition.response).map(Number);
  if (definition.stream) {
    const stream = FILE_CONTENT[definition.stream];
    const answers = definition.response as Record<number, z.ZodType>;
    return Object.fromEntries(
      statuses.map((status) => [
        status,
        {
          content: {
            'application/json': { schema: answers[status] },
            [stream.type]: { schema: stream.schema },
          },
        },
      ]),
    );
  }
  if (!definition.file) return definition.response;
  const content = FILE_CONTENT[definition.file];
  return Object.fromEntries(
    statuses.map((status) => [status, { content: { [content.type]: { schema: content.schema } } }]),
  );
}

/** The usual success status: the first declared (201 for a create). */
function firstStatus(definition: EndpointDef): number {
  return Number(Object.keys(definition.response)[0] ?? 200);
}

/** Registers one declared endpoint with its handler on a module's Fastify instance. */
export function route<E extends EndpointDef>(app: AnyApp, definition: E, handler: EndpointHandler<E>): void {
  const status = firstStatus(definition);
  const { idempotencyKey, upload } = definition;
  app.route({
    method: definition.method,
    url: definition.path,
    config: { access: definition.access, declared: true },
    ...(definition.bodyLimit ? { bodyLimit: definition.bodyLimit } : {}),
    schema: {
      tags: [definition.tag ?? definition.resource],
      summary: definition.summary,
      ...(definition.params ? { params: definition.params } : {}),
      ...(definition.query ? { querystring: definition.query } : {}),
      ...(definition.body ? { body: definition.body } : {}),
      response: responseSchemas(definition),
    },
    // The one multipart parser serves every /v1 route: a route without an upload refuses a multipart
    // body as any other content type it does not read (415), before its body schema sees nothing.
    ...(upload
      ? {}
      : {
          preValidation: async (request: FastifyRequest) => {
            if (request.isMultipart()) throw new AppError(415, 'Tipo de conteúdo não suportado');
          },
        }),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const typed = request as EndpointRequest<E>;
      if (idempotencyKey) {
        (typed as { idempotencyKey: string | null }).idempotencyKey = idempotencyKeyOf(
          request,
          idempotencyKey === 'required',
        );
      }
      if (upload) {
        const file = await readUpload(request, upload);
        (typed as { upload: Buffer }).upload = file.data;
        (typed as { uploadName: string }).uploadName = file.name;
      }
      reply.code(status);
      return handler(typed, reply);
    },
  });
}

/**
 * Answers a replayed write (the same Idempotency-Key again) with 200 and `Idempotent-Replayed`, a
 * first one with 201: the sale-shaped writes (checkout, conversion, phone order, comanda close).
 */
export function sendRecorded<T>(reply: FastifyReply, result: { replayed: boolean; sale: T }) {
  if (result.replayed) return reply.status(200).header('idempotent-replayed', 'true').send(result.sale);
  return reply.status(201).send(result.sale);
}
