/**
 * What the carrier adapters share: one error type with the Portuguese reason and its kind (the
 * freight service decides on the kind: `unavailable` and `auth` fall back to the estimate table,
 * `rejected` is shown as is), and a fetch that turns network failures and timeouts into it.
 */
type CarrierErrorKind = 'unavailable' | 'auth' | 'rejected' | 'not_configured';

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
    response = await fetch(url, init);
  } catch (error) {
    const e = error as Error;
    if (e.name === 'TimeoutError' || e.name === 'AbortError' || init.signal.aborted)
      throw new CarrierError('unavailable', `${name} não respondeu a tempo.`);
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

/** "12.68", 12.68 or "12,68" -> 1268 cents; null for anything else. */
export function parseMoneyCents(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value * 100) : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value.trim().replace(',', '.'));
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) : null;
}
