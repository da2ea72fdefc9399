import { optionalText } from './fields.ts';
import { idParam } from './params.ts';
import { refSchema } from './responses.ts';
import {
  approvalSchema,
  centsField,
  DEFERRED_METHODS,
  PAYMENT_METHODS_IN_PDV,
  reasonSchema,
} from './sale.ts';
import { PAYMENT_METHODS, type PaymentMethod } from './status.ts';
import { z } from './zod.ts';

/** The cash register (caixa, issue 7): open, suprimento/sangria, close with the counted amounts. */

export const CASH_REGISTER_MESSAGES = {
  loading: 'Carregando dados da caixa...',
  mustOpen: 'Abra o caixa para vender',
  alreadyOpen: 'Você já tem um caixa aberto',
  notOpen: 'Você não tem um caixa aberto',
  notFound: 'Caixa não encontrado',
  withdrawalTooHigh: (available: string) =>
    `A sangria não pode ser maior que o dinheiro no caixa (${available})`,
  withdrawalNeedsApproval:
    'A sangria precisa da aprovação de um gerente: informe o email e a senha de um Administrador ou Gerente',
  approvalInvalid: 'Aprovação recusada: email ou senha de Administrador/Gerente incorretos',
} as const;

export const CASH_MOVEMENT_TYPES = ['deposit', 'withdrawal', 'receipt', 'refund'] as const;
export type CashMovementType = (typeof CASH_MOVEMENT_TYPES)[number];
export const CASH_MOVEMENT_LABELS: Record<CashMovementType, string> = {
  deposit: 'Suprimento',
  withdrawal: 'Sangria',
  receipt: 'Recebimento de parcela',
  refund: 'Devolução de venda',
};

/** Methods counted at the close: everything but what is not paid at the counter. */
export const COUNTED_METHODS: readonly PaymentMethod[] = PAYMENT_METHODS_IN_PDV.filter(
  (m) => !DEFERRED_METHODS.includes(m) && m !== 'paymentOnDelivery' && m !== 'storeCredit',
);

export const cashRegisterOpenSchema = z.object({
  openingAmountCents: centsField('Valor de abertura').default(0),
});
export type CashRegisterOpenInput = z.input<typeof cashRegisterOpenSchema>;

export const cashMovementInputSchema = z.object({
  type: z.enum(['deposit', 'withdrawal'], { message: 'Escolha suprimento ou sangria' }),
  amountCents: centsField('Valor').refine((v) => v > 0, 'O valor deve ser maior que zero'),
  reason: reasonSchema,
  approval: approvalSchema.optional(),
  /**
   * Made at the PDV without a connection (issue 21): the till's id for the movement (sent again, it
   * is recorded once) and the time it was made.
   */
  clientMovementId: z.uuid('Identificador inválido').optional(),
  madeAt: z.iso.datetime({ offset: true, message: 'Data inválida' }).optional(),
});
export type CashMovementInput = z.input<typeof cashMovementInputSchema>;

export const cashRegisterCloseSchema = z.object({
  counted: z
    .array(
      z.object({
        method: z.enum(PAYMENT_METHODS, { message: 'Forma de pagamento inválida' }),
        amountCents: centsField('Valor contado'),
      }),
    )
    .max(PAYMENT_METHODS.length)
    .refine((list) => new Set(list.map((c) => c.method)).size === list.length, 'Forma de pagamento repetida')
    .default([]),
  notes: optionalText(1000),
});
export type CashRegisterCloseInput = z.input<typeof cashRegisterCloseSchema>;

