import { isIsoDate } from './date.ts';
import { deliveryOnSaleSchema } from './delivery.ts';
import { optionalText } from './fields.ts';
import { listQuerySchema, pageOf } from './list.ts';
import { pixChargeSchema } from './pixCharge.ts';
import { refSchema } from './responses.ts';
import {
  approvalSchema,
  centsField,
  DISCOUNT_KINDS,
  deliveryAddressSchema,
  paymentInputSchema,
  SALE_MESSAGES,
  saleInputSchema,
  saleItemSchema,
  saleSchema,
} from './sale.ts';
import { z } from './zod.ts';

/**
 * Budgets (orçamentos, issue 17). PRODUCT.md: `pending` -> `sent` (printed or sent by WhatsApp) ->
 * `finished` (converted into a sale) or `canceled`; a budget expires at its validity date (computed
 * from the date, never stored: `expired` in the answers and the "Vencido" label).
 */

export const BUDGET_STATUSES = ['pending', 'sent', 'finished', 'canceled'] as const;
export type BudgetStatus = (typeof BUDGET_STATUSES)[number];
/** What a list shows: the stored status, or `expired` for an open budget past its validity. */
export const BUDGET_VIEW_STATUSES = [...BUDGET_STATUSES, 'expired'] as const;
export type BudgetViewStatus = (typeof BUDGET_VIEW_STATUSES)[number];
export const BUDGET_STATUS_LABELS: Record<BudgetViewStatus, string> = {
  pending: 'Pendente',
  sent: 'Enviado',
  finished: 'Convertido em venda',
  canceled: 'Cancelado',
  expired: 'Vencido',
};

const BUDGET_ANSWERS = ['approved', 'refused'] as const;
type BudgetAnswer = (typeof BUDGET_ANSWERS)[number];
export const BUDGET_ANSWER_LABELS: Record<BudgetAnswer, string> = {
  approved: 'Aprovado pelo cliente',
  refused: 'Recusado pelo cliente',
};

export const BUDGET_MESSAGES = {
  notFound: 'Orçamento não encontrado',
  linkNotFound: 'Link de orçamento inválido ou não encontrado',
  customerToSend: 'Escolha o cliente para enviar o orçamento',
  customerPhone: 'O cliente não tem telefone cadastrado',
  closed: 'Este orçamento já foi convertido em venda ou cancelado',
  converted: 'Este orçamento já foi convertido em venda',
  canceled: 'Este orçamento foi cancelado',
  expired: 'Este orçamento está vencido: renove a validade antes',
  linkExpired: 'Este orçamento está vencido. Fale com a loja para renová-lo.',
  linkConverted: 'Este orçamento já foi convertido em venda.',
  linkCanceled: 'Este orçamento foi cancelado pela loja.',
  alreadyAnswered: 'Este orçamento já foi respondido',
  validUntilPast: 'A validade não pode ser anterior a hoje',
  validUntilInvalid: 'Data inválida: use AAAA-MM-DD',
  discountOverLimit: (percent: string) => `Desconto acima do seu limite (${percent})`,
  reasonRequired: 'Conte o motivo da recusa (no mínimo 3 caracteres)',
  notExpired: 'Só um orçamento vencido pode ser renovado',
  reservationOff: 'A reserva de estoque precisa do controle de estoque ligado',
  tooManyAttempts: 'Muitas tentativas. Aguarde alguns minutos e tente de novo.',
  pixNotApproved: 'Aprove o orçamento para pagar com Pix.',
  pixNotOffered: 'Esta loja não recebe Pix pelo link do orçamento.',
  pixPaidMissing: (amount: string) =>
    `O cliente já pagou ${amount} por Pix pelo link: inclua esse valor como Pix QR dinâmico na venda.`,
  approvedNotice: (number: number, customer: string) => `Orçamento nº ${number} aprovado por ${customer}`,
  refusedNotice: (number: number, customer: string, reason: string) =>
    `Orçamento nº ${number} recusado por ${customer}: ${reason}`,
} as const;

const validUntilField = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v.split('T')[0] : null))
  .refine((v) => v === null || isIsoDate(v), BUDGET_MESSAGES.validUntilInvalid);

/** A new budget (the budget PDV): the PDV's lines, customer, delivery and discounts, plus its own texts. */
export const budgetInputSchema = z
  .object({
    items: saleInputSchema.shape.items,
    customerId: saleInputSchema.shape.customerId,
    sellerId: saleInputSchema.shape.sellerId,
    typeOfSale: saleInputSchema.shape.typeOfSale,
    deliveryAddressId: saleInputSchema.shape.deliveryAddressId,
    freightCents: saleInputSchema.shape.freightCents,
    discountType: z.enum(DISCOUNT_KINDS, { message: 'Tipo de desconto inválido' }).default('fixed_amount'),
    discountValue: centsField().default(0),
    /** The last day the budget is valid (shop date); default today + the system's validity days. */
    validUntil: validUntilField,
    notes: optionalText(1000),
    paymentConditions: optionalText(1000),
    /** Reserve the lines' stock while the budget is valid (only with stock control on). */
    reserveStock: z.boolean().default(false),
  })
  .superRefine((b, ctx) => {
    if (b.discountType === 'percentage' && b.discountValue > 10000) {
      ctx.addIssue({ code: 'custom', path: ['discountValue'], message: SALE_MESSAGES.percentMax });
    }
    if (b.typeOfSale === 'delivery' && (b.customerId === null || b.deliveryAddressId === null)) {
      ctx.addIssue({ code: 'custom', path: ['deliveryAddressId'], message: SALE_MESSAGES.deliveryCustomer });
    }
  });
