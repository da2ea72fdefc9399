import type { CallInput, EndpointDef, Resource, ResponseOf } from '@balcao/core/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type CallArgs, type CallOptions, call, urlOf } from './call.ts';
import { apiLines, type DownloadProgress, downloadFile, fetchFile } from './files.ts';
import { newIdempotencyKey } from './idempotencyKey.ts';
import { invalidateResources } from './queryKeys.ts';

export { type CallArgs, type CallOptions, call, newIdempotencyKey, urlOf };

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
  onProgress?: DownloadProgress,
): Promise<void> {
  return downloadFile(urlOf(endpoint, input), fallbackName, failure, onProgress);
}

/** A file endpoint's answer as a Blob (a PDF to print in a frame). */
export async function fileOf<E extends EndpointDef & { file: string }>(
  endpoint: E,
  input: CallInput<E>,
  failure?: string,
): Promise<Blob> {
  return (await fetchFile(urlOf(endpoint, input), failure)).blob();
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