export const cashRegisterSchema = z.object({
  id: z.number(),
  status: z.enum(['open', 'closed']),
  user: refSchema,
  openingAmountCents: z.number(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  closingNotes: z.string().nullable(),
});
export type CashRegister = z.infer<typeof cashRegisterSchema>;

export const cashMovementSchema = z.object({
  id: z.number(),
  type: z.enum(CASH_MOVEMENT_TYPES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  amountCents: z.number(),
  reason: z.string(),
  user: refSchema,
  approvedBy: refSchema.nullable(),
  createdAt: z.string(),
});
export type CashMovement = z.infer<typeof cashMovementSchema>;

export const cashMethodSummarySchema = z.object({
  method: z.enum(PAYMENT_METHODS),
  /** Sale payments of this method (sales not canceled). */
  salesCents: z.number(),
  /** Installments received at this register. */
  receiptsCents: z.number(),
  /** Refunds of returned items paid back at this register (issue 30), by the sale's method. */
  refundsCents: z.number().default(0),
  /** What should be there (money: opening + sales + receipts + suprimentos - sangrias). */
  expectedCents: z.number(),
  /** Null until closed (or when not counted). */
  countedCents: z.number().nullable(),
  differenceCents: z.number().nullable(),
  /** False for crediário/boleto/na entrega: listed, not counted. */
  countable: z.boolean(),
});
export type CashMethodSummary = z.infer<typeof cashMethodSummarySchema>;

/** Why the cash drawer opened (issue 36): a cash sale, a sangria, or "Abrir gaveta" by hand. */
export const DRAWER_OPENING_REASONS = ['sale', 'withdrawal', 'manual'] as const;
export type DrawerOpeningReason = (typeof DRAWER_OPENING_REASONS)[number];
export const DRAWER_OPENING_REASON_LABELS: Record<DrawerOpeningReason, string> = {
  sale: 'Venda em dinheiro',
  withdrawal: 'Sangria',
  manual: 'Abrir gaveta',
};

/** One opening of the drawer, on the register's report: who, when and why. */
export const drawerOpeningSchema = z.object({
  id: z.number(),
  reason: z.enum(DRAWER_OPENING_REASONS),
  user: refSchema,
  createdAt: z.string(),
});
export type DrawerOpening = z.infer<typeof drawerOpeningSchema>;

/** A register with its movements and amounts: the current register, the report, the close answer. */
export const cashRegisterSummarySchema = cashRegisterSchema.extend({
  movements: z.array(cashMovementSchema),
  methods: z.array(cashMethodSummarySchema),
  money: z.object({
    openingCents: z.number(),
    salesCents: z.number(),
    receiptsCents: z.number(),
    depositsCents: z.number(),
    withdrawalsCents: z.number(),
    /** Money paid back for returned items (issue 30). */
    refundsCents: z.number().default(0),
    expectedCents: z.number(),
  }),
  sales: z.object({
    count: z.number(),
    canceledCount: z.number(),
    amountCents: z.number(),
    discountCents: z.number(),
    changeCents: z.number(),
  }),
  totals: z.object({
    expectedCents: z.number(),
    countedCents: z.number().nullable(),
    differenceCents: z.number().nullable(),
  }),
  /**
   * Blind count (issue 30): the register's owner counts at the close without seeing the expected
   * amounts (system settings, on by default for Caixa); the close's answer shows the difference.
   */
  blindCount: z.boolean().default(false),
  /** Each opening of the cash drawer through the print agent (issue 36), oldest first. */
  drawerOpenings: z.array(drawerOpeningSchema).default([]),
});
export type CashRegisterSummary = z.infer<typeof cashRegisterSummarySchema>;

/** GET /cash-register/current: the caller's open register, or null (open one first). */
/** The register list's query: page, status, one user's registers. */
export const cashRegisterListQuerySchema = z.object({
  page: z.coerce.number().int().min(1, 'Página inválida').default(1),
  pageSize: z.coerce.number().int().min(1).max(100, 'Use no máximo 100 itens por página').default(20),
  status: z.enum(['open', 'closed'], { message: 'Use open ou closed' }).optional(),
  userId: idParam().optional(),
});
export type CashRegisterListQuery = z.input<typeof cashRegisterListQuerySchema>;

export const currentRegisterSchema = z.object({ cashRegister: cashRegisterSummarySchema.nullable() });
export type CurrentRegister = z.infer<typeof currentRegisterSchema>;
