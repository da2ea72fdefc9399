import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { pdfFonts } from '../../lib/pdfFonts.ts';

/**
 * The tables' QR codes to print (issue 35): A4 sheets of 2 x 2 cards (about 10 x 14 cm, to stand in a
 * table holder), each with the shop's name, "Mesa N" in large type, the QR code of the table's menu
 * link (qrcode, as the DANFE's) and how to use it. Cut lines are light grey.
 */

const MM = 72 / 25.4;
const COLUMNS = 2;
const ROWS = 2;
const PAGE_W = 210 * MM;
const PAGE_H = 297 * MM;
const CARD_W = PAGE_W / COLUMNS;
const CARD_H = PAGE_H / ROWS;
const QR_SIZE = 70 * MM;

export async function tableQrPdf(
  shop: string,
  cards: readonly { tableLabel: string; url: string }[],
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    info: { Title: 'QR Codes das mesas', Producer: 'Balcão' },
  });
  const { regular, bold } = pdfFonts();
  doc.registerFont('Body', regular);
  doc.registerFont('Body-Bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (const [index, card] of cards.entries()) {
    const onPage = index % (COLUMNS * ROWS);
    if (index > 0 && onPage === 0) doc.addPage();
    const x = (onPage % COLUMNS) * CARD_W;
    const y = Math.floor(onPage / COLUMNS) * CARD_H;
    const pad = 10 * MM;
    const width = CARD_W - 2 * pad;
    doc.save().lineWidth(0.5).strokeColor('#bbbbbb').rect(x, y, CARD_W, CARD_H).stroke().restore();
    doc
      .fillColor('#000000')
      .font('Body')
      .fontSize(13)
      .text(shop, x + pad, y + pad, { width, align: 'center', height: 18, ellipsis: true });
    // "Mesa 12" large; a long label ("Varanda fundos 3") smaller, on one line.
    const title = `Mesa ${card.tableLabel}`;
    let size = 34;
    doc.font('Body-Bold');
    while (size > 14 && doc.fontSize(size).widthOfString(title) > width) size -= 2;
    doc.fontSize(size).text(title, x + pad, y + pad + 22 + (34 - size) / 2, {
      width,
      align: 'center',
      lineBreak: false,
    });
    const png = await QRCode.toBuffer(card.url, { errorCorrectionLevel: 'M', margin: 1, width: 600 });
    doc.image(png, x + (CARD_W - QR_SIZE) / 2, y + pad + 76, { width: QR_SIZE, height: QR_SIZE });
    doc
      .font('Body')
      .fontSize(12)
      .text(
        'Aponte a câmera do celular para ver o cardápio e fazer o seu pedido.',
        x + pad,
        y + pad + 84 + QR_SIZE,
        { width, align: 'center' },
      );
  }
  doc.end();
  return done;
}
