import { addDays } from './date.ts';
import { z } from './zod.ts';

export { overdueBannerText } from './billingText.ts';

/**
 * The shop's subscription to Balcão (issue 14, billing): plans with limits, monthly invoices, paid by
 * Pix or boleto through the payment gateway (Asaas API v3, docs/integrations/asaas.md).
 */

export const PLAN_CODES = ['essencial', 'profissional', 'ilimitado'] as const;
export type PlanCode = (typeof PLAN_CODES)[number];

export const planSchema = z.object({
  code: z.enum(PLAN_CODES),
  name: z.string(),
  priceCents: z.number(),
  /** null = no limit. */
  maxUsers: z.number().nullable(),
  maxProducts: z.number().nullable(),
});
export type Plan = z.infer<typeof planSchema>;

export const PLANS: Record<PlanCode, Plan> = {
  essencial: { code: 'essencial', name: 'Essencial', priceCents: 8990, maxUsers: 3, maxProducts: 500 },
  profissional: {
    code: 'profissional',
    name: 'Profissional',
    priceCents: 14990,
    maxUsers: 10,
    maxProducts: 5000,
  },
  ilimitado: { code: 'ilimitado', name: 'Ilimitado', priceCents: 24990, maxUsers: null, maxProducts: null },
};
/** The plan of a shop that never chose one. */
export const DEFAULT_PLAN: PlanCode = 'profissional';

/** Days after the period starts that its invoice is due. */
const INVOICE_DUE_DAYS = 7;
/** Days after the due date before administrators see the overdue banner (selling is never blocked). */
export const OVERDUE_GRACE_DAYS = 5;

export type PlanResource = 'users' | 'products';
const RESOURCE_WORDS: Record<PlanResource, string> = { users: 'usuários', products: 'produtos' };

/** The message of a create that would pass the plan's limit. */
export function planLimitMessage(plan: Plan, resource: PlanResource): string {
  const max = resource === 'users' ? plan.maxUsers : plan.maxProducts;
  return `Seu plano ${plan.name} permite até ${max} ${RESOURCE_WORDS[resource]}. Para cadastrar mais, mude de plano em Configurações > Assinatura.`;
}

/** The message of a plan change the shop's current usage does not fit. */
export function planTooSmallMessage(plan: Plan, resource: PlanResource, current: number): string {
  const max = resource === 'users' ? plan.maxUsers : plan.maxProducts;
  return `O plano ${plan.name} permite até ${max} ${RESOURCE_WORDS[resource]} e a loja tem ${current}.`;
}

/** True when `current + adding` fits the plan. */
export function fitsPlan(plan: Plan, resource: PlanResource, current: number, adding = 1): boolean {
  const max = resource === 'users' ? plan.maxUsers : plan.maxProducts;
  return max === null || current + adding <= max;
}

/** YYYY-MM-DD `months` later, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = total % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** The billing periods from the subscription start up to the one containing `today` (at most `max`). */
export function periodsUntil(
  startedOn: string,
  today: string,
  max = 24,
): { start: string; end: string; due: string }[] {
  const periods: { start: string; end: string; due: string }[] = [];
  for (let k = 0; ; k++) {
    const start = addMonths(startedOn, k);
    if (start > today) break;
    periods.push({
      start,
      end: addDays(addMonths(startedOn, k + 1), -1),
      due: addDays(start, INVOICE_DUE_DAYS),
    });
  }
  return periods.slice(-max);
}

const INVOICE_STATUSES = ['pending', 'paid', 'overdue', 'canceled'] as const;
type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  pending: 'Pendente',
  paid: 'Paga',
  overdue: 'Vencida',
  canceled: 'Cancelada',
};

export const invoiceSchema = z.object({
  id: z.number(),
  periodStart: z.string(),
  periodEnd: z.string(),
  dueDate: z.string(),
  amountCents: z.number(),
  status: z.enum(INVOICE_STATUSES),
  paidAt: z.string().nullable(),
  /** Filled once the invoice was sent to the gateway. */
  pix: z.object({ payload: z.string(), encodedImage: z.string(), expirationDate: z.string() }).nullable(),
  boleto: z.object({ url: z.string(), identificationField: z.string() }).nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

const overdueSchema = z.object({
  invoiceId: z.number(),
  dueDate: z.string(),
  amountCents: z.number(),
  daysOverdue: z.number(),
});

export const billingSchema = z.object({
  plan: planSchema,
  plans: z.array(planSchema),
  usage: z.object({ users: z.number(), products: z.number() }),
  currentPeriod: z.object({ start: z.string(), end: z.string() }),
  invoices: z.array(invoiceSchema),
  /** The oldest unpaid invoice past the grace period (the banner), or null. */
  overdue: overdueSchema.nullable(),
  updatedAt: z.string(),
  updatedBy: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type Billing = z.infer<typeof billingSchema>;

/** GET /v1/billing/status: what the top banner needs (administrators only). */
export const billingStatusSchema = z.object({ overdue: overdueSchema.nullable() });
export type BillingStatus = z.infer<typeof billingStatusSchema>;

export const changePlanInputSchema = z.object({
  planCode: z.enum(PLAN_CODES, { message: 'Escolha um plano' }),
  updatedAt: z.string().nullish(),
});
export type ChangePlanInput = z.infer<typeof changePlanInputSchema>;

const PAYMENT_METHODS = ['pix', 'boleto'] as const;
export const payInvoiceInputSchema = z.object({
  method: z.enum(PAYMENT_METHODS, { message: 'Escolha Pix ou boleto' }),
});

/** Asaas webhook events this integration acts on (the others are acknowledged and ignored). */
export const ASAAS_PAID_EVENTS = ['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED'] as const;
export const ASAAS_OVERDUE_EVENT = 'PAYMENT_OVERDUE';
/**
 * Events after which the invoice is no longer paid by its charge (docs.asaas.com "Eventos para
 * cobranças"): refunded or being refunded, a cash receipt undone, a chargeback received or in dispute,
 * the charge removed. The invoice goes back to pending and forgets the charge; paying again reuses the
 * charge if Asaas still takes it, else creates a new one.
 */
export const ASAAS_UNPAID_EVENTS = [
  'PAYMENT_REFUNDED',
  'PAYMENT_REFUND_IN_PROGRESS',
  'PAYMENT_RECEIVED_IN_CASH_UNDONE',
  'PAYMENT_CHARGEBACK_REQUESTED',
  'PAYMENT_CHARGEBACK_DISPUTE',
  'PAYMENT_DELETED',
] as const;

export const asaasWebhookSchema = z.object({
  id: z.string().min(1).max(200),
  event: z.string().min(1).max(100),
  payment: z
    .object({
      id: z.string().min(1).max(100),
      externalReference: z.string().nullish(),
      status: z.string().optional(),
    })
    .loose()
    .optional(),
});
export type AsaasWebhook = z.infer<typeof asaasWebhookSchema>;

export const webhookAnswerSchema = z.object({
  received: z.boolean(),
  /** False when the event had been processed before (a retry) or concerns nothing of ours. */
  processed: z.boolean(),
});
