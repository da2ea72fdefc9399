import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { formatDateBr } from '@balcao/core/date';
import { CASH_FLOW_GROUPING_LABELS, type CashFlow } from '@balcao/core/finance';
import { formatCents } from '@balcao/core/money';
import PDFDocument from 'pdfkit';
import type { Table } from '../report/tables.ts';

/** The cash flow's PDF (issue 34): PDFKit with DejaVu embedded, as the budget's PDF (the DRE's is report/pdf.ts's tables). */
const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function pdfFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf')),
  };
  return fonts;
}

/**
 * The cash flow of a period as an A4 landscape PDF (issue 34): the opening balance, one row per period
 * with what came in, what went out, the projection and the balance, and the totals.
 */
export function cashFlowPdf(
  shopName: string,
  flow: CashFlow,
  table: Table,
  /** The sales received by payment method, a second table after the flow (issue 34). */
  methods?: Table,
): Promise<Buffer> {
  const title = `Fluxo de caixa de ${formatDateBr(flow.from)} a ${formatDateBr(flow.to)}`;
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 40,
    info: { Title: title, Author: shopName },
  });
  doc.registerFont('Body', pdfFonts().regular);
  doc.registerFont('Body-Bold', pdfFonts().bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  doc.font('Body-Bold').fontSize(15).text(shopName, left, doc.y);
  doc.font('Body').fontSize(11).text(title);
  doc
    .fontSize(8)
    .fillColor('#555')
    .text(
      `Agrupado por ${CASH_FLOW_GROUPING_LABELS[flow.groupBy].toLowerCase()}. Cartões e vales entram no dia em que caem na conta, já sem as taxas; o previsto é o que cai ou vence depois de ${formatDateBr(flow.today)}.`,
    )
    .fillColor('black');
  doc.moveDown(0.6);
  let columns = table.columns.length;
  let other = (width - 90) / (columns - 1);
  const x = (i: number) => (i === 0 ? left : left + 90 + other * (i - 1));
  const w = (i: number) => (i === 0 ? 90 : other);
  const row = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'Body-Bold' : 'Body').fontSize(8);
    const height = Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: w(i) - 4 })), 10);
    if (doc.y + height > bottom()) doc.addPage();
    const y = doc.y;
    cells.forEach((c, i) => {
      doc.text(c, x(i), y, { width: w(i) - 4, align: i === 0 ? 'left' : 'right' });
    });
    doc.x = left;
    doc.y = y + height + 2;
  };
  row(
    table.columns.map((c) => c.label),
    true,
  );
  table.rows.forEach((cells, index) => {
    const last = index === 0 || index === table.rows.length - 1;
    row(
      cells.map((c, i) => (c === null ? '' : i === 0 ? String(c) : formatCents(Number(c)))),
      last,
    );
  });
  if (methods) {
    columns = methods.columns.length;
    other = (width - 90) / (columns - 1);
    doc.moveDown(1);
    if (doc.y + 40 > bottom()) doc.addPage();
    doc.font('Body-Bold').fontSize(10).text('Vendas recebidas por forma de pagamento', left, doc.y);
    doc.moveDown(0.4);
    row(
      methods.columns.map((c) => c.label),
      true,
    );
    methods.rows.forEach((cells, index) => {
      row(
        cells.map((c, i) => (c === null ? '' : i === 0 ? String(c) : formatCents(Number(c)))),
        index === methods.rows.length - 1,
      );
    });
  }
  doc.end();
  return done;
}
