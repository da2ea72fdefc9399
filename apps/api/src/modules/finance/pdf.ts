import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Dre } from '@balcao/core/finance';
import { formatCents } from '@balcao/core/money';
import PDFDocument from 'pdfkit';

/** The DRE as an A4 PDF (issue 34): PDFKit with DejaVu embedded, as the budget's PDF. */
const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function pdfFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf')),
  };
  return fonts;
}

export function drePdf(shopName: string, dre: Dre, monthLabel: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `DRE ${monthLabel}`, Author: shopName },
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
  doc.font('Body-Bold').fontSize(16).text(shopName, left, doc.y);
  doc.font('Body').fontSize(12).text(`DRE - Demonstração do resultado de ${monthLabel}`);
  doc.fontSize(10).text(`${dre.salesCount} vendas no mês`);
  doc.moveDown();
  for (const line of dre.lines) {
    const y = doc.y;
    doc.font(line.total ? 'Body-Bold' : 'Body').fontSize(11);
    doc.text(line.label, left, y, { width: width - 140 });
    doc.text(formatCents(line.amountCents), left + width - 140, y, { width: 140, align: 'right' });
    doc.moveDown(0.4);
  }
  doc.moveDown();
  doc
    .font('Body')
    .fontSize(9)
    .text(
      `Compras de mercadorias no mês (estoque, fora do resultado): ${formatCents(dre.purchasesCents)}`,
      left,
    );
  doc.end();
  return done;
}
