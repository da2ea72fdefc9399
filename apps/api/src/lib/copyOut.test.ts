import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CopyTextLines } from './copyOut.ts';

async function through(chunks: string[]): Promise<string> {
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks.map((c) => Buffer.from(c))).pipe(new CopyTextLines()))
    out.push(chunk as Buffer);
  return Buffer.concat(out).toString();
}

describe('CopyTextLines (COPY text format to CSV lines)', () => {
  it('ends each row with CRLF and gives escaped bytes back, an escape cut between chunks included', async () => {
    expect(await through(['1;Suco;10,00\n2;Caf', 'é;5,00\n'])).toBe('1;Suco;10,00\r\n2;Café;5,00\r\n');
    // A quoted cell with a line break and a backslash: COPY sends "\r\n" and "\\" as two characters each.
    expect(await through(['1;"linha\\r\\nnova";a\\\\b\n'])).toBe('1;"linha\r\nnova";a\\b\r\n');
    expect(await through(['1;"x\\', 'ny";c\\', '\\d\n'])).toBe('1;"x\ny";c\\d\r\n');
  });
});
