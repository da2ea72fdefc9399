import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { type SQL, sql } from 'drizzle-orm';
import yazl from 'yazl';
import type { Cell, Column, ColumnKind } from './tables.ts';

/**
 * XLSX exports (issue 34), written straight to the ECMA-376 SpreadsheetML format into a streaming zip (yazl,
 * deflate level 1): one sheet XML whose rows are strings (inline strings and numbers, no shared-string table,
 * no per-cell objects), so a year of sale lines (millions) streams at constant memory, waiting for the client.
 * The rows come either as cells (`xlsxStream`) or as row XML already written by PostgreSQL (`xlsxFromRowXml`,
 * fed by COPY). A sheet holds Excel's 1,048,576 rows (the header included); more rows continue on a second
 * sheet "<name> (2)" with the header again, and so on.
 */

/** An XLSX answer's content type. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Excel's rows per sheet (2^20), the header included. */
const XLSX_SHEET_ROWS = 1_048_576;
/** The data rows a sheet takes before the next sheet starts. */
export const XLSX_DATA_ROWS = XLSX_SHEET_ROWS - 1;

type XlsxOptions = {
  /** Data rows per sheet (tests make it small); XLSX_DATA_ROWS by default. */
  rowsPerSheet?: number;
};

// cellXfs of styles.xml: 0 general, 1 bold header, 2 money, 3 percent, 4 date, 5 date and time.
const STYLE: Record<ColumnKind, number> = {
  text: 0,
  int: 0,
  quantity: 0,
  money: 2,
  percent: 3,
  date: 4,
  dateTime: 5,
};
const HEADER_STYLE = 1;

const STYLES_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="4"><numFmt numFmtId="164" formatCode="#,##0.00"/><numFmt numFmtId="165" formatCode="0.00%"/><numFmt numFmtId="166" formatCode="dd/mm/yyyy"/><numFmt numFmtId="167" formatCode="dd/mm/yyyy hh:mm"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="167" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

/** A column's letters: 0 -> A, 25 -> Z, 26 -> AA. */
function columnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

// XML 1.0 has no place for these control characters (tab, LF and CR excepted): they are left out.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML cannot hold
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const XML_SPECIAL = /[&<>"]/g;
const XML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML cannot hold
const NEEDS_WORK = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

/** Text as XML character data (also fit for a double-quoted attribute). */
function xmlEscape(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(INVALID_XML, '').replace(XML_SPECIAL, (c) => XML_ENTITY[c]);
}

/** An inline string cell; edge spaces and line breaks kept (xml:space). Excel holds 32,767 characters a cell. */
function textCellXml(ref: string, text: string, style: number): string {
  const value = text.length > 32_767 ? text.slice(0, 32_767) : text;
  const space = /^\s|\s$/.test(value) ? ' xml:space="preserve"' : '';
  const s = style ? ` s="${style}"` : '';
  return `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${xmlEscape(value)}</t></is></c>`;
}

const DATE_TIME = /^(\d{2})\/(\d{2})\/(\d{4})(?: (\d{2}):(\d{2}))?$/;

/**
 * A date "05/01/2026" or "05/01/2026 16:08" (the shop's wall clock, as the other exports write it) as Excel's
 * serial number (days since 1899-12-30), null when the text is not one.
 */
function excelSerial(text: string): number | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]), Number(m[4] ?? 0), Number(m[5] ?? 0));
  return ms / 86_400_000 + 25_569;
}

/** A cell as XML: numbers scaled (cents to reais, basis points to a fraction), text inline, empty left out. */
function cellXml(ref: string, cell: Cell, kind: ColumnKind): string {
  if (cell === null || cell === '') return '';
  if (typeof cell === 'string') {
    if (kind === 'date' || kind === 'dateTime') {
      const serial = excelSerial(cell);
      if (serial !== null) return `<c r="${ref}" s="${STYLE[kind]}"><v>${serial}</v></c>`;
    }
    return textCellXml(ref, cell, 0);
  }
  if (!Number.isFinite(cell)) return '';
  const value = kind === 'money' ? cell / 100 : kind === 'percent' ? cell / 10_000 : cell;
  const style = STYLE[kind];
  return `<c r="${ref}"${style ? ` s="${style}"` : ''}><v>${value}</v></c>`;
}

