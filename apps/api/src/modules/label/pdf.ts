import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { barcodeKind, type LabelItem } from '@balcao/core/labels/printerLabels';
import { formatCents } from '@balcao/core/money';
import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';

/**
 * Labels on A4 sheets for an ordinary printer (issue 36): 3 columns x 8 rows of 70 x 37 mm (the
 * common Pimaco A4 sheet layout), each with the name, variant, price and the barcode drawn by
 * bwip-js (EAN-13 for a valid GTIN, Code 128 otherwise). PDFKit with DejaVu embedded, as the budget.
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

const MM = 72 / 25.4;
const COLUMNS = 3;
const ROWS = 8;
const LABEL_W = 70 * MM;
const LABEL_H = 37 * MM;
const TOP = (297 * MM - ROWS * LABEL_H) / 2;
const PAD = 3 * MM;

async function barcodePng(code: string): Promise<Buffer> {
  const ean = barcodeKind(code) === 'ean13';
  return bwipjs.toBuffer({
    bcid: ean ? 'ean13' : 'code128',
    text: code,
    scale: 3,
    height: 10,
    includetext: true,
    textxalign: 'center',
  });
}

export async function labelsPdf(items: readonly LabelItem[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 0, info: { Title: 'Etiquetas', Producer: 'Balcão' } });
  const { regular, bold } = pdfFonts();
  doc.registerFont('Body', regular);
  doc.registerFont('Body-Bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const pngs = new Map<string, Buffer>();
  let slot = 0;
  for (const item of items) {
    if (!pngs.has(item.code)) pngs.set(item.code, await barcodePng(item.code));
    for (let copy = 0; copy < item.copies; copy++) {
      if (slot > 0 && slot % (COLUMNS * ROWS) === 0) doc.addPage();
      const onPage = slot % (COLUMNS * ROWS);
      const x = (onPage % COLUMNS) * LABEL_W;
      const y = TOP + Math.floor(onPage / COLUMNS) * LABEL_H;
      const width = LABEL_W - 2 * PAD;
      doc
        .font('Body-Bold')
        .fontSize(9)
        .text(item.name, x + PAD, y + PAD, { width, height: 22, ellipsis: true });
      if (item.variantName)
        doc
          .font('Body')
          .fontSize(8)
          .text(item.variantName, x + PAD, y + PAD + 12, { width });
      doc
        .font('Body-Bold')
        .fontSize(14)
        .text(formatCents(item.priceCents), x + PAD, y + PAD + 22, { width });
      doc.image(pngs.get(item.code) as Buffer, x + PAD, y + PAD + 40, {
        fit: [width, LABEL_H - 2 * PAD - 40],
      });
      slot++;
    }
  }
  doc.end();
  return done;
}
