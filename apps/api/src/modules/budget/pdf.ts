import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BUDGET_STATUS_LABELS, type BudgetPublic } from '@balcao/core/budget';
import { maskCep } from '@balcao/core/cep';
import { formatDateBr } from '@balcao/core/date';
import { maskDocument, maskPhone } from '@balcao/core/document';
import { formatCents } from '@balcao/core/money';
import { formatQuantity } from '@balcao/core/product';
import { formatPercentHundredths } from '@balcao/core/sale';
import { DEFAULT_TIME_ZONE, formatInZone } from '@balcao/core/time';
import { eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import type { Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { findCompanySettings, logoUrlOf } from '../settings/company.ts';
import type { Storage } from '../storage/storage.ts';

/**
 * The budget as a PDF (issue 17), generated on request and never stored: PDFKit on A4, with DejaVu
 * Sans Condensed EMBEDDED (issue 30: the built-in Helvetica is not embedded, so a viewer without it
 * substituted its own font; DejaVu has every accent of Portuguese and more, under a free licence, from
 * the kept `dejavu-fonts-ttf` package). The public approval page shows the same content (`BudgetPublic`).
 */

const require = createRequire(import.meta.url);
/** The embedded fonts' files, read once. */
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function pdfFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf')),
  };
  return fonts;
}
const REGULAR = 'Body';
const BOLD = 'Body-Bold';

type PdfShop = BudgetPublic['shop'] & { timeZone: string };

/** The shop as the budget shows it: company settings, masked document and phone, one address line. */
export async function budgetShopOf(
  db: Executor,
  actor: Actor,
): Promise<PdfShop & { logoKey: string | null }> {
  const company = await findCompanySettings(db, actor);
  const [client] = await db
    .select({ logoKey: clients.logoKey, timeZone: clients.timeZone })
    .from(clients)
    .where(eq(clients.id, actor.clientId));
  const a = company.address;
  const street = [a.street, a.number, a.complement].filter(Boolean).join(', ');
  const place = [a.neighborhood, [a.city, a.state].filter(Boolean).join('/')].filter(Boolean).join(' - ');
  const address = [street, place, a.zipCode ? `CEP ${maskCep(a.zipCode)}` : ''].filter(Boolean).join(' - ');
  const phone = company.whatsapp || company.phone;
  return {
    name: company.name,
    document: company.document ? maskDocument(company.document) : null,
    phone: phone ? maskPhone(phone) : null,
    email: company.email,
    address: address || null,
    logoUrl: logoUrlOf(client?.logoKey ?? null),
    logoKey: client?.logoKey ?? null,
    timeZone: client?.timeZone ?? DEFAULT_TIME_ZONE,
  };
}

