import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets at rest (carrier tokens, client secrets, passwords, the WhatsApp instance key): AES-256-GCM with a key from the
 * environment (SECRETS_KEY, hashed to 32 bytes). The stored text is `v1.<iv>.<tag>.<data>` (base64url);
 * a tampered value or another key fails to open.
 */
export type SecretBox = {
  seal(value: unknown): string;
  /** The stored value; null for '' (nothing stored). Throws when it cannot be opened. */
  open<T>(stored: string): T | null;
};

export function secretBox(key: string): SecretBox {
  const k = createHash('sha256').update(key, 'utf8').digest();
  return {
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', k, iv);
      const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ['v1', iv, tag, data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open<T>(stored: string) {
      if (!stored) return null;
      const [version, iv, tag, data] = stored.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown secret format');
      const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const text = Buffer.concat([
        decipher.update(Buffer.from(data, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
      return JSON.parse(text) as T;
    },
  };
}

/** A random token (webhook) and its SHA-256, the only thing stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(24).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Constant-time check of a presented token against its stored hash. */
export function tokenMatches(presented: string | undefined, hash: string | null): boolean {
  if (!presented || !hash) return false;
  const a = Buffer.from(hashToken(presented), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
