import type { CallInput, EndpointDef, Resource, ResponseOf } from '@balcao/core/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiLines, downloadFile, fetchFile } from './api.ts';
import { type CallArgs, type CallOptions, call, urlOf } from './call.ts';
import { invalidateResources } from './queryKeys.ts';

export { type CallArgs, type CallOptions, call, urlOf };

/**
 * The one typed client of the API (issue 29): every call names an endpoint declared in core
 * (`@balcao/core/endpoints/*`), so the path, the body's type and the answer's type come from the
 * declaration. Components never write a path or an answer type; a feature's `api.ts` gives query
 * options (`queryOf`) and mutations (`useCall`) per resource.
 */

/**
 * Calls an endpoint that streams its answer when asked (`stream: 'ndjson'`: the product import's
 * progress): each event is handed to `onEvent` as it arrives.
 */
export function callStream<E extends EndpointDef & { stream: 'ndjson' }>(
  endpoint: E,
  input: CallInput<E>,
  onEvent: (event: unknown) => void,
  options?: CallOptions,
): Promise<void> {
  const headers: Record<string, string> = {};
  if (options?.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  return apiLines(
    urlOf(endpoint, input),
    {
      method: endpoint.method,
      accept: 'application/x-ndjson',
      body: (input as { body?: unknown }).body,
      headers,
      signal: options?.signal,
    },
    (line) => onEvent(JSON.parse(line)),
  );
}

/** Downloads a file endpoint (CSV exports): the name comes from the answer's Content-Disposition. */
export function download<E extends EndpointDef & { file: string }>(
  endpoint: E,
  input: CallInput<E>,
  fallbackName: string,
  failure?: string,
): Promise<void> {
  return downloadFile(urlOf(endpoint, input), fallbackName, failure);
}

/**
 * The query key of a call: its resource first (what a socket `change` or a mutation invalidates),
 * then the endpoint and its input.
 */
export function keyOf<E extends EndpointDef>(endpoint: E, input?: CallInput<E>) {
  return [endpoint.resource, endpoint.method, endpoint.path, input ?? {}] as const;
}

/** The query options of a GET endpoint (`useQuery(queryOf(api.get, { params: { id } }))`). */
export function queryOf<E extends EndpointDef>(endpoint: E, ...[input]: CallArgs<E>) {
  return queryOptions({
    queryKey: keyOf(endpoint, input),
    queryFn: ({ signal }) => (call as CallFn<E>)(endpoint, input, { signal }),
  });
}

type CallFn<E extends EndpointDef> = (
  endpoint: E,
  input: CallInput<E> | undefined,
  options?: CallOptions,
) => Promise<ResponseOf<E>>;

/** A mutation's variables: the call's input, plus the action's Idempotency-Key or file when it has one. */
export type MutationInput<E extends EndpointDef> = CallInput<E> & { idempotencyKey?: string; file?: Blob };

/**
 * The mutation of a write endpoint: on success it invalidates what the declaration says it changes
 * (`changes`, and the endpoint's own resource), so every list and figure on screen refetches once.
 */
export function useCall<E extends EndpointDef>(
  endpoint: E,
  options: {
    invalidates?: readonly Resource[];
    /**
     * Refresh after a failure too (a delete: the list shows what is really there). Not for edits: a
     * stale edit's refetch would hand the form the new version and let the next save overwrite it.
     */
    refreshOnError?: boolean;
    /**
     * Resolve with the answer at once and refresh in the background (a sale: the receipt shows
     * without waiting for the register's and the lists' refetch). By default the mutation resolves
     * after the refresh, so a form reads the saved version.
     */
    background?: boolean;
  } = {},
) {
  const queryClient = useQueryClient();
  const refresh = () =>
    invalidateResources(queryClient, [
      ...(endpoint.changes ?? [endpoint.resource]),
      ...(options.invalidates ?? []),
    ]);
  return useMutation({
    mutationFn: ({ idempotencyKey, file, ...input }: MutationInput<E>) =>
      (call as CallFn<E>)(endpoint, input as CallInput<E>, { idempotencyKey, file }),
    onSuccess: options.background ? () => void refresh() : refresh,
    onError: options.refreshOnError ? refresh : undefined,
  });
}

/** A fresh Idempotency-Key: one per user action, kept across the retries of that action. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Browsers without randomUUID (an old tablet): a version 4 UUID from 122 random bits (the version
  // and variant bits set, so a `z.uuid()` field such as an offline movement's id accepts it).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
