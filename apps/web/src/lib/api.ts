import type { ErrorCode } from '@balcao/core/contract';
import { getToken } from './cookies.ts';

type ApiIssue = { path: string; message: string };

/**
 * An API answer other than 2xx, carrying the server's Portuguese message and its stable `code`
 * (core's `ErrorCode`: programs branch on the code, never on the message). No connection is status 0,
 * code 'unavailable'.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  constructor(
    readonly status: number,
    message: string,
    readonly issues: ApiIssue[] = [],
    code?: ErrorCode,
    /** The whole error answer, for answers that carry more than a message (an import's per-line result). */
    readonly payload?: unknown,
  ) {
    super(message);
    this.code = code ?? codeOfStatus(status);
  }
}

/** The code of an answer that carried none (a proxy's page, a lost connection). */
function codeOfStatus(status: number): ErrorCode {
  if (status === 0 || status === 502 || status === 503 || status === 504) return 'unavailable';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 422) return 'rule';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'internal';
  return 'validation';
}

/** Is this failure the server's (or the network's) and not the request's: worth retrying later. */
export function isUnavailable(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'unavailable' || error.code === 'internal');
}

export const UNEXPECTED_ERROR = 'Ocorreu um erro inesperado';

type Options = { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal };

/** GETs started with a lazy page's code (`startGet`), each taken by the page's first call of its path. */
type Started = { at: number; answer: Promise<unknown>; arrived?: { value: unknown } };
const started = new Map<string, Started>();
const STARTED_FOR_MS = 10_000;

/**
 * Starts a page's first GET at the navigation, while its code (a chain of chunks) is still on the
 * way: `page(() => import(...), '/comanda')` in pages.tsx. The page's first `apiFetch` of the
 * same path within 10 s takes this answer instead of asking again; after that it asks anew.
 */
export function startGet(path: string): void {
  const answer = apiFetch(path);
  const entry: Started = { at: Date.now(), answer };
  answer.then(
    (value) => {
      entry.arrived = { value };
    },
    () => undefined,
  );
  started.set(path, entry);
}

/**
 * The answer of a GET started early when it has already arrived (taken: nobody else gets it), with
 * when it was asked: the page renders it in its first pass (a query's `initialData`) instead of a
 * spinner first. Undefined while it is on the way (the page's query then takes the request).
 */
export function takeArrived<T>(path: string): { value: T; at: number } | undefined {
  const early = started.get(path);
  if (!early?.arrived || Date.now() - early.at >= STARTED_FOR_MS) return undefined;
  started.delete(path);
  return { value: early.arrived.value as T, at: early.at };
}

/** JSON call to the versioned API with the session's Bearer token (spec 7). No timeout (spec 9). */
export async function apiFetch<T>(path: string, options: Options = {}): Promise<T> {
  const early = options.method === undefined && options.body === undefined ? started.get(path) : undefined;
  if (early) {
    started.delete(path);
    if (Date.now() - early.at < STARTED_FOR_MS) return early.answer as Promise<T>;
  }
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(`/v1${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Não foi possível conectar ao servidor. Verifique sua conexão.');
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const payload = (data ?? {}) as { message?: string; issues?: ApiIssue[]; code?: ErrorCode };
    throw new ApiError(
      res.status,
      payload.message || UNEXPECTED_ERROR,
      payload.issues ?? [],
      payload.code,
      data ?? undefined,
    );
  }
  return data as T;
}

/**
 * A call whose answer streams lines (NDJSON progress): each non-empty line is handed to `onLine` as it
 * arrives. An error answer is an `ApiError` carrying its payload, as `apiFetch`'s.
 */
export async function apiLines(
  path: string,
  options: Options & { accept: string },
  onLine: (line: string) => void,
): Promise<void> {
  const headers: Record<string, string> = {
    accept: options.accept,
    'content-type': 'application/json',
    ...options.headers,
  };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(`/v1${path}`, {
      method: options.method ?? 'POST',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Não foi possível conectar ao servidor. Verifique sua conexão.');
  }
  if (!res.ok || !res.body) {
    const payload = (await res.json().catch(() => ({}))) as {
      message?: string;
      issues?: ApiIssue[];
      code?: ErrorCode;
    };
    throw new ApiError(
      res.status,
      payload.message || UNEXPECTED_ERROR,
      payload.issues ?? [],
      payload.code,
      payload,
    );
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      if (line) onLine(line);
    }
    if (done) break;
  }
}

/** The message to show for a failed call: the server's message field, or the generic one. */
export function errorMessage(error: unknown): string {
  // A validation answer's own text is its first issue's (never an internal field name).
  if (error instanceof ApiError) return error.issues[0]?.message ?? error.message;
  return UNEXPECTED_ERROR;
}

/**
 * A file answer of the API (CSV exports, PDFs): the Bearer header rules out a plain link, so it goes
 * through fetch. A refusal is an `ApiError` with the server's code and message (`failure` without one).
 */
export async function fetchFile(path: string, failure = UNEXPECTED_ERROR): Promise<Response> {
  const token = getToken();
  let res: Response;
  try {
    res = await fetch(`/v1${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, 'Não foi possível conectar ao servidor. Verifique sua conexão.');
  }
  if (!res.ok) {
    const payload = (await res.json().catch(() => ({}))) as { message?: string; code?: ErrorCode };
    throw new ApiError(res.status, payload.message ?? failure, [], payload.code);
  }
  return res;
}

/**
 * Downloads a file answer of the API (CSV exports) through a temporary object URL. The file name
 * comes from Content-Disposition.
 */
export async function downloadFile(
  path: string,
  fallbackName: string,
  failure = UNEXPECTED_ERROR,
): Promise<void> {
  const res = await fetchFile(path, failure);
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