export type BudgetInput = z.input<typeof budgetInputSchema>;
export type BudgetData = z.output<typeof budgetInputSchema>;

/** Send: by WhatsApp (the PDF when the shop's instance is connected, else a wa.me link), a copied link, or printed. */
export const budgetSendInputSchema = z.object({
  channel: z.enum(['whatsapp', 'link', 'print'], { message: 'Forma de envio inválida' }),
  // No address from the client (issue 31 item 2): the approval link is built from the server's
  // PUBLIC_URL only; an `appUrl` an older client still sends is stripped as an unknown key.
});

export const budgetCancelInputSchema = z.object({ reason: optionalText(500) });

export const budgetRenewInputSchema = z.object({ validUntil: validUntilField });

/** The customer's answer on the public page. */
export const budgetAnswerInputSchema = z
  .object({
    answer: z.enum(BUDGET_ANSWERS, { message: 'Resposta inválida' }),
    reason: optionalText(500),
  })
  .superRefine((a, ctx) => {
    if (a.answer === 'refused' && (a.reason === null || a.reason.length < 3)) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: BUDGET_MESSAGES.reasonRequired });
    }
  });
export type BudgetAnswerInput = z.input<typeof budgetAnswerInputSchema>;

/**
 * Convert into a sale (needs the operator's open register): the budget's lines at the budget's
 * prices or the catalog's current ones, paid like a PDV sale.
 */
export const budgetConvertInputSchema = z.object({
  prices: z.enum(['budget', 'current'], { message: 'Escolha os preços' }).default('budget'),
  payments: z.array(paymentInputSchema).max(10, SALE_MESSAGES.tooManyPayments).default([]),
  cashDepositAmountCents: centsField('Valor recebido').default(0),
  approval: approvalSchema.optional(),
  /** A delivery budget's order details (payment on delivery, change), as the PDV's delivery sale. */
  delivery: deliveryOnSaleSchema.optional(),
});
export type BudgetConvertInput = z.input<typeof budgetConvertInputSchema>;

// ---------------------------------------------------------------------------------------------------
// Answers

export const budgetItemSchema = saleItemSchema.extend({
  /** The catalog's price of one unit today (null: the product or variant is gone or inactive). */
  currentUnitPriceCents: z.number().nullable(),
});
export type BudgetItem = z.infer<typeof budgetItemSchema>;

const budgetTotalsShape = {
  totalItems: z.number(),
  totalQuantity: z.number(),
  itemsGrossCents: z.number(),
  itemsDiscountCents: z.number(),
  /** Items after their own discounts. */
  totalCents: z.number(),
  discountType: z.enum(DISCOUNT_KINDS),
  discountValue: z.number(),
  discountCents: z.number(),
  freightCents: z.number(),
  finalAmountCents: z.number(),
};

/** A Pix QR dinâmico paid on the approval link, as the bank confirmed it. */
export const budgetPixPaymentSchema = z.object({
  amountCents: z.number(),
  endToEndId: z.string(),
  paidAt: z.string(),
});
export type BudgetPixPayment = z.infer<typeof budgetPixPaymentSchema>;

