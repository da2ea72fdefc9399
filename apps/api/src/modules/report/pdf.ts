import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { changeLabel, type SalesReport } from '@balcao/core/report';
import type { StockTurnover } from '@balcao/core/stockTurnover';
import PDFDocument from 'pdfkit';

/**
 * The reports as A4 PDFs (issue 34; OSPOS #1681 has none): a heading, then tables drawn whole. PDFKit with
 * DejaVu embedded (as the DRE's); the document is a stream sent as it is drawn, and a table's rows may come
 * from an async source (the DRE drill-down reads its records page by page), so a long list never sits
 * whole in memory.
 */
const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function pdfFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf')),
  };
  return fonts;
}

type PdfRow = (string | number)[];
export type PdfTable = {
  title: string;
  head: string[];
  rows: Iterable<PdfRow> | AsyncIterable<PdfRow>;
  /** What an empty table says ("Nenhuma venda no período." by default). */
  empty?: string;
  /** The last row is a total: drawn in bold. */
  totalLast?: boolean;
};

export type TablesPdf = {
  shopName: string;
  /** The document's title (its metadata) and the heading under the shop's name. */
  title: string;
  /** A small grey line under the heading (the comparison, when it was generated). */
  note: string;
  tables: PdfTable[];
};

/** A4 portrait: the heading, then each table whole, a new page whenever one fills. */
export function tablesPdf({ shopName, title, note, tables }: TablesPdf): PDFKit.PDFDocument {
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: title, Author: shopName } });
  doc.registerFont('Body', pdfFonts().regular);
  doc.registerFont('Body-Bold', pdfFonts().bold);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  function drawRow(cells: PdfRow, bold: boolean, x: (i: number) => number, w: (i: number) => number) {
    doc.font(bold ? 'Body-Bold' : 'Body').fontSize(8);
    const height = Math.max(...cells.map((c, i) => doc.heightOfString(String(c), { width: w(i) - 4 })), 10);
    if (doc.y + height > bottom()) doc.addPage();
    const y = doc.y;
    cells.forEach((c, i) => {
      doc.text(String(c), x(i), y, { width: w(i) - 4, align: i === 0 ? 'left' : 'right', lineBreak: true });
    });
    doc.x = left;
    doc.y = y + height + 2;
  }

  async function drawTable(table: PdfTable) {
    const columns = table.head.length;
    // The first column takes what the others leave; the others are equal and right-aligned, each as wide
    // as its headers' longest word (no word cut in two) while the first keeps a fifth of the page.
    doc.font('Body-Bold').fontSize(8);
    const words = table.head.slice(1).flatMap((h) => h.split(/\s+/));
    const widest = Math.max(0, ...words.map((word) => doc.widthOfString(word))) + 6;
    const others = Math.max(columns - 1, 1);
    const other = Math.min(Math.max(Math.min(80, (width * 0.6) / others), widest), (width * 0.8) / others);
    const firstWidth = width - other * (columns - 1);
    const x = (i: number) => (i === 0 ? left : left + firstWidth + other * (i - 1));
    const w = (i: number) => (i === 0 ? firstWidth : other);
    if (doc.y + 60 > bottom()) doc.addPage();
    doc.moveDown(0.6);
    doc.font('Body-Bold').fontSize(11).text(table.title, left, doc.y);
    doc.moveDown(0.2);
    drawRow(table.head, true, x, w);
    // One row behind: the last one is known only when the rows end (a total drawn in bold).
    let held: PdfRow | null = null;
    for await (const cells of table.rows) {
      if (held) drawRow(held, false, x, w);
      held = cells;
    }
    if (held) drawRow(held, table.totalLast === true, x, w);
    else
      doc
        .font('Body')
        .fontSize(8)
        .text(table.empty ?? 'Nenhuma venda no período.', left, doc.y);
  }

  doc.font('Body-Bold').fontSize(15).text(shopName, left, doc.y);
  doc.font('Body').fontSize(11).text(title);
  doc.fontSize(8).fillColor('#555').text(note).fillColor('black');
  doc.moveDown(0.6);
  (async () => {
    for (const table of tables) await drawTable(table);
    doc.end();
  })().catch((error: unknown) => doc.destroy(error as Error));
  return doc;
}

