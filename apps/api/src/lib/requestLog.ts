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

/** What the serializer reads of a request (Fastify's request has these). */
type LoggedRequest = {
  method: string;
  url: string;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { remotePort?: number };
};

/**
 * Fastify's default request serializer (fastify/lib/logger-pino.js) with the URL redacted; the Host
 * header is left out (the request's own address is never trusted here: links come from PUBLIC_URL).
 */
function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: [request.headers?.['accept-version']].flat()[0],
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export type LogStream = { write: (line: string) => void };

/** The API's logger options; `stream` lets a test read the lines (the server writes to stdout). */
export function loggerOptions(level: string, stream?: LogStream) {
  return { level, serializers: { req: serializeRequest }, ...(stream ? { stream } : {}) };
}
