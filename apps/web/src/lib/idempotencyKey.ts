// Its own file: the session's `call` (in the entry /login loads) does not need it, the table page's entry
// (mesa.html) and the typed client (client.ts) do.

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
