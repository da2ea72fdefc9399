import { analyse } from 'chardet';

/**
 * Reading an imported CSV file's bytes as text (issue 30). The encoding is chosen per file:
 * - a byte order mark decides (UTF-8, or the UTF-16 of Excel's "Texto Unicode");
 * - otherwise, line by line: a file whose non-ASCII lines are mostly valid UTF-8 is UTF-8, and the
 *   lines that are not (a few pasted from an old Windows program) are decoded with "�" and FLAGGED,
 *   never the whole file read as Windows-1252 ("CalÃ§a" on every good line);
 * - a file with no valid UTF-8 at all is a single-byte one: chardet names it (Windows-1252/ISO-8859-1
 *   for what Excel in pt-BR saves, UTF-16 without a mark), and its minority of UTF-8 lines are flagged.
 * Line numbers are rows as a spreadsheet counts them: the header is 1, blank rows count, a line break
 * inside a quoted cell stays in its row.
 */
export type DecodedCsv = {
  text: string;
  /** The WHATWG label the text was decoded with. */
  encoding: string;
  /** Rows (spreadsheet numbering) whose bytes did not decode in that encoding. */
  undecodedLines: number[];
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const hasHighBytes = (bytes: Uint8Array) => bytes.some((b) => b >= 0x80);

/** The physical lines' byte ranges (split at LF). */
function byteLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** For each physical line of `text`, its row as a spreadsheet counts (quoted line breaks stay in a row). */
function rowOfPhysicalLines(text: string): number[] {
  const rows: number[] = [1];
  let row = 1;
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (char === '\n') {
      if (!quoted) row++;
      rows.push(row);
    }
  }
  return rows;
}

/** Which single-byte (or UTF-16) encoding chardet sees, among those a Brazilian spreadsheet saves. */
function legacyEncoding(bytes: Uint8Array): string {
  for (const match of analyse(bytes)) {
    const name = match.name.toLowerCase();
    if (name === 'utf-16le' || name === 'utf-16be') return name;
    if (name === 'windows-1252' || name === 'iso-8859-1' || name === 'iso-8859-15') return 'windows-1252';
  }
  return 'windows-1252';
}

export function decodeCsvBytes(bytes: Uint8Array): DecodedCsv {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return whole(bytes.subarray(2), 'utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return whole(bytes.subarray(2), 'utf-16be');
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (isUtf8(body)) return { text: utf8.decode(body), encoding: 'utf-8', undecodedLines: [] };

  const lines = byteLines(body);
  const utf8Lines = lines.filter((l) => hasHighBytes(l) && isUtf8(l)).length;
  const brokenLines = lines.filter((l) => !isUtf8(l)).length;
  const legacy = utf8Lines >= brokenLines && utf8Lines > 0 ? null : legacyEncoding(body);
  if (legacy?.startsWith('utf-16')) return whole(body, legacy);

  const encoding = legacy ?? 'utf-8';
  const decoder = new TextDecoder(encoding);
  const texts: string[] = [];
  const flagged: number[] = [];
  lines.forEach((line, i) => {
    const wrong = encoding === 'utf-8' ? !isUtf8(line) : hasHighBytes(line) && isUtf8(line);
    if (wrong) flagged.push(i);
    texts.push(decoder.decode(line));
  });
  const text = texts.join('');
  const rowOf = rowOfPhysicalLines(text);
  return { text, encoding, undecodedLines: [...new Set(flagged.map((i) => rowOf[i]))] };
}

function whole(bytes: Uint8Array, encoding: string): DecodedCsv {
  const text = new TextDecoder(encoding).decode(bytes);
  const rowOf = rowOfPhysicalLines(text);
  const flagged = text.split('\n').flatMap((line, i) => (line.includes('\uFFFD') ? [rowOf[i]] : []));
  return { text, encoding, undecodedLines: [...new Set(flagged)] };
}

/** Reads a chosen CSV file (see `decodeCsvBytes`). */
export async function readCsvFile(file: File): Promise<DecodedCsv> {
  return decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
}

/** The preview's warning for rows that did not decode, naming them; null when every row did. */
export function undecodedWarning(lines: number[]): string | null {
  if (lines.length === 0) return null;
  const shown = lines.slice(0, 20).join(', ');
  const more = lines.length > 20 ? ` e mais ${lines.length - 20}` : '';
  return lines.length === 1
    ? `A linha ${shown} tem caracteres que não puderam ser lidos (aparecem como "�"). Confira essa linha na planilha e salve o arquivo como CSV UTF-8.`
    : `As linhas ${shown}${more} têm caracteres que não puderam ser lidos (aparecem como "�"). Confira essas linhas na planilha e salve o arquivo como CSV UTF-8.`;
}
