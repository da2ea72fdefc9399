import { describe, expect, it } from 'vitest';
import { secretBox } from './secrets.ts';

describe('secretBox', () => {
  it('seals a value that opens with the same key only, differently each time, and refuses a tampered one', () => {
    const box = secretBox('chave-de-teste');
    const sealed = box.seal({ accessToken: 'tok-123' });
    expect(sealed).not.toContain('tok-123');
    expect(box.seal({ accessToken: 'tok-123' })).not.toBe(sealed);
    expect(box.open(sealed)).toEqual({ accessToken: 'tok-123' });
    expect(box.open('')).toBeNull();
    expect(() => secretBox('outra-chave').open(sealed)).toThrow();
    const [v, iv, tag, data] = sealed.split('.');
    // The first character: all six of its bits are data (the last one may carry padding bits only), and
    // it always becomes another character.
    const flipped = `${data.startsWith('A') ? 'B' : 'A'}${data.slice(1)}`;
    expect(() => box.open([v, iv, tag, flipped].join('.'))).toThrow();
  });
});
