import { describe, expect, it } from 'vitest';
import { decodeCsvBytes, undecodedWarning } from './csvFile.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
/** Windows-1252 bytes of Latin-1 text (what Excel in pt-BR saves). */
const cp1252 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe('decodeCsvBytes (issue 30: encoding per file)', () => {
  it('reads a UTF-8 file with a few Windows-1252 lines as UTF-8 and flags those rows', () => {
    const good = Array.from({ length: 40 }, (_, i) => `Calça ${i};10,00\n`).join('');
    const bytes = join(
      utf8('nome;preco_venda\n'),
      utf8(good),
      cp1252('Camisão;20,00\n'),
      utf8('\n'),
      cp1252('Pão de açúcar;3,00\n'),
    );
    const decoded = decodeCsvBytes(bytes);
    expect(decoded.encoding).toBe('utf-8');
    expect(decoded.text).toContain('Calça 0;10,00');
    expect(decoded.text).not.toContain('Ã§');
    expect(decoded.text).toContain('Camis\uFFFDo;20,00');
    // header 1, 40 good rows (2..41), the bad row 42, a blank row 43, the bad row 44
    expect(decoded.undecodedLines).toEqual([42, 44]);
    expect(undecodedWarning(decoded.undecodedLines)).toBe(
      'As linhas 42, 44 têm caracteres que não puderam ser lidos (aparecem como "�"). Confira essas linhas na planilha e salve o arquivo como CSV UTF-8.',
    );
  });

  it('reads a Windows-1252 file whole as Windows-1252, with nothing to flag', () => {
    const decoded = decodeCsvBytes(cp1252('nome;email\r\nJoão;joao@x.com\r\nConceição;c@x.com\r\n'));
    expect(decoded).toEqual({
      text: 'nome;email\r\nJoão;joao@x.com\r\nConceição;c@x.com\r\n',
      encoding: 'windows-1252',
      undecodedLines: [],
    });
  });

  it('reads UTF-8 with a BOM and UTF-16 (Excel "Texto Unicode"), and counts a quoted line break as one row', () => {
    expect(decodeCsvBytes(join(Uint8Array.from([0xef, 0xbb, 0xbf]), utf8('nome\nAção\n'))).text).toBe(
      'nome\nAção\n',
    );
    const text = 'nome\tobs\nJosé\tok\n';
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    [...text].forEach((c, i) => {
      utf16[2 + i * 2] = c.charCodeAt(0);
    });
    expect(decodeCsvBytes(utf16)).toMatchObject({ text, encoding: 'utf-16le' });
    const quoted = join(utf8('nome;obs\nAna;"linha 1\nlinha 2"\n'), cp1252('Zé;x\n'), utf8('Ação;y\n'));
    expect(decodeCsvBytes(quoted).undecodedLines).toEqual([3]);
  });
});
