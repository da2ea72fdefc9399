import {
  type CallInput,
  type EndpointDef,
  pathOf,
  queryString,
  type ResponseOf,
} from '@balcao/core/contract';
import { apiFetch } from './api.ts';

/**
 * `call`, the typed client's one request (lib/client.ts re-exports it), in a file of its own: the
 * session (in the entry every page loads, /login's included) calls the API through it without
 * pulling the query and mutation code of client.ts (react-query) into /login's JS.
 */

export type CallOptions = {
  signal?: AbortSignal;
  /** The Idempotency-Key of a retried write (one per user action; `newIdempotencyKey`). */
  idempotencyKey?: string;
  /** The image of an upload endpoint (multipart field "file"). */
  file?: Blob;
};

/** Arguments of a call: the input may be left out when the endpoint takes no params, query or body. */
export type CallArgs<E extends EndpointDef> =
  object extends CallInput<E>
    ? [input?: CallInput<E>, options?: CallOptions]
    : [input: CallInput<E>, options?: CallOptions];

/** The URL path (under /v1) of a call: the declared path with its parameters and query. */
export function urlOf<E extends EndpointDef>(endpoint: E, input?: CallInput<E>): string {
  const { params, query } = (input ?? {}) as { params?: Record<string, string | number>; query?: object };
  return pathOf(endpoint.path, params) + queryString(query as Record<string, unknown> | undefined);
}

/** Calls a declared endpoint: its typed answer, or an `ApiError` with the server's code and message. */
export function call<E extends EndpointDef>(
  endpoint: E,
  ...[input, options]: CallArgs<E>
): Promise<ResponseOf<E>> {
  const headers: Record<string, string> = {};
  if (options?.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  let body = (input as { body?: unknown } | undefined)?.body;
  if (options?.file) {
    const form = new FormData();
    form.append('file', options.file);
    body = form;
  }
  return apiFetch<ResponseOf<E>>(urlOf(endpoint, input), {
    method: endpoint.method === 'GET' ? undefined : endpoint.method,
    body,
    headers,
    signal: options?.signal,
  });
}