export const budgetSchema = z.object({
  id: z.number(),
  number: z.number(),
  status: z.enum(BUDGET_STATUSES),
  /** The status a list shows (`expired` for an open budget past its validity). */
  viewStatus: z.enum(BUDGET_VIEW_STATUSES),
  expired: z.boolean(),
  customer: saleSchema.shape.customer,
  user: refSchema,
  seller: refSchema.nullable(),
  typeOfSale: z.enum(['store', 'delivery']),
  deliveryAddress: deliveryAddressSchema.nullable(),
  items: z.array(budgetItemSchema),
  ...budgetTotalsShape,
  validUntil: z.string(),
  notes: z.string().nullable(),
  paymentConditions: z.string().nullable(),
  reserveStock: z.boolean(),
  /** The reservation holds stock now (reserveStock, open and not expired). */
  reservationActive: z.boolean(),
  sentAt: z.string().nullable(),
  /** The first time the customer opened the approval link. */
  viewedAt: z.string().nullable(),
  answer: z.enum(BUDGET_ANSWERS).nullable(),
  answeredAt: z.string().nullable(),
  refusalReason: z.string().nullable(),
  sale: z.object({ id: z.number(), number: z.number() }).nullable(),
  /** The Pix the customer paid on the approval link (issue 33), confirmed by the bank; the detail's. */
  pixPayment: budgetPixPaymentSchema.nullable().optional(),
  cancelReason: z.string().nullable(),
  canceledAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Budget = z.infer<typeof budgetSchema>;

/** An issued approval link (only its hash is stored: the link is shown when issued). */
const budgetLinkSchema = z.object({ url: z.string(), token: z.string() });

export const budgetSendResultSchema = z.object({
  budget: budgetSchema,
  link: budgetLinkSchema,
  /** WhatsApp: sent through the shop's instance, or the wa.me link to open (not connected). */
  whatsapp: z
    .object({ sent: z.boolean(), waLink: z.string().nullable(), reason: z.string().nullable() })
    .nullable(),
});
export type BudgetSendResult = z.infer<typeof budgetSendResultSchema>;

export const budgetListQuerySchema = listQuerySchema
  .extend({
    from: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : undefined))
      .refine((v) => v === undefined || isIsoDate(v), 'Data inválida: use AAAA-MM-DD'),
    to: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : undefined))
      .refine((v) => v === undefined || isIsoDate(v), 'Data inválida: use AAAA-MM-DD'),
    status: z.enum(BUDGET_VIEW_STATUSES, { message: 'Status inválido' }).optional(),
    customerId: z.coerce.number().int('Identificador inválido').positive('Identificador inválido').optional(),
    sellerId: z.coerce.number().int('Identificador inválido').positive('Identificador inválido').optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'A data final deve ser depois da inicial',
    path: ['to'],
  });
export type BudgetListQueryParsed = z.output<typeof budgetListQuerySchema>;

export const budgetListItemSchema = budgetSchema.pick({
  id: true,
  number: true,
  status: true,
  viewStatus: true,
  expired: true,
  customer: true,
  user: true,
  seller: true,
  totalItems: true,
  finalAmountCents: true,
  validUntil: true,
  viewedAt: true,
  answer: true,
  sale: true,
  createdAt: true,
});
export type BudgetListItem = z.infer<typeof budgetListItemSchema>;

const budgetListTotalsSchema = z.object({
  count: z.number(),
  finalAmountCents: z.number(),
  convertedCount: z.number(),
  convertedAmountCents: z.number(),
  /** Converted / all budgets of the filter (0..1; 0 without budgets). */
  conversionRate: z.number(),
});
export const budgetListResultSchema = pageOf(budgetListItemSchema).extend({ totals: budgetListTotalsSchema });
export type BudgetListResult = z.infer<typeof budgetListResultSchema>;

/** What the public approval page shows (the PDF's content) and nothing else of the shop. */
export const budgetPublicSchema = z.object({
  shop: z.object({
    name: z.string(),
    document: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    address: z.string().nullable(),
    logoUrl: z.string().nullable(),
  }),
  budget: budgetSchema
    .pick({
      number: true,
      typeOfSale: true,
      deliveryAddress: true,
      ...{
        totalItems: true,
        totalQuantity: true,
        itemsGrossCents: true,
        itemsDiscountCents: true,
        totalCents: true,
        discountType: true,
        discountValue: true,
        discountCents: true,
        freightCents: true,
        finalAmountCents: true,
      },
      validUntil: true,
      notes: true,
      paymentConditions: true,
      answer: true,
      answeredAt: true,
      refusalReason: true,
      createdAt: true,
    })
    .extend({
      customerName: z.string().nullable(),
      /** The customer's CPF/CNPJ and phone as stored (digits), for the budget's header (issue 30). */
      customerDocument: z.string().nullable(),
      customerPhone: z.string().nullable(),
      sellerName: z.string(),
      items: z.array(
        saleItemSchema.pick({
          description: true,
          variantName: true,
          unit: true,
          quantity: true,
          unitTotalCents: true,
          grossCents: true,
          discountCents: true,
          totalCents: true,
          additionals: true,
          notes: true,
        }),
      ),
      /** open: may be answered; the others say why not. */
      state: z.enum(['open', 'expired', 'converted', 'canceled']),
    }),
});
export type BudgetPublic = z.infer<typeof budgetPublicSchema>;

/** The approval link's Pix (issue 33): offered when the shop has a Pix account; the charge once asked. */
export const budgetPublicPixSchema = z.object({
  offered: z.boolean(),
  charge: pixChargeSchema.nullable(),
});
export type BudgetPublicPix = z.infer<typeof budgetPublicPixSchema>;

/** "Vencido" while open and past the validity date (`today` is the shop's date). */
export function budgetExpired(status: BudgetStatus, validUntil: string, today: string): boolean {
  return (status === 'pending' || status === 'sent') && validUntil < today;
}

/** Conversion rate as a percent text ("33,3%"). */
export function conversionRateText(rate: number): string {
  return `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 }).format(rate * 100)}%`;
}
