import { refSchema } from './responses.ts';
import { approvalSchema, reasonSchema, saleInputSchema } from './sale.ts';
import { PAYMENT_METHODS, type PaymentMethod } from './status.ts';
import { z } from './zod.ts';

/**
 * Exchanges and returns (trocas e devoluções, issue 30): some lines of a sale come back (restocked, or
 * not when damaged) and the customer gets the money back by the sale's own methods or a vale-troca
 * (store credit on the customer, spent at the PDV as the `storeCredit` payment method). Pure rules in
 * integer cents, shared by the sale's detail (what the dialog shows) and the API (what is recorded).
 */

const REFUND_KINDS = ['original', 'storeCredit'] as const;
export type RefundKind = (typeof REFUND_KINDS)[number];
export const REFUND_KIND_LABELS: Record<RefundKind, string> = {
  original: 'Devolver o valor (mesma forma de pagamento)',
  storeCredit: 'Vale-troca para o cliente',
};

export const SALE_RETURN_MESSAGES = {
  noLines: 'Escolha ao menos um item para devolver',
  repeatedLine: 'Item repetido na devolução',
  lineNotFound: 'Item não encontrado nesta venda',
  quantityPositive: 'A quantidade a devolver deve ser maior que zero',
  quantityDecimals: 'Use no máximo 3 casas decimais na quantidade',
  tooMany: (description: string, left: string) =>
    `Não dá para devolver mais do que foi vendido de ${description}: restam ${left}`,
  canceled: 'Esta venda está cancelada: não há o que devolver',
  pending: 'Esta venda ainda não foi finalizada: não há o que devolver',
  windowOver: (days: number) => `O prazo de troca desta venda terminou (${days} dias após a compra)`,
  needsApproval:
    'Trocas e devoluções precisam da aprovação de um gerente: informe o email e a senha de um Administrador ou Gerente',
  approvalRefused: 'Aprovação recusada: email ou senha de Administrador/Gerente incorretos',
  storeCreditCustomer: 'Informe o cliente que recebe o vale-troca',
  deferredRefund:
    'Esta venda foi paga no crediário ou boleto: devolva como vale-troca ou cancele as parcelas pelo financeiro',
  registerClosed: 'Abra o caixa para devolver o valor em dinheiro',
  exchangeCustomer: 'Informe o cliente da troca: o valor devolvido vira vale-troca dele',
  exchangeCoupon: 'Cupom não vale em trocas',
  exchangeNotes: (number: number) => `Troca da venda nº ${number}`,
  hasReturns: 'Esta venda tem devoluções: devolva os itens restantes em vez de cancelar a venda',
  done: (amount: string, kind: RefundKind) =>
    kind === 'storeCredit'
      ? `Devolução registrada: vale-troca de ${amount}`
      : `Devolução registrada: ${amount} devolvidos`,
} as const;

const id = z
  .number({ message: 'Identificador inválido' })
  .int('Identificador inválido')
  .positive('Identificador inválido');

const quantity = z
  .number({ message: SALE_RETURN_MESSAGES.quantityPositive })
  .positive(SALE_RETURN_MESSAGES.quantityPositive)
  .max(1_000_000, 'Quantidade muito alta')
  .refine((v) => Math.abs(Math.round(v * 1000) - v * 1000) < 1e-6, SALE_RETURN_MESSAGES.quantityDecimals);

const returnLinesSchema = z
  .array(
    z.object({
      saleItemId: id,
      quantity,
      /** False for damaged goods: nothing goes back to the stock. */
      restock: z.boolean().default(true),
    }),
  )
  .min(1, SALE_RETURN_MESSAGES.noLines)
  .max(500)
  .refine((l) => new Set(l.map((x) => x.saleItemId)).size === l.length, SALE_RETURN_MESSAGES.repeatedLine);

export const saleReturnInputSchema = z.object({
  lines: returnLinesSchema,
  refund: z.enum(REFUND_KINDS, { message: 'Escolha como devolver o valor' }),
  /** The customer who gets the vale-troca when the sale has none. */
  customerId: id.nullish().transform((v) => v ?? null),
  reason: reasonSchema,
  approval: approvalSchema.optional(),
});
export type SaleReturnInput = z.input<typeof saleReturnInputSchema>;
export type SaleReturnData = z.output<typeof saleReturnInputSchema>;

/**
 * An exchange in one operation (POST /v1/sale/:id/exchange): the returned lines become the customer's
 * vale-troca, spent first on the new sale; `sale.payments` pay the difference, and a difference in
 * the customer's favour stays as vale-troca. No coupon on an exchange.
 */
export const saleExchangeInputSchema = z.object({
  lines: returnLinesSchema,
  reason: reasonSchema,
  approval: approvalSchema.optional(),
  sale: saleInputSchema,
});
export type SaleExchangeData = z.output<typeof saleExchangeInputSchema>;

const saleReturnSchema = z.object({
  id: z.number(),
  createdAt: z.string(),
  user: refSchema,
  approvedBy: refSchema.nullable(),
  refund: z.enum(REFUND_KINDS),
  amountCents: z.number(),
  reason: z.string(),
  customer: refSchema.nullable(),
  lines: z.array(
    z.object({
      saleItemId: z.number(),
      description: z.string(),
      variantName: z.string().nullable(),
      quantity: z.number(),
      restock: z.boolean(),
      amountCents: z.number(),
    }),
  ),
  /** Where the money went: the sale's methods (original) or `storeCredit`. */
  refunds: z.array(z.object({ method: z.enum(PAYMENT_METHODS), amountCents: z.number() })),
});

