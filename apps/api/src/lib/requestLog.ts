import type { FastifyRequest } from 'fastify';

/**
 * The request log never records a secret carried in a URL: the PSP's webhook path holds the shop's
 * secret token (`/v1/pix/webhook/<token>/pix`) and Efí appends its `hmac` to the query. Whoever reads
 * the log could otherwise post a Pix as the bank would.
 */
const PIX_WEBHOOK = /^(\/v1\/pix\/webhook\/)[^/?#]+/;
const SECRET_QUERY = /([?&]hmac=)[^&#]*/gi;

export const REDACTED = '<redacted>';

export function redactUrl(url: string): string {
  return url.replace(PIX_WEBHOOK, `$1${REDACTED}`).replace(SECRET_QUERY, `$1${REDACTED}`);
}

/** Fastify's default request serializer (fastify/lib/logger-pino.js), with the URL redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket ? request.socket.remotePort : undefined,
  };
}

export type LogStream = { write: (line: string) => void };

/** The API's logger options; `stream` lets a test read the lines (the server writes to stdout). */
export function loggerOptions(level: string, stream?: LogStream) {
  return { level, serializers: { req: serializeRequest }, ...(stream ? { stream } : {}) };
}
