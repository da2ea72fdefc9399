import type { ErrorCode } from '@balcao/core/contract';
import { ApiError, type ApiIssue, UNEXPECTED_ERROR } from './api.ts';
import { getToken } from './cookies.ts';

/**
 * The API's answers that are not one JSON document: streamed lines (an import's progress) and files
 * (CSV exports, PDFs). Apart from `api.ts` so the entry that /login loads does not carry them.
 */

type LineOptions = {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  accept: string;
};

/**
 * A call whose answer streams lines (NDJSON progress): each non-empty line is handed to `onLine` as it
 * arrives. An error answer is an `ApiError` carrying its payload, as `apiFetch`'s.
 */
export async function apiLines(
  path: string,
  options: LineOptions,
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

/** What a big download has received so far (bytes), and its size when the answer says it (else null). */
export type DownloadProgress = (received: number, total: number | null) => void;

/** The answer's body read chunk by chunk, each chunk told to `onProgress` (a streamed export has no size). */
async function blobWithProgress(res: Response, onProgress: DownloadProgress): Promise<Blob> {
  const length = Number(res.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const reader = res.body?.getReader();
  if (!reader) return res.blob();
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress(received, total);
  }
  return new Blob(chunks as BlobPart[], { type: res.headers.get('content-type') ?? '' });
}

/**
 * Downloads a file answer of the API (CSV exports) through a temporary object URL. The file name
 * comes from Content-Disposition.
 */
export async function downloadFile(
  path: string,
  fallbackName: string,
  failure = UNEXPECTED_ERROR,
  onProgress?: DownloadProgress,
): Promise<void> {
  const res = await fetchFile(path, failure);
  const blob = onProgress ? await blobWithProgress(res, onProgress) : await res.blob();
  const disposition = res.headers.get('content-disposition') ?? '';
  // The UTF-8 name (RFC 8187) when the answer has one (an attachment's accents), else the plain one.
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const name =
    (utf8 && decodeURIComponent(utf8)) || /filename="([^"]+)"/.exec(disposition)?.[1] || fallbackName;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
