import { maskDocument, maskPhone, onlyDigits } from './document.ts';
import { formatCents } from './money.ts';
import { PAYMENT_METHOD_LABELS, type Sale } from './sale.ts';
import { formatInZone } from './time.ts';

/** The sale receipt (58 mm: 32 columns, 80 mm: 48 columns; INTEGRATIONS.md). */

type ReceiptShop = {
  name: string;
  document?: string | null;
  phone?: string | null;
  address?: string | null;
  /** The company page's receipt header and footer (several lines allowed). */
  header?: string | null;
  footer?: string | null;
  /** The shop's time zone (the sale's date and time are printed in it). */
  timeZone: string;
};
export type ReceiptWidth = 58 | 80;
export const RECEIPT_COLUMNS: Record<ReceiptWidth, number> = { 58: 32, 80: 48 };

/** The shop's CPF or CNPJ as printed (issue 30: "CNPJ 12.345.678/0001-95", never the bare digits). */
function shopDocumentText(document: string): string {
  const digits = onlyDigits(document);
  if (digits.length === 14) return `CNPJ ${maskDocument(digits)}`;
  if (digits.length === 11) return `CPF ${maskDocument(digits)}`;
  return document;
}

/** Left text and right text on one line of `columns`, the left cut when they do not fit. */
export function receiptRow(left: string, right: string, columns: number): string {
  const room = columns - right.length - 1;
  if (room < 1) return `${left.slice(0, columns)}`;
  const l = left.length > room ? left.slice(0, room) : left;
  return `${l}${' '.repeat(columns - l.length - right.length)}${right}`;
}

function wrap(text: string, columns: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (!line) line = word.slice(0, columns);
    else if (line.length + 1 + word.length <= columns) line += ` ${word}`;
    else {
      lines.push(line);
      line = word.slice(0, columns);
    }
  }
  if (line) lines.push(line);
  return lines;
}

const center = (text: string, columns: number) => {
  const t = text.slice(0, columns);
  return `${' '.repeat(Math.floor((columns - t.length) / 2))}${t}`;
};

const money = (cents: number) => formatCents(cents).replace('R$ ', '');
const qtyText = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 3 });

/** The receipt as monospaced lines ("não é documento fiscal"): same text on screen, paper and ESC/POS. */
export function receiptLines(
  sale: Pick<
    Sale,
    | 'number'
    | 'createdAt'
    | 'items'
    | 'payments'
    | 'totalCents'
    | 'discountCents'
    | 'couponDiscountCents'
    | 'coupon'
    | 'freightCents'
    | 'finalAmountCents'
    | 'cashDepositAmountCents'
    | 'changeCents'
    | 'customer'
    | 'user'
    | 'status'
    | 'receivables'
  >,
  shop: ReceiptShop,
  width: ReceiptWidth = 80,
): string[] {
  const cols = RECEIPT_COLUMNS[width];
  const rule = '-'.repeat(cols);
  const lines: string[] = [];
  for (const l of wrap(shop.name, cols)) lines.push(center(l, cols));
  if (shop.document) lines.push(center(shopDocumentText(shop.document), cols));
  if (shop.phone) lines.push(center(`Tel.: ${maskPhone(shop.phone)}`, cols));
  if (shop.address) for (const l of wrap(shop.address, cols)) lines.push(center(l, cols));
  if (shop.header) {
    lines.push(rule);
    for (const paragraph of shop.header.split('\n'))
      for (const l of wrap(paragraph, cols)) lines.push(center(l, cols));
  }
  lines.push(rule);
  lines.push(center('CUPOM NÃO FISCAL', cols));
  const date = formatInZone(sale.createdAt, shop.timeZone);
  lines.push(receiptRow(sale.number > 0 ? `Venda nº ${sale.number}` : 'Venda sem conexão', date, cols));
  if (sale.customer) lines.push(...wrap(`Cliente: ${sale.customer.name}`, cols));
  lines.push(...wrap(`Operador: ${sale.user.name}`, cols));
  if (sale.status === 'canceled') lines.push(center('*** VENDA CANCELADA ***', cols));
  lines.push(rule);
  sale.items.forEach((item, i) => {
    const name = item.variantName ? `${item.description} ${item.variantName}` : item.description;
    for (const l of wrap(`${String(i + 1).padStart(2, '0')} ${name}`, cols)) lines.push(l);
    for (const a of item.additionals) {
      lines.push(
        receiptRow(
          `   + ${a.quantity > 1 ? `${a.quantity}x ` : ''}${a.name}`,
          money(a.priceCents * a.quantity),
          cols,
        ),
      );
    }
    lines.push(
      receiptRow(
        `   ${qtyText.format(item.quantity)} ${item.unit} x ${money(item.unitTotalCents)}`,
        money(item.grossCents),
        cols,
      ),
    );
    if (item.discountCents > 0) lines.push(receiptRow('   Desconto', `-${money(item.discountCents)}`, cols));
  });
  lines.push(rule);
  lines.push(receiptRow('Subtotal', money(sale.totalCents), cols));
  if (sale.discountCents > 0) lines.push(receiptRow('Desconto', `-${money(sale.discountCents)}`, cols));
  if (sale.couponDiscountCents > 0) {
    lines.push(
      receiptRow(`Cupom ${sale.coupon?.code ?? ''}`.trim(), `-${money(sale.couponDiscountCents)}`, cols),
    );
  }
  if (sale.freightCents > 0) lines.push(receiptRow('Frete', money(sale.freightCents), cols));
  lines.push(receiptRow('TOTAL', formatCents(sale.finalAmountCents), cols));
  lines.push(rule);
  for (const p of sale.payments) {
    const label =
      p.numberInstallments > 1
        ? `${PAYMENT_METHOD_LABELS[p.method]} ${p.numberInstallments}x`
        : PAYMENT_METHOD_LABELS[p.method];
    lines.push(receiptRow(label, money(p.amountCents), cols));
    // Issue 33: the bank's id of a confirmed Pix, what the customer's bank app shows too.
    if (p.pixEndToEndId)
      for (const id of p.pixEndToEndId.split(' ')) {
        const line = `   E2E ${id}`;
        if (line.length <= cols) lines.push(line);
        else lines.push('   E2E', id.slice(0, cols));
      }
  }
  if (sale.changeCents > 0) {
    lines.push(receiptRow('Recebido em dinheiro', money(sale.cashDepositAmountCents), cols));
    lines.push(receiptRow('Troco', money(sale.changeCents), cols));
  }
  const receivables = sale.receivables.filter((r) => r.status !== 'canceled');
  if (receivables.length > 0) {
    lines.push(rule);
    lines.push('Parcelas');
    for (const r of receivables) {
      const [y, m, d] = r.dueDate.split('-');
      lines.push(receiptRow(`${r.installment}ª venc. ${d}/${m}/${y}`, money(r.amountCents), cols));
    }
  }
  lines.push(rule);
  const footer = shop.footer ?? 'Obrigado pela preferência!';
  for (const paragraph of footer.split('\n'))
    for (const l of wrap(paragraph, cols)) lines.push(center(l, cols));
  return lines;
}
