import { logRemoteError, outboundFetch } from '../../lib/outbound.ts';

/**
 * What the carrier adapters share: one error type with the Portuguese reason and its kind (the
 * freight service decides on the kind: `unavailable` and `auth` fall back to the estimate table,
 * `rejected` and `not_served` are shown as is), and a fetch (through the outbound guard) that turns
 * network failures and timeouts into it. Messages are our own words: what a carrier answered goes to
 * the log (`carrierFailure`), never into a message (issue 31 item 1).
 */
type CarrierErrorKind = 'unavailable' | 'auth' | 'rejected' | 'not_configured' | 'not_served';

export class CarrierError extends Error {
  constructor(
    readonly kind: CarrierErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export async function fetchJson(
  url: string,
  name: string,
  init: RequestInit & { signal: AbortSignal },
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await outboundFetch(url, init);
  } catch (error) {
    const e = error as Error;
    if (e.name === 'TimeoutError' || e.name === 'AbortError' || init.signal.aborted)
      throw new CarrierError('unavailable', `${name} não respondeu a tempo.`);
    logRemoteError(name, { url: new URL(url).origin, error: e.message, cause: String(e.cause ?? '') });
    throw new CarrierError('unavailable', `${name} está fora do ar ou inacessível.`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new CarrierError('unavailable', `${name} não respondeu a tempo.`);
  }
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      if (response.ok) throw new CarrierError('unavailable', `${name} respondeu algo que não é JSON.`);
    }
  }
  return { status: response.status, body };
}

/**
 * A carrier answered something we cannot use: the details to the log, a Portuguese message of ours to
 * the caller (the kind says whether the estimate table applies).
 */
export function carrierFailure(
  kind: CarrierErrorKind,
  message: string,
  service: string,
  status: number,
  body: unknown,
): CarrierError {
  logRemoteError(service, { status, body: JSON.stringify(body ?? null).slice(0, 1000) });
  return new CarrierError(kind, message);
}

/** "12.68", 12.68 or "12,68" -> 1268 cents; null for anything else. */
export function parseMoneyCents(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value * 100) : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value.trim().replace(',', '.'));
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) : null;
}