/** The stored logo as bytes (null without one or when the file is gone). */
export async function logoBytes(storage: Storage, logoKey: string | null): Promise<Buffer | null> {
  if (!logoKey) return null;
  const file = await storage.get(logoKey);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The PDF's bytes. */
export function budgetPdf(
  shop: PdfShop,
  budget: BudgetPublic['budget'],
  logo: Buffer | null,
  status?: keyof typeof BUDGET_STATUS_LABELS,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    info: { Title: `Orçamento nº ${budget.number}`, Author: shop.name },
  });
  doc.registerFont(REGULAR, pdfFonts().regular);
  doc.registerFont(BOLD, pdfFonts().bold);
  doc.font(REGULAR);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  let top = doc.y;

  // Header: logo, company data; number and dates on the right.
  let textLeft = left;
  if (logo) {
    try {
      doc.image(logo, left, top, { fit: [90, 60] });
      textLeft = left + 100;
    } catch {
      // A logo PDFKit cannot read never stops the budget.
    }
  }
  doc.font(BOLD).fontSize(14).text(shop.name, textLeft, top, { width: 260 });
  doc.font(REGULAR).fontSize(9);
  for (const line of [
    shop.document ? `CNPJ/CPF: ${shop.document}` : null,
    [shop.phone, shop.email].filter(Boolean).join(' · ') || null,
    shop.address,
  ]) {
    if (line) doc.text(line, textLeft, doc.y, { width: 260 });
  }
  const headerBottom = Math.max(doc.y, top + (logo ? 64 : 0));
  doc
    .font(BOLD)
    .fontSize(16)
    .text(`Orçamento nº ${budget.number}`, left + width - 200, top, {
      width: 200,
      align: 'right',
    });
  doc.font(REGULAR).fontSize(9);
  doc.text(`Emitido em ${formatInZone(budget.createdAt, shop.timeZone, 'date')}`, left + width - 200, doc.y, {
    width: 200,
    align: 'right',
  });
  doc.text(`Válido até ${formatDateBr(budget.validUntil)}`, left + width - 200, doc.y, {
    width: 200,
    align: 'right',
  });
  if (status)
    doc.text(BUDGET_STATUS_LABELS[status], left + width - 200, doc.y, { width: 200, align: 'right' });
  top = Math.max(headerBottom, doc.y) + 12;
  doc
    .moveTo(left, top)
    .lineTo(left + width, top)
    .strokeColor('#999999')
    .stroke();

  // Customer and delivery.
  doc
    .font(BOLD)
    .fontSize(10)
    .text('Cliente', left, top + 8);
  doc
    .font(REGULAR)
    .fontSize(10)
    .text(budget.customerName ?? 'Não informado', left, doc.y);
  doc.fontSize(9);
  const contact = [
    budget.customerDocument ? `CPF/CNPJ: ${maskDocument(budget.customerDocument)}` : null,
    budget.customerPhone ? `Telefone: ${maskPhone(budget.customerPhone)}` : null,
  ].filter(Boolean);
  if (contact.length) doc.text(contact.join(' · '), left, doc.y, { width });
  doc.text(`Vendedor: ${budget.sellerName}`, left, doc.y);
  if (budget.typeOfSale === 'delivery' && budget.deliveryAddress) {
    const a = budget.deliveryAddress;
    doc.text(
      `Entrega: ${[
        a.street,
        a.number,
        a.complement,
        a.neighborhood,
        [a.city, a.state].filter(Boolean).join('/'),
        a.zipCode ? `CEP ${maskCep(a.zipCode)}` : '',
      ]
        .filter(Boolean)
        .join(', ')}`,
      left,
      doc.y,
      { width },
    );
  }
  doc.moveDown(0.8);

  // Items table.
  const cols = [
    { title: 'Produto', width: width - 300, align: 'left' as const },
    { title: 'Qtd', width: 60, align: 'right' as const },
    { title: 'Unitário', width: 80, align: 'right' as const },
    { title: 'Desconto', width: 75, align: 'right' as const },
    { title: 'Total', width: 85, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    if (y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
    const rowTop = doc.y;
    let x = left;
    let bottom = rowTop;
    doc.font(bold ? BOLD : REGULAR).fontSize(9);
    cells.forEach((cell, i) => {
      doc.text(cell, x + 2, rowTop, { width: cols[i].width - 4, align: cols[i].align });
      bottom = Math.max(bottom, doc.y);
      x += cols[i].width;
    });
    doc.y = bottom + 3;
    doc
      .moveTo(left, doc.y - 1)
      .lineTo(left + width, doc.y - 1)
      .strokeColor('#dddddd')
      .stroke();
  };
  row(
    cols.map((c) => c.title),
    true,
  );
  for (const item of budget.items) {
    const name = [
      item.variantName ? `${item.description} (${item.variantName})` : item.description,
      ...item.additionals.map((a) => `+ ${a.quantity > 1 ? `${a.quantity}x ` : ''}${a.name}`),
      item.notes ? `Obs.: ${item.notes}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    row([
      name,
      formatQuantity(item.quantity, item.unit),
      formatCents(item.unitTotalCents),
      item.discountCents > 0 ? `- ${formatCents(item.discountCents)}` : '',
      formatCents(item.totalCents),
    ]);
  }

  // Totals.
  doc.moveDown(0.5);
  const totalLine = (label: string, value: string, bold = false) => {
    doc.font(bold ? BOLD : REGULAR).fontSize(bold ? 12 : 10);
    const y = doc.y;
    doc.text(label, left + width - 260, y, { width: 150, align: 'right' });
    doc.text(value, left + width - 110, y, { width: 110, align: 'right' });
  };
  totalLine('Subtotal', formatCents(budget.itemsGrossCents));
  if (budget.itemsDiscountCents > 0)
    totalLine('Descontos nos itens', `- ${formatCents(budget.itemsDiscountCents)}`);
  if (budget.discountCents > 0)
    totalLine(
      budget.discountType === 'percentage'
        ? `Desconto (${formatPercentHundredths(budget.discountValue)})`
        : 'Desconto',
      `- ${formatCents(budget.discountCents)}`,
    );
  if (budget.freightCents > 0) totalLine('Frete', formatCents(budget.freightCents));
  else if (budget.typeOfSale === 'delivery') totalLine('Frete', 'Grátis');
  totalLine('Total', formatCents(budget.finalAmountCents), true);

  // Conditions, notes, validity.
  doc.moveDown(1);
  const block = (title: string, text: string | null) => {
    if (!text) return;
    doc.font(BOLD).fontSize(10).text(title, left, doc.y, { width });
    doc.font(REGULAR).fontSize(9).text(text, left, doc.y, { width });
    doc.moveDown(0.6);
  };
  block('Condições de pagamento', budget.paymentConditions);
  block('Observações', budget.notes);
  block(
    'Validade',
    `Este orçamento é válido até ${formatDateBr(budget.validUntil)}. Preços e disponibilidade podem mudar depois dessa data.`,
  );
  doc.end();
  return done;
}
