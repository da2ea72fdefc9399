import { PRINT_JOB_STATUSES } from './printingText.ts';
import { refSchema } from './responses.ts';
import {
  approvalSchema,
  lineSnapshotSchema,
  lineTotals,
  PAYMENT_METHOD_LABELS,
  type SaleLineInput,
} from './sale.ts';
import { PAYMENT_METHODS, type PaymentMethod } from './status.ts';
import { z } from './zod.ts';

/**
 * Comandas (open tabs) and the waiter PDV (issue 16): inputs, answers, messages and the pure money
 * rules (a tab's totals, service fee, couvert, what an item payment pays, equal shares). Every sum is
 * in integer cents; a tab's total is the sum of its lines as the sale will count them, plus the
 * service fee and the couvert, so the sale it closes into has exactly that total.
 */

export const COMANDA_STATUSES = ['active', 'finished', 'canceled'] as const;
export type ComandaStatus = (typeof COMANDA_STATUSES)[number];

/** The board's colours: open, bill requested or pre-bill printed, payments under way. */
export const COMANDA_STAGES = ['open', 'bill', 'payment'] as const;
export type ComandaStage = (typeof COMANDA_STAGES)[number];
export const COMANDA_STAGE_LABELS: Record<ComandaStage, string> = {
  open: 'Aberta',
  bill: 'Conta pedida',
  payment: 'Em pagamento',
};

/** Methods a tab payment may use: paid on the spot (no crediário, boleto or delivery payment). */
export const COMANDA_PAYMENT_METHODS = [
  'money',
  'pix',
  'pixQrCodeStatic',
  // Issue 33: the tab's payment confirmed by the bank (a charge per payment, settled by the webhook).
  'pixQrCode',
  'debitCard',
  'creditCard',
  'bankTransfer',
  'check',
  // Meal vouchers (issue 33): the lanchonete's tab paid with a VR/VA card.
  'voucherAlelo',
  'voucherPluxee',
  'voucherTicket',
  'voucherVr',
  'voucherOther',
] as const satisfies readonly PaymentMethod[];

export const COMANDA_PAYMENT_KINDS = ['items', 'share', 'amount'] as const;
export type ComandaPaymentKind = (typeof COMANDA_PAYMENT_KINDS)[number];
const COMANDA_PAYMENT_KIND_LABELS: Record<ComandaPaymentKind, string> = {
  items: 'Por itens',
  share: 'Partes iguais',
  amount: 'Valor',
};

export const COMANDA_EVENT_KINDS = [
  'opened',
  'line_canceled',
  'sent',
  'reprinted',
  'transfer_out',
  'transfer_in',
  'merged',
  'merged_into',
  'table',
  'service_fee',
  'pre_bill',
  'bill_requested',
  'payment',
  'closed',
  'canceled',
] as const;
export type ComandaEventKind = (typeof COMANDA_EVENT_KINDS)[number];

