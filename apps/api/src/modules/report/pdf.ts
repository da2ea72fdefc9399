import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import type { SalesReport } from '@balcao/core/report';
import PDFDocument from 'pdfkit';

/**
 * The sales report as an A4 PDF (issue 34; OSPOS #1681 has none): the summary against the previous
 * period, then every table whole. PDFKit with DejaVu embedded (as the DRE's); the document is a stream
 * sent as it is drawn, so a long product list never sits whole in memory.
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

type Table = { title: string; head: string[]; rows: (string | number)[][] };

export function reportPdf(
  shopName: string,
  report: SalesReport,
  tables: Table[],
  generatedAt: string,
): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    info: { Title: `Relatório de vendas ${report.from} a ${report.to}`, Author: shopName },
  });
  doc.registerFont('Body', pdfFonts().regular);
  doc.registerFont('Body-Bold', pdfFonts().bold);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  doc.font('Body-Bold').fontSize(15).text(shopName, left, doc.y);
  doc
    .font('Body')
    .fontSize(11)
    .text(`Relatório de vendas de ${formatDateBr(report.from)} a ${formatDateBr(report.to)}`);
  doc
    .fontSize(8)
    .fillColor('#555')
    .text(
      `Comparado com ${formatDateBr(report.previous.from)} a ${formatDateBr(report.previous.to)}. Gerado em ${generatedAt}.`,
    )
    .fillColor('black');
  doc.moveDown(0.6);

  const s = report.summary;
  const p = report.previous;
  const summary: [string, string, string][] = [
    ['Vendas', String(s.salesCount), String(p.salesCount)],
    ['Receita bruta', formatCents(s.grossCents), formatCents(p.grossCents)],
    ['Descontos', formatCents(s.discountsCents), formatCents(p.discountsCents)],
    ['Devoluções', formatCents(s.returnsCents), formatCents(p.returnsCents)],
    ['Valor líquido', formatCents(s.netCents), formatCents(p.netCents)],
    ['Custo', formatCents(s.costCents), formatCents(p.costCents)],
    ['Margem', formatCents(s.marginCents), formatCents(p.marginCents)],
    ['Ticket médio', formatCents(s.averageTicketCents), formatCents(p.averageTicketCents)],
    [
      'Canceladas',
      `${s.canceledCount} (${formatCents(s.canceledCents)})`,
      `${p.canceledCount} (${formatCents(p.canceledCents)})`,
    ],
  ];
  drawTable({ title: 'Resumo', head: ['', 'Período', 'Período anterior'], rows: summary });
  for (const table of tables) drawTable(table);
  doc.end();
  return doc;

  function drawTable(table: Table) {
    const columns = table.head.length;
    // The first column takes what the others leave; the others are equal and right-aligned.
    const other = Math.min(80, (width * 0.6) / Math.max(columns - 1, 1));
    const firstWidth = width - other * (columns - 1);
    const x = (i: number) => (i === 0 ? left : left + firstWidth + other * (i - 1));
    const w = (i: number) => (i === 0 ? firstWidth : other);
    const row = (cells: (string | number)[], bold: boolean) => {
      doc.font(bold ? 'Body-Bold' : 'Body').fontSize(8);
      const height = Math.max(...cells.map((c, i) => doc.heightOfString(String(c), { width: w(i) - 4 })), 10);
      if (doc.y + height > bottom()) doc.addPage();
      const y = doc.y;
      cells.forEach((c, i) => {
        doc.text(String(c), x(i), y, { width: w(i) - 4, align: i === 0 ? 'left' : 'right', lineBreak: true });
      });
      doc.x = left;
      doc.y = y + height + 2;
    };
    if (doc.y + 60 > bottom()) doc.addPage();
    doc.moveDown(0.6);
    doc.font('Body-Bold').fontSize(11).text(table.title, left, doc.y);
    doc.moveDown(0.2);
    row(table.head, true);
    if (table.rows.length === 0) {
      doc.font('Body').fontSize(8).text('Nenhuma venda no período.', left, doc.y);
      return;
    }
    for (const cells of table.rows) row(cells, false);
  }
}