/** A data row's XML at sheet row `r`. */
function rowXml(r: number, cells: Cell[], columns: Column[], letters: string[]): string {
  let out = `<row r="${r}">`;
  for (let i = 0; i < columns.length; i++)
    out += cellXml(`${letters[i]}${r}`, cells[i] ?? null, columns[i].kind);
  return `${out}</row>\n`;
}

function sheetStart(columns: Column[], letters: string[], first: boolean): string {
  const cols = columns
    .map(
      (c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.kind === 'text' ? 28 : 14}" customWidth="1"/>`,
    )
    .join('');
  const header = columns.map((c, i) => textCellXml(`${letters[i]}1`, c.label, HEADER_STYLE)).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheetViews><sheetView${first ? ' tabSelected="1"' : ''} workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>
<row r="1">${header}</row>
`;
}
const SHEET_END = '</sheetData></worksheet>';

/** A sheet's name as Excel allows it: no []:*?/\, at most 31 characters, the part's number on the next ones. */
function sheetName(base: string, part: number): string {
  const clean = base.replace(/[[\]:*?/\\]/g, ' ').trim() || 'Planilha';
  const suffix = part > 1 ? ` (${part})` : '';
  return `${clean.slice(0, 31 - suffix.length).trimEnd()}${suffix}`;
}

/**
 * The workbook being written: sheets opened one after another into the zip, then the workbook's parts
 * (which name the sheets, so they come after them: a zip is read by its central directory, in any order).
 */
class WorkbookWriter {
  readonly zip = new yazl.ZipFile();
  readonly letters: string[];
  private sheets = 0;
  private sheet: PassThrough | null = null;
  /** Rows written on the current sheet, its header excluded. */
  rows = 0;
  private aborted: Error | null = null;

  constructor(
    private readonly name: string,
    private readonly columns: Column[],
    readonly rowsPerSheet: number,
  ) {
    this.letters = columns.map((_, i) => columnLetters(i));
    this.zip.on('error', (error: Error) => this.output.destroy(error));
    this.zip.addBuffer(Buffer.from(PACKAGE_RELS), '_rels/.rels', XLSX_ZIP);
    this.zip.addBuffer(Buffer.from(STYLES_XML), 'xl/styles.xml', XLSX_ZIP);
  }

  get output(): Readable {
    return this.zip.outputStream as Readable;
  }

  /** Opens the next sheet (its header row written). */
  private open(): PassThrough {
    this.sheets++;
    const sheet = new PassThrough({ highWaterMark: 1 << 20 });
    // An aborted sheet's error reaches the writer through `aborted` and its pending write, never unhandled.
    sheet.on('error', () => {});
    this.zip.addReadStream(sheet, `xl/worksheets/sheet${this.sheets}.xml`, XLSX_ZIP);
    sheet.write(sheetStart(this.columns, this.letters, this.sheets === 1));
    this.sheet = sheet;
    this.rows = 0;
    return sheet;
  }

  /** Writes rows' XML (`count` rows, all on the current sheet), waiting while the zip is behind. */
  async write(xml: string | Buffer, count: number): Promise<void> {
    this.check();
    const sheet = this.sheet ?? this.open();
    this.rows += count;
    if (!sheet.write(xml)) await once(sheet, 'drain');
  }

  /** Room left on the current sheet (0 when it is full or none is open). */
  room(): number {
    return this.sheet ? this.rowsPerSheet - this.rows : 0;
  }

  /** Throws when the download was closed (the rows' loop stops at its next row). */
  check(): void {
    if (this.aborted) throw this.aborted;
  }

  /** Fails the sheet being written (its pending write rejects). */
  abort(error: Error): void {
    this.aborted = error;
    this.sheet?.destroy(error);
  }

  /** Closes the current sheet (if any) and opens the next one. */
  turn(): void {
    this.sheet?.end(SHEET_END);
    this.open();
  }

  /** Ends the last sheet (a header-only sheet when there were no rows), writes the workbook's parts. */
  finish(): void {
    if (!this.sheet) this.open();
    this.sheet?.end(SHEET_END);
    const names = Array.from({ length: this.sheets }, (_, i) => sheetName(this.name, i + 1));
    const sheets = names
      .map((n, i) => `<sheet name="${xmlEscape(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join('');
    this.zip.addBuffer(
      Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`),
      'xl/workbook.xml',
      XLSX_ZIP,
    );
    const rels = names
      .map(
        (_, i) =>
          `<Relationship Id="rId${i + 1}" Type="${NS_REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
      )
      .join('');
    this.zip.addBuffer(
      Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}<Relationship Id="rId${names.length + 1}" Type="${NS_REL}/styles" Target="styles.xml"/></Relationships>`),
      'xl/_rels/workbook.xml.rels',
      XLSX_ZIP,
    );
    const overrides = names
      .map(
        (_, i) =>
          `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
      )
      .join('');
    this.zip.addBuffer(
      Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${overrides}</Types>`),
      '[Content_Types].xml',
      XLSX_ZIP,
    );
    this.zip.end();
  }
}

/** Deflate's fastest level: the sheet's XML is repetitive, so the file grows little for much less work. */
const XLSX_ZIP = { compressionLevel: 1, mtime: new Date(0) } as const;

/**
 * Runs `fill`, destroying the answer with its error (the download fails instead of ending truncated). A
 * download closed early (the client gone) fails the sheet's pending write, so `fill` stops and its rows'
 * source is closed (a COPY's connection goes back to the pool) instead of waiting for a drain forever.
 */
function run(writer: WorkbookWriter, fill: () => Promise<void>): Readable {
  const out = writer.output;
  let filled = false;
  out.once('close', () => {
    if (!filled) writer.abort(new Error('XLSX download closed before its end'));
  });
  fill().then(
    () => {
      filled = true;
      writer.finish();
    },
    (error) => {
      filled = true;
      out.destroy(error);
    },
  );
  return out;
}

/**
 * A report table as an XLSX workbook: money and percents are numbers with a format (the spreadsheet sums
 * them), dates (`date`, `dateTime` columns) are dates, text is text (never a formula; leading zeros kept).
 */
export function xlsxStream(
  sheetTitle: string,
  columns: Column[],
  rows: AsyncIterable<Cell[]>,
  options: XlsxOptions = {},
): Readable {
  const writer = new WorkbookWriter(sheetTitle, columns, options.rowsPerSheet ?? XLSX_DATA_ROWS);
  return run(writer, async () => {
    let chunk = '';
    let count = 0;
    const flush = async () => {
      if (count) await writer.write(chunk, count);
      chunk = '';
      count = 0;
    };
    for await (const cells of rows) {
      writer.check();
      if (writer.room() - count === 0) {
        await flush();
        writer.turn();
      }
      chunk += rowXml(writer.rows + count + 2, cells, columns, writer.letters);
      count++;
      if (chunk.length > 1 << 16) await flush();
    }
    await flush();
  });
}

/**
 * Rows whose XML PostgreSQL wrote (`xlsxRowSql`), one per line, streamed by COPY: Node counts the lines to
 * turn the sheet at its last row and passes the bytes on. `rowsPerSheet` must be the one the SQL numbered
 * its rows with.
 */
export function xlsxFromRowXml(
  sheetTitle: string,
  columns: Column[],
  lines: AsyncIterable<Buffer>,
  options: XlsxOptions = {},
): Readable {
  const writer = new WorkbookWriter(sheetTitle, columns, options.rowsPerSheet ?? XLSX_DATA_ROWS);
  return run(writer, async () => {
    for await (const chunk of lines) {
      if (chunk.indexOf(0x5c) !== -1) throw new Error('COPY escaped a row XML (a backslash in the output)');
      let from = 0;
      while (from < chunk.length) {
        if (writer.room() === 0) writer.turn();
        // The row that fills the sheet ends the slice; the rest goes to the next sheet.
        let end = chunk.length;
        let count = 0;
        const room = writer.room();
        for (let i = chunk.indexOf(0x0a, from); i !== -1; i = chunk.indexOf(0x0a, i + 1)) {
          count++;
          if (count === room) {
            end = i + 1;
            break;
          }
        }
        await writer.write(chunk.subarray(from, end), count);
        from = end;
      }
    }
  });
}

/**
 * A query of one text column, each row's XML (no line break: COPY ends each row with one), over `source`: a
 * query ordered as the export whose columns are c0, c1, ... (the columns' cells: text as text, int and
 * quantity as numbers, money in cents, percent in basis points, date and dateTime as a timestamp without zone,
 * the shop's wall clock) and `n`, the row's 1-based number in the export, from which its sheet row is derived
 * with `rowsPerSheet`. Text is escaped for XML and carries no backslash, tab or line break (written as
 * character references), so COPY's text format leaves the line as it is. The outer query keeps the source's
 * order (a subquery scan, no join or sort of its own).
 */
export function xlsxRowsSql(columns: Column[], source: SQL, rowsPerSheet: number = XLSX_DATA_ROWS): SQL {
  const parts: SQL[] = [sql`'<row r="'`, sql`t.r`, sql`'">'`];
  columns.forEach((column, i) => {
    const letter = columnLetters(i);
    const value = sql.raw(`t.c${i}`);
    const style = STYLE[column.kind] ? ` s="${STYLE[column.kind]}"` : '';
    // One concat() a cell (a single function call, where chained || allocate a string per step).
    const cell = (attributes: string, inner: string, text: SQL, close: string) =>
      sql`concat(${sql.raw(`'<c r="${letter}'`)}, t.r, ${sql.raw(`'"${attributes}>${inner}'`)}, ${text}, ${sql.raw(`'${close}'`)})`;
    const number = (text: SQL) =>
      sql`case when ${value} is null then '' else ${cell(style, '<v>', text, '</v></c>')} end`;
    switch (column.kind) {
      case 'text':
        // Most text needs no change: one regular expression tells; the rest is escaped and keeps its spaces.
        parts.push(sql`case when ${value} is null or ${value} = '' then ''
          when ${value} ~ '[&<>"\\\\[:cntrl:]]|^[[:space:]]|[[:space:]]$' then
            ${cell(' t="inlineStr"', '<is><t xml:space="preserve">', xmlTextSql(value), '</t></is></c>')}
          else ${cell(' t="inlineStr"', '<is><t>', value, '</t></is></c>')} end`);
        break;
      case 'money':
        parts.push(number(sql`(${value}::float8 / 100)::text`));
        break;
      case 'percent':
        parts.push(number(sql`(${value}::float8 / 10000)::text`));
        break;
      case 'int':
        parts.push(number(sql`${value}::text`));
        break;
      case 'quantity':
        parts.push(number(sql`trim_scale(${value}::numeric)::text`));
        break;
      case 'date':
      case 'dateTime': {
        const unit = sql.raw(column.kind === 'date' ? "'day'" : "'minute'");
        parts.push(
          number(sql`(date_part('epoch', date_trunc(${unit}, ${value}::timestamp)) / 86400 + 25569)::text`),
        );
        break;
      }
    }
  });
  parts.push(sql`'</row>'`);
  return sql`select concat(${sql.join(parts, sql`, `)}) as line
    from (select src.*, ((src.n - 1) % ${sql.raw(String(rowsPerSheet))} + 2)::text as r from (${source}) src) t`;
}

/** Text as XML character data in SQL (see xmlEscape), for text that holds a character to change. */
function xmlTextSql(value: SQL): SQL {
  const controls = Array.from({ length: 31 }, (_, i) => i + 1)
    .filter((c) => c !== 9 && c !== 10 && c !== 13)
    .map((c) => `chr(${c})`)
    .join(' || ');
  return sql`replace(replace(replace(replace(replace(replace(replace(replace(
      translate(${value}, ${sql.raw(controls)}, ''),
      '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '\\', '&#92;'),
      chr(9), '&#9;'), chr(10), '&#10;'), chr(13), '&#13;')`;
}
