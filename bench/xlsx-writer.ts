/**
 * The XLSX writer in isolation (issue 34): BENCH_ROWS synthetic sale lines (the lines export's 15 columns,
 * default 300,000) written to a null sink by the writer before (ExcelJS's streaming WorkbookWriter with shared
 * column styles and deflate 1, kept here verbatim) and by the current one (`xlsxStream`: the sheet XML
 * written directly into yazl, deflate 1), one after the other in one run: rows/s, bytes, peak RSS of the process.
 *
 *   npx tsx bench/xlsx-writer.ts            # both writers
 *   BENCH_WRITERS=new BENCH_ROWS=1000000 npx tsx bench/xlsx-writer.ts
 */
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Cell, Column } from '../apps/api/src/modules/report/tables.ts';
import { LINE_COLUMNS } from '../apps/api/src/modules/report/tables.ts';
import { xlsxStream } from '../apps/api/src/modules/report/xlsx.ts';
import { machine } from './lib.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 300_000);
const WRITERS = (process.env.BENCH_WRITERS ?? 'old,new').split(',');

/** Sale lines shaped as the bench's database holds them (1-9 lines a sale, a return now and then). */
async function* lines(): AsyncGenerator<Cell[]> {
  let sale = 0;
  for (let i = 0; i < ROWS; i++) {
    if (i % 5 === 0) sale++;
    const product = 1 + ((i * 7919) % 2000);
    const price = 500 + ((product * 137) % 20000);
    yield [
      100_000 + sale,
      `${String(1 + (sale % 28)).padStart(2, '0')}/11/2026 ${String(sale % 24).padStart(2, '0')}:${String(sale % 60).padStart(2, '0')}`,
      'Administrador da Loja',
      'PDV',
      product,
      `Produto bench ${product}`,
      null,
      `BENCH-${product}`,
      null,
      1,
      i % 100 === 7 ? 1 : 0,
      price,
      0,
      price,
      i % 100 === 7 ? price : 0,
    ];
  }
}

type Backlog = { _writableState?: { length: number; needDrain: boolean } } & NodeJS.EventEmitter;
const ZIP_BACKLOG_BYTES = 4 * 2 ** 20;

/**
 * Waits while the zip entry's input that ExcelJS pipes the sheet into (its StreamBuf's `pipes`, internal to
 * ExcelJS 4) holds more than a few MiB. Without those internals (another ExcelJS version) it does not wait.
 */
async function zipCaughtUp(sheet: unknown): Promise<void> {
  const pipes = (sheet as { stream?: { pipes?: Backlog[] } }).stream?.pipes ?? [];
  for (const pipe of pipes) {
    const state = pipe._writableState;
    if (state && state.length > ZIP_BACKLOG_BYTES && state.needDrain) await once(pipe, 'drain');
  }
}

/**
 * A report table as an XLSX workbook (issue 34), written with ExcelJS's streaming writer: rows are
 * committed as they come and the zip is streamed to the answer, so every line of a year (millions)
 * never sits in memory. Money and percents are numbers with a format (the spreadsheet sums them); a
 * text cell is a string, never a formula.
 */
function exceljsStream(sheetName: string, columns: Column[], rows: AsyncIterable<Cell[]>): PassThrough {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
    // Deflate's fastest level: the sheet's XML is repetitive, so the file grows little, and the zip work
    // (libuv's threads) no longer competes with the rows for a small server's cores.
    zip: { zlib: { level: 1 } },
  });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.columns = columns.map((c) => ({
    header: c.label,
    width: c.kind === 'text' ? 28 : 14,
    style: {
      numFmt:
        c.kind === 'money'
          ? '#,##0.00'
          : c.kind === 'percent'
            ? '0.00%'
            : c.kind === 'quantity'
              ? '0.###'
              : undefined,
    },
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  // One style object per column, shared by its cells: ExcelJS finds a style it has seen by identity
  // (a WeakMap), where the copy each new cell gets would be rendered and looked up again, cell by cell.
  const styles = columns.map((c) => ({ ...(sheet.getColumn(columns.indexOf(c) + 1).style ?? {}) }));
  const value = (cell: Cell, column: Column) => {
    if (cell === null || typeof cell === 'string') return cell ?? '';
    if (column.kind === 'money') return cell / 100;
    if (column.kind === 'percent') return cell / 10000;
    return cell;
  };
  (async () => {
    let count = 0;
    for await (const cells of rows) {
      const row = sheet.addRow(cells.map((c, i) => value(c, columns[i])));
      for (let i = 0; i < styles.length; i++) row.getCell(i + 1).style = styles[i];
      row.commit();
      // Wait for the client when the answer's buffer fills: memory stays flat on a slow connection.
      if (++count % 1000 === 0 && out.writableNeedDrain) await once(out, 'drain');
      // And for the zip stage: ExcelJS writes the sheet's XML into it without waiting, so a deflate slower
      // than the rows would queue the whole sheet there.
      if (count % 1000 === 0) await zipCaughtUp(sheet);
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error) => out.destroy(error));
  return out;
}

async function measure(name: string, write: (rows: AsyncIterable<Cell[]>) => NodeJS.ReadableStream) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  const t0 = process.hrtime.bigint();
  const out = write(lines());
  out.pipe(sink);
  await once(sink, 'finish');
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  clearInterval(timer);
  console.log(
    `| ${name} | ${ROWS.toLocaleString('en')} | ${seconds.toFixed(1)} | ${Math.round(ROWS / seconds).toLocaleString('en')} | ${(bytes / 2 ** 20).toFixed(1)} | ${(before / 2 ** 20).toFixed(0)} / ${(peak / 2 ** 20).toFixed(0)} | ${(5_000_000 / (ROWS / seconds)).toFixed(0)} |`,
  );
}

console.log(
  `${new Date().toISOString().slice(0, 16)} · ${machine()} · load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`,
);
console.log(
  '| writer | rows | s | rows/s | MiB | RSS before / peak MiB | 5 M rows would take s |\n|---|---|---|---|---|---|---|',
);
for (const w of WRITERS) {
  if (w === 'old')
    await measure('ExcelJS streaming (before)', (rows) => exceljsStream('Linhas', LINE_COLUMNS, rows));
  if (w === 'new')
    await measure('sheet XML + yazl (now)', (rows) => xlsxStream('Linhas', LINE_COLUMNS, rows));
}
console.log(
  `load at the end ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`,
);