/** A sale's returns (GET /v1/sale/:id/returns, and the answer of a return). */
export const saleReturnsSchema = z.object({
  saleId: z.number(),
  /** What went back in all, in cents. */
  returnedCents: z.number(),
  /** How much of each line has gone back. */
  returnedQuantities: z.array(z.object({ saleItemId: z.number(), quantity: z.number() })),
  /** The window of the shop's settings and whether this sale is still in it. */
  windowDays: z.number(),
  withinWindow: z.boolean(),
  /** The caller may return without a manager's approval. */
  canReturnWithoutApproval: z.boolean(),
  returns: z.array(saleReturnSchema),
});
export type SaleReturns = z.infer<typeof saleReturnsSchema>;

/** A customer's vale-troca: the balance and its history (GET /v1/customer/:id/store-credit). */
export const storeCreditSchema = z.object({
  customerId: z.number(),
  balanceCents: z.number(),
  movements: z.array(
    z.object({
      id: z.number(),
      amountCents: z.number(),
      /** return (credit from a return) | sale (spent) | sale-cancel (a paying sale canceled) */
      kind: z.enum(['return', 'sale', 'sale-cancel']),
      saleId: z.number().nullable(),
      createdAt: z.string(),
    }),
  ),
});
export type StoreCredit = z.infer<typeof storeCreditSchema>;

export const STORE_CREDIT_MESSAGES = {
  insufficient: (balance: string) => `Saldo de vale-troca insuficiente: o cliente tem ${balance}`,
  balance: (balance: string) => `Vale-troca disponível: ${balance}`,
} as const;

// ---------------------------------------------------------------------------------------------------
// The money of a return, exact in cents

/** Quantity -> integer thousandths (3 decimals). */
export const thousandths = (q: number) => Math.round(q * 1000);

type SaleForReturn = {
  totalCents: number;
  discountCents: number;
  couponDiscountCents: number;
  items: { id: number; quantity: number; totalCents: number }[];
};

/**
 * What each line is worth net of the sale's own discount and coupon: the items' net
 * (total - discount - coupon, freight excluded) shared across lines in proportion to their totals,
 * the remainder cents to the largest remainders, so the lines add up exactly to the net.
 */
export function netOfLines(sale: SaleForReturn): Map<number, number> {
  const net = Math.max(0, sale.totalCents - sale.discountCents - sale.couponDiscountCents);
  const out = new Map<number, number>();
  if (sale.totalCents <= 0) {
    for (const i of sale.items) out.set(i.id, 0);
    return out;
  }
  const shares = sale.items.map((i) => {
    const exact = BigInt(i.totalCents) * BigInt(net);
    const floor = exact / BigInt(sale.totalCents);
    return { id: i.id, cents: Number(floor), rest: Number(exact % BigInt(sale.totalCents)) };
  });
  let left = net - shares.reduce((s, x) => s + x.cents, 0);
  for (const s of [...shares].sort((a, b) => b.rest - a.rest || a.id - b.id)) {
    if (left <= 0) break;
    s.cents += 1;
    left -= 1;
  }
  for (const s of shares) out.set(s.id, s.cents);
  return out;
}

/**
 * What returning `quantity` more of a line is worth when `alreadyReturned` went back before: the
 * value of the returned total minus the value of what was returned before, each rounded once, so two
 * returns of half a line add up to the whole line to the cent.
 */
export function lineRefundCents(
  lineNetCents: number,
  lineQuantity: number,
  alreadyReturned: number,
  quantity: number,
): number {
  const total = thousandths(lineQuantity);
  if (total <= 0) return 0;
  const worth = (q: number) => {
    const t = BigInt(thousandths(q));
    const num = BigInt(lineNetCents) * t;
    const den = BigInt(total);
    return Number((num * 2n + den) / (den * 2n)); // rounded half up
  };
  return worth(alreadyReturned + quantity) - worth(alreadyReturned);
}

/**
 * Splits a refund over the sale's payments (what each still holds after earlier refunds), in the
 * order they were paid. Answers the refunds per method; deferred methods come back as they are (the
 * caller refuses them).
 */
export function refundByMethod(
  amountCents: number,
  payments: { method: PaymentMethod; amountCents: number }[],
  refundedBefore: Map<PaymentMethod, number>,
): { method: PaymentMethod; amountCents: number }[] {
  const left = new Map<PaymentMethod, number>();
  for (const p of payments) left.set(p.method, (left.get(p.method) ?? 0) + p.amountCents);
  for (const [m, c] of refundedBefore) left.set(m, (left.get(m) ?? 0) - c);
  const out: { method: PaymentMethod; amountCents: number }[] = [];
  let rest = amountCents;
  for (const [method, available] of left) {
    if (rest <= 0) break;
    const take = Math.min(rest, Math.max(0, available));
    if (take > 0) out.push({ method, amountCents: take });
    rest -= take;
  }
  if (rest > 0) {
    const last = out.at(-1);
    if (last) last.amountCents += rest;
    else if (payments[0]) out.push({ method: payments[0].method, amountCents: rest });
  }
  return out;
}
