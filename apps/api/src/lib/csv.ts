import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import Papa from 'papaparse';

/**
 * A streamed CSV download: the header, then the rows turned into lines 500 at a time, so a large
 * export never sits whole in memory. Answered as `${name}-<today>.csv` (`today`: the shop's date,
 * `shopClock`), never cached.
 * The first row is read BEFORE the answer starts: a query the database refuses (a bad sort, a bad
 * filter) is the same 400 as the list's, never a 200 with a header line and a cut connection.
 */
export async function sendCsvStream<T>(
  reply: FastifyReply,
  name: string,
  csv: {
    header: string;
    rows: AsyncIterable<T>;
    lines: (batch: T[]) => string;
    today: string;
    /** A file name of its own (the sale list's names its period); `${name}-${today}.csv` otherwise. */
    fileName?: string;
  },
) {
  const iterator = csv.rows[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* chunks() {
    yield csv.header;
    let batch: T[] = [];
    for (let next = first; !next.done; next = await iterator.next()) {
      batch.push(next.value);
      if (batch.length === 500) {
        yield csv.lines(batch);
        batch = [];
      }
    }
    yield csv.lines(batch);
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csv.fileName ?? `${name}-${csv.today}.csv`}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(chunks()));
}

/** The separators a spreadsheet saves a CSV with: ";" (Excel in pt-BR), ",", tab, "|". */
const SEPARATORS = [';', ',', '\t', '|'] as const;

/**
 * The separator of a CSV, read from its header line only (outside quotes): the rows' cells, empty rows
 * and a final line break cannot outvote it (issue 31: `nome;email` with three rows and a final break
 * was read with ","). A one-column header: ";".
 */
export function detectCsvSeparator(text: string): string {
  const counts = new Map<string, number>(SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const char of text.replace(/^\uFEFF/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ';';
  for (const s of SEPARATORS) if ((counts.get(s) ?? 0) > (counts.get(best) ?? 0)) best = s;
  return best;
}

export type CsvRecord = {
  /** The row as a spreadsheet numbers it: the header is 1, blank rows count. */
  line: number;
  cells: string[];
  /** Papa found an unclosed quote in this row. */
  quoteError: boolean;
};

/**
 * Every row of an imported CSV (papaparse: RFC 4180 quoting, line breaks inside quoted cells), with the
 * separator of its header line and line numbers as the spreadsheet shows them. Blank rows are numbered
 * and left out.
 */
export function readCsvRecords(text: string): { header: string[] | null; rows: CsvRecord[] } {
  const source = text.replace(/^\uFEFF/, '');
  let header: string[] | null = null;
  const rows: CsvRecord[] = [];
  let line = 0;
  Papa.parse<string[]>(source, {
    delimiter: detectCsvSeparator(source),
    skipEmptyLines: false,
    step: (result) => {
      line++;
      const cells = result.data;
      if (!header) {
        header = cells;
        return;
      }
      if (cells.every((c) => c.trim() === '')) return;
      rows.push({ line, cells, quoteError: result.errors.some((e) => e.type === 'Quotes') });
    },
  });
  return { header, rows };
}

/**
 * A decimal written with a decimal comma ("1.234,56", "1234,56") as a dotted number ("1234.56"); null
 * when the dots do not group thousands of three digits ("1.2.3,4" is refused, never read as 123,4).
 * Text without a comma is returned as it is (each caller has its own rule for dots alone).
 */
export function commaDecimal(text: string): string | null {
  if (!text.includes(',')) return text;
  const m = /^(\d{1,3}(?:\.\d{3})+|\d+),(\d+)$/.exec(text);
  return m ? `${m[1].replace(/\./g, '')}.${m[2]}` : null;
}