/** A figure beside the previous period's and the change ("+12,5%"; "-" when there was nothing before). */
export function comparedRow(label: string, current: number, previous: number, format = formatCents): PdfRow {
  return [label, format(current), format(previous), changeLabel(current, previous) ?? '-'];
}
export const COMPARED_HEAD = ['', 'Período', 'Período anterior', 'Variação'];

/** The sales report: the summary against the previous period, then every table whole. */
export function reportPdf(
  shopName: string,
  report: SalesReport,
  tables: PdfTable[],
  generatedAt: string,
): PDFKit.PDFDocument {
  const s = report.summary;
  const p = report.previous;
  const summary: PdfRow[] = [
    comparedRow('Vendas', s.salesCount, p.salesCount, String),
    comparedRow('Receita bruta', s.grossCents, p.grossCents),
    comparedRow('Descontos', s.discountsCents, p.discountsCents),
    comparedRow('Devoluções', s.returnsCents, p.returnsCents),
    comparedRow('Valor líquido', s.netCents, p.netCents),
    comparedRow('Custo', s.costCents, p.costCents),
    comparedRow('Margem', s.marginCents, p.marginCents),
    comparedRow('Ticket médio', s.averageTicketCents, p.averageTicketCents),
    [
      'Canceladas',
      `${s.canceledCount} (${formatCents(s.canceledCents)})`,
      `${p.canceledCount} (${formatCents(p.canceledCents)})`,
      changeLabel(s.canceledCents, p.canceledCents) ?? '-',
    ],
  ];
  return tablesPdf({
    shopName,
    title: `Relatório de vendas de ${formatDateBr(report.from)} a ${formatDateBr(report.to)}`,
    note: `Comparado com ${formatDateBr(p.from)} a ${formatDateBr(p.to)}. Gerado em ${generatedAt}.`,
    tables: [{ title: 'Resumo', head: COMPARED_HEAD, rows: summary }, ...tables],
  });
}

const decimal = (digits: number) => (value: number | null) =>
  value === null ? '-' : value.toFixed(digits).replace('.', ',');

/** The stock turnover: every product together against the previous period, then the categories and products. */
export function turnoverPdf(
  shopName: string,
  report: StockTurnover,
  tables: PdfTable[],
  generatedAt: string,
): PDFKit.PDFDocument {
  const s = report.summary;
  const p = report.previous;
  const ratio = (label: string, current: number | null, previous: number | null, digits: number) => [
    label,
    decimal(digits)(current),
    decimal(digits)(previous),
    current === null || previous === null ? '-' : (changeLabel(current, previous) ?? '-'),
  ];
  return tablesPdf({
    shopName,
    title: `Giro de estoque de ${formatDateBr(report.from)} a ${formatDateBr(report.to)}`,
    note: `Comparado com ${formatDateBr(p.from)} a ${formatDateBr(p.to)}. Giro = CMV ÷ valor médio do estoque; dias de estoque = estoque final ÷ média vendida por dia. Gerado em ${generatedAt}.`,
    tables: [
      {
        title: 'Resumo',
        head: COMPARED_HEAD,
        rows: [
          comparedRow('CMV', s.cogsCents, p.cogsCents),
          comparedRow('Estoque médio', s.averageStockCents, p.averageStockCents),
          comparedRow('Estoque final', s.closingStockCents, p.closingStockCents),
          ratio('Giro', s.turnover, p.turnover, 2),
          ratio('Dias de estoque', s.daysOfStock, p.daysOfStock, 1),
        ],
      },
      ...tables,
    ],
  });
}
