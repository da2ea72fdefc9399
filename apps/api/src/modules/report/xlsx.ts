import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Cell, Column } from './tables.ts';

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
export function xlsxStream(sheetName: string, columns: Column[], rows: AsyncIterable<Cell[]>): PassThrough {
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