export const COMANDA_MESSAGES = {
  disabled:
    'As comandas estão desligadas nesta loja. Um administrador pode ligá-las em Configurações > Empresa.',
  notFound: 'Comanda não encontrada',
  lineNotFound: 'Item não encontrado nesta comanda',
  notActive: 'Esta comanda já foi fechada ou cancelada',
  numberTaken: (n: number) => `Já existe uma comanda aberta com o número ${n}`,
  numberUsedTonight: (n: number) =>
    `A comanda ${n} já foi usada hoje: use outro número (um número não se repete na mesma noite)`,
  sentNeedsReason: 'Informe o motivo para cancelar um item já enviado para a produção',
  cancelNeedsApproval: 'Cancelar um item já enviado precisa da aprovação de um gerente',
  cancelApprovalRefused: 'Aprovação recusada: e-mail ou senha de gerente inválidos',
  lineAlreadyCanceled: 'Este item já foi cancelado',
  linePaid: 'Este item já foi pago (no todo ou em parte): não pode ser cancelado nem transferido',
  transferSame: 'Escolha outra comanda para transferir',
  transferQuantity: 'A quantidade a transferir deve ser maior que zero e no máximo a do item',
  mergeSame: 'Escolha outra comanda para unir',
  mergeHasPayments: 'A comanda a unir já tem pagamentos: feche-a ou estorne antes',
  feeReason: 'Informe o motivo para mudar ou tirar a taxa de serviço',
  nothingToSend: 'Nenhum item novo para enviar à produção',
  noPrinter: 'Nenhuma impressora configurada: cadastre uma em Configurações > Impressoras',
  paymentTooHigh: (remaining: string) => `O pagamento passa do que falta receber (${remaining})`,
  itemsTooMany: 'A quantidade paga passa do que falta pagar deste item',
  itemsEmpty: 'Escolha ao menos um item para pagar',
  remaining: (remaining: string) => `Ainda falta receber ${remaining} para fechar a comanda`,
  overpaid: (extra: string) => `Os pagamentos passam do total da comanda em ${extra}`,
  empty: 'A comanda não tem itens para fechar',
  keyReused: 'Esta chave de idempotência já foi usada em outra operação',
  ticketNotInSend: 'Ticket não encontrado neste envio',
  cancelHasPayments: 'A comanda já tem pagamentos: receba o restante e feche, ou estorne os pagamentos antes',
  cancelSentNeedsReason: 'Informe o motivo: itens desta comanda já foram para a produção',
  cancelSentNeedsApproval: 'Cancelar uma comanda com itens já enviados precisa da aprovação de um gerente',
} as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use no máximo ${max} caracteres`)
    .nullish()
    .transform((v) => (v ? v : null));

const positiveId = z.number().int().positive();
const quantityField = z
  .number({ message: 'Informe a quantidade' })
  .positive('A quantidade deve ser maior que zero')
  .max(9999, 'Quantidade muito alta')
  .refine((v) => Math.round(v * 1000) === v * 1000, 'Use no máximo 3 casas decimais');

/** POST /v1/comanda: number null = the next free one. */
export const comandaOpenInputSchema = z.object({
  number: z
    .number({ message: 'Número inválido' })
    .int('Use um número inteiro')
    .min(1, 'O número deve ser maior que zero')
    .max(99999, 'Número muito alto')
    .nullish()
    .transform((v) => v ?? null),
  tableLabel: optionalText(30),
  customerId: positiveId.nullish().transform((v) => v ?? null),
  customerName: optionalText(120),
  customerPhone: optionalText(30),
  people: z.number().int('Use um número inteiro').min(1, 'Pelo menos 1 pessoa').max(200).default(1),
  waiterId: positiveId.nullish().transform((v) => v ?? null),
});
export type ComandaOpenInput = z.input<typeof comandaOpenInputSchema>;
export type ComandaOpenData = z.output<typeof comandaOpenInputSchema>;

/** POST /v1/comanda/:id/line: ONE line appended (Idempotency-Key header: a retry adds it once). */
export const comandaLineInputSchema = z.object({
  productId: positiveId,
  variantId: positiveId.nullish().transform((v) => v ?? null),
  quantity: quantityField,
  additionals: z.array(z.object({ id: positiveId, quantity: z.number().int().min(1).max(99) })).default([]),
  notes: optionalText(200),
});
export type ComandaLineInput = z.input<typeof comandaLineInputSchema>;
export type ComandaLineData = z.output<typeof comandaLineInputSchema>;

/** POST /v1/comanda/:id/line/:lineId/cancel */
export const comandaLineCancelInputSchema = z.object({
  reason: optionalText(200),
  approval: approvalSchema.optional(),
});

/**
 * POST /v1/comanda/:id/cancel (issue 30): a tab opened by mistake. Nothing sent to production: any
 * comanda user cancels it. Something sent: a reason and a manager's approval (the kitchen made it),
 * and cancel tickets print. Never with payments (docs/decisions.md).
 */
export const comandaCancelInputSchema = z.object({
  reason: optionalText(200),
  approval: approvalSchema.optional(),
});

/** POST /v1/comanda/:id/transfer: a line, whole or part of its quantity, to another open tab. */
export const comandaTransferInputSchema = z.object({
  lineId: positiveId,
  quantity: quantityField,
  toComandaId: positiveId,
});

/** POST /v1/comanda/:id/merge: the other tab's lines come into this one; the other is canceled. */
export const comandaMergeInputSchema = z.object({ fromComandaId: positiveId });

/** PUT /v1/comanda/:id: table, customer, people, waiter. */
export const comandaUpdateInputSchema = comandaOpenInputSchema.omit({ number: true }).extend({
  updatedAt: z.string({ message: 'Envie a versão (updatedAt) do registro' }),
});

/**
 * PUT /v1/comanda/:id/service-fee: hundredths of a percent; a change from the default needs a reason.
 * The couvert per person goes with it (the tab's charges, one dialog).
 */
export const comandaServiceFeeInputSchema = z.object({
  serviceFeePercent: z.number().int().min(0, 'Taxa inválida').max(3000, 'Taxa de serviço: use no máximo 30%'),
  reason: optionalText(200),
  /** The tab's couvert per person (issue 30: the fee dialog has it); absent = unchanged. */
  couvertPerPersonCents: z
    .number({ message: 'Couvert inválido' })
    .int('Couvert inválido')
    .min(0, 'Couvert inválido')
    .max(100_000, 'Couvert muito alto')
    .optional(),
});

/** POST /v1/comanda/:id/payment */
export const comandaPaymentInputSchema = z
  .object({
    kind: z.enum(COMANDA_PAYMENT_KINDS),
    method: z.enum(COMANDA_PAYMENT_METHODS, { message: 'Forma de pagamento inválida' }),
    /** What the payment pays (items: computed by the server and must match when sent). */
    amountCents: z.number().int().min(0).max(100_000_000).optional(),
    /** Items: which lines, how much of each. */
    items: z.array(z.object({ lineId: positiveId, quantity: quantityField })).default([]),
    /** Share: which share of how many ("1/3"). */
    share: z.object({ index: z.number().int().min(1), of: z.number().int().min(2).max(50) }).optional(),
    /** Money: what the customer handed over (change = received - amount). */
    receivedCents: z.number().int().min(0).max(100_000_000).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'items' && v.items.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['items'], message: COMANDA_MESSAGES.itemsEmpty });
    }
    if (v.kind !== 'items' && (v.amountCents === undefined || v.amountCents <= 0)) {
      ctx.addIssue({ code: 'custom', path: ['amountCents'], message: 'Informe o valor do pagamento' });
    }
  });
export type ComandaPaymentInput = z.input<typeof comandaPaymentInputSchema>;

/**
 * POST /v1/comanda/:id/send/:sendId/reprint (issue 30): which ticket of the send (one sector's), or
 * every sector's when none is named; the screen asks first.
 */
export const comandaReprintInputSchema = z
  .object({ jobId: positiveId.nullish().transform((v) => v ?? null) })
  .default({ jobId: null });

/** POST /v1/comanda/:id/close (Idempotency-Key): the tab into one sale once the remaining is zero. */
export const comandaCloseInputSchema = z.object({
  originSale: z.enum(['command', 'waiter']).default('command'),
});

// ---------------------------------------------------------------------------------------------------
// Answers

export const comandaLineSchema = z.object({
  id: z.number(),
  // The line's snapshot (core sale.ts); its codes stay on the row, for the sale the tab closes into.
  ...lineSnapshotSchema.omit({ sku: true, barcode: true }).shape,
  notes: z.string().nullable(),
  totalCents: z.number(),
  /** Quantity already paid by item payments. */
  paidQuantity: z.number(),
  status: z.enum(['active', 'canceled']),
  sentAt: z.string().nullable(),
  sendId: z.number().nullable(),
  addedBy: refSchema,
  addedAt: z.string(),
  cancelReason: z.string().nullable(),
});
export type ComandaLine = z.infer<typeof comandaLineSchema>;

export const comandaPaymentSchema = z.object({
  id: z.number(),
  kind: z.enum(COMANDA_PAYMENT_KINDS),
  method: z.enum(PAYMENT_METHODS),
  amountCents: z.number(),
  changeCents: z.number(),
  label: z.string(),
  items: z.array(z.object({ lineId: z.number(), quantity: z.number() })),
  receivedBy: refSchema,
  cashRegisterId: z.number(),
  createdAt: z.string(),
});
export type ComandaPayment = z.infer<typeof comandaPaymentSchema>;

const comandaJobSchema = z.object({
  id: z.number(),
  status: z.enum(PRINT_JOB_STATUSES),
  title: z.string(),
  reprintOf: z.number().nullable(),
  /** Bumped "pronto" on the sector's kitchen display (issue 35). */
  readyAt: z.string().nullable(),
});

export const comandaSendSchema = z.object({
  id: z.number(),
  createdAt: z.string(),
  createdBy: refSchema,
  jobs: z.array(comandaJobSchema),
  /** Lines whose category has no production sector (printed nowhere). */
  unrouted: z.array(z.string()),
});
export type ComandaSend = z.infer<typeof comandaSendSchema>;

const comandaEventSchema = z.object({
  id: z.number(),
  kind: z.enum(COMANDA_EVENT_KINDS),
  text: z.string(),
  user: refSchema,
  createdAt: z.string(),
});

const comandaTotalsSchema = z.object({
  itemsCents: z.number(),
  serviceFeePercent: z.number(),
  serviceFeeCents: z.number(),
  couvertCents: z.number(),
  totalCents: z.number(),
  paidCents: z.number(),
  remainingCents: z.number(),
});
type ComandaTotals = z.infer<typeof comandaTotalsSchema>;

const comandaHeadFields = {
  id: z.number(),
  number: z.number(),
  status: z.enum(COMANDA_STATUSES),
  stage: z.enum(COMANDA_STAGES),
  tableLabel: z.string().nullable(),
  customer: refSchema.nullable(),
  customerName: z.string().nullable(),
  customerPhone: z.string().nullable(),
  people: z.number(),
  waiter: refSchema.nullable(),
  openedAt: z.string(),
  lastItemAt: z.string().nullable(),
  updatedAt: z.string(),
};

/** One tab on the board. */
export const comandaCardSchema = z.object({
  ...comandaHeadFields,
  itemsCount: z.number(),
  unsentCount: z.number(),
  /** When the tab's latest production ticket was bumped "pronto" on a kitchen display (issue 35). */
  lastReadyAt: z.string().nullable(),
  totalCents: z.number(),
  paidCents: z.number(),
});
export type ComandaCard = z.infer<typeof comandaCardSchema>;

/** GET /v1/comanda: the board (open tabs) and the idle limit (system settings). */
export const comandaBoardSchema = z.object({
  tabs: z.array(comandaCardSchema),
  idleMinutes: z.number(),
  /** The server's clock, so "minutes since" is right whatever the device's clock says. */
  now: z.string(),
});
export type ComandaBoard = z.infer<typeof comandaBoardSchema>;

export const comandaSchema = z.object({
  ...comandaHeadFields,
  serviceFeeReason: z.string().nullable(),
  couvertPerPersonCents: z.number(),
  saleId: z.number().nullable(),
  lines: z.array(comandaLineSchema),
  payments: z.array(comandaPaymentSchema),
  sends: z.array(comandaSendSchema),
  events: z.array(comandaEventSchema),
  totals: comandaTotalsSchema,
});
export type Comanda = z.infer<typeof comandaSchema>;

/** The answer of a send: what it sent (replayed when the key was seen). */
export const comandaSendResultSchema = z.object({ send: comandaSendSchema, replayed: z.boolean() });

// ---------------------------------------------------------------------------------------------------
// Money rules

/** `count`: the same line that many times (the board reads a tab's identical lines as one row). */
type LineForTotals = SaleLineInput & { status: 'active' | 'canceled'; count?: number };

/** Service fee on the items, half-up to the cent (percent in hundredths: 1000 = 10%). */
export function serviceFeeOf(itemsCents: number, percentHundredths: number): number {
  return Math.round((itemsCents * percentHundredths) / 10000);
}

/** A tab's totals: active lines as the sale will count them, the fee on them, couvert per person. */
export function comandaTotals(input: {
  lines: readonly LineForTotals[];
  serviceFeePercent: number;
  couvertPerPersonCents: number;
  people: number;
  paidCents: number;
}): ComandaTotals {
  const itemsCents = input.lines
    .filter((l) => l.status === 'active')
    .reduce((sum, l) => sum + lineTotals(l).totalCents * (l.count ?? 1), 0);
  const serviceFeeCents = serviceFeeOf(itemsCents, input.serviceFeePercent);
  const couvertCents = itemsCents > 0 ? input.couvertPerPersonCents * input.people : 0;
  const totalCents = itemsCents + serviceFeeCents + couvertCents;
  return {
    itemsCents,
    serviceFeePercent: input.serviceFeePercent,
    serviceFeeCents,
    couvertCents,
    totalCents,
    paidCents: input.paidCents,
    remainingCents: totalCents - input.paidCents,
  };
}

/**
 * What an item payment pays: each chosen quantity at the line's unit total, half-up per line, plus
 * the service fee on that, half-up. The last payment is whatever remains, so rounding never leaves
 * or takes a cent from the tab.
 */
export function itemsPaymentCents(
  chosen: readonly { line: SaleLineInput; quantity: number }[],
  serviceFeePercent: number,
): number {
  const items = chosen.reduce(
    (sum, c) => sum + lineTotals({ ...c.line, quantity: c.quantity }).grossCents,
    0,
  );
  return items + serviceFeeOf(items, serviceFeePercent);
}

/** `of` shares of `totalCents` that add up to it exactly (the first ones take the extra cents). */
export function equalShares(totalCents: number, of: number): number[] {
  const base = Math.floor(totalCents / of);
  const extra = totalCents - base * of;
  return Array.from({ length: of }, (_, i) => base + (i < extra ? 1 : 0));
}

/** "1/3", "Itens", "Valor": how a payment shows on the tab and the receipt. */
export function paymentLabel(
  kind: ComandaPaymentKind,
  method: PaymentMethod,
  share?: { index: number; of: number },
) {
  const how =
    kind === 'share' && share ? `Parte ${share.index}/${share.of}` : COMANDA_PAYMENT_KIND_LABELS[kind];
  return `${how} · ${PAYMENT_METHOD_LABELS[method]}`;
}

/** Minutes since an ISO instant, against the server's clock. */
export function minutesSince(iso: string | null, nowIso: string): number {
  if (!iso) return 0;
  return Math.max(0, Math.floor((Date.parse(nowIso) - Date.parse(iso)) / 60000));
}

/** GET /v1/comanda/menu: the waiter PDV's first screen (categories and the shop's most ordered). */
export const comandaMenuSchema = z.object({
  categories: z.array(z.object({ id: z.number(), name: z.string() })),
  favourites: z.array(
    z.object({
      productId: z.number(),
      description: z.string(),
      unitPriceCents: z.number(),
      count: z.number(),
    }),
  ),
});
export type ComandaMenu = z.infer<typeof comandaMenuSchema>;

/** GET /v1/comanda/waiters: who may serve a tab (active users of the shop's comanda profiles), Garçons first. */
export const comandaWaitersSchema = z.object({ items: z.array(refSchema) });
export type ComandaWaiters = z.infer<typeof comandaWaitersSchema>;
