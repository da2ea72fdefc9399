import { customerAddressSchema, customerSchema } from './customer.ts';
import { addDays, isIsoDate } from './date.ts';
import { deliveryOnSaleSchema } from './delivery.ts';
import { optionalText } from './fields.ts';
import { consumerDocumentSchema } from './fiscal.ts';
import { formatCents } from './money.ts';
import { saleReceivableSchema, saleWarningSchema } from './receivable.ts';
import { refSchema } from './responses.ts';
import { PAYMENT_METHODS, type PaymentMethod } from './status.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * Sales (issue 7): the PDV's totals and payment rules, pure and in integer cents, shared by the web
 * PDV (what the screen shows) and the API checkout (what is recorded). Quantities allow 3 decimals (kg)
 * and are worked on as integer thousandths, so no float ever reaches a money value.
 */

// ---------------------------------------------------------------------------------------------------
// Enumerations and labels (spec 3 values, PRODUCT.md "Flows and statuses")

export const SALE_STATUSES = ['pending', 'finished', 'canceled'] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];
export const SALE_STATUS_LABELS: Record<SaleStatus, string> = {
  pending: 'Pendente',
  finished: 'Finalizada',
  canceled: 'Cancelada',
};

export const TYPES_OF_SALE = ['store', 'delivery', 'command', 'budget'] as const;
export type TypeOfSale = (typeof TYPES_OF_SALE)[number];
export const TYPE_OF_SALE_LABELS: Record<TypeOfSale, string> = {
  store: 'Retirada na loja',
  delivery: 'Entrega',
  command: 'Comanda',
  budget: 'Orçamento',
};

export const ORIGINS_OF_SALE = [
  'pdv',
  'waiter',
  'command',
  'budget',
  'delivery',
  'ifood',
  'marketplace',
] as const;
export type OriginSale = (typeof ORIGINS_OF_SALE)[number];
export const ORIGIN_SALE_LABELS: Record<OriginSale, string> = {
  pdv: 'PDV',
  waiter: 'PDV Garçom',
  command: 'Comanda',
  budget: 'Orçamento',
  delivery: 'Delivery',
  /** Issue 35: an order received from iFood or an Open Delivery app (the app's name is in the notes). */
  ifood: 'iFood',
  marketplace: 'Marketplace',
};

/**
 * "Origem" on a sale (issue 30): where it was made and how it leaves, each said once ("Comanda", not
 * "Comanda · Comanda"; "PDV Garçom · Comanda"; "PDV · Entrega").
 */
export function saleOriginText(sale: {
  isSimple: boolean;
  originSale: OriginSale;
  typeOfSale: TypeOfSale;
}): string {
  if (sale.isSimple) return 'Venda simples';
  const origin = ORIGIN_SALE_LABELS[sale.originSale];
  const type = TYPE_OF_SALE_LABELS[sale.typeOfSale];
  return origin === type ? origin : `${origin} · ${type}`;
}

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  money: 'Dinheiro',
  creditCard: 'Cartão de crédito',
  debitCard: 'Cartão de débito',
  pix: 'Pix',
  pixQrCode: 'Pix QR dinâmico',
  pixQrCodeStatic: 'Pix QR Code estático',
  creditShop: 'Crediário',
  boleto: 'Boleto',
  bankTransfer: 'Transferência bancária',
  check: 'Cheque',
  paymentOnDelivery: 'Pagamento na entrega',
  storeCredit: 'Vale-troca',
  marketplace: 'Pago no marketplace',
  voucherAlelo: 'VR/VA Alelo',
  voucherPluxee: 'VR/VA Pluxee',
  voucherTicket: 'VR/VA Ticket',
  voucherVr: 'VR/VA VR Benefícios',
  voucherOther: 'VR/VA outra bandeira',
};

/**
 * Meal and food vouchers (issue 33): one payment method per brand, so the register close, the
 * reports and the receipt count each apart. The PDV offers the ones the shop enabled (fee simulator).
 */
export const MEAL_VOUCHER_METHODS = [
  'voucherAlelo',
  'voucherPluxee',
  'voucherTicket',
  'voucherVr',
  'voucherOther',
] as const satisfies readonly PaymentMethod[];
export type MealVoucherMethod = (typeof MEAL_VOUCHER_METHODS)[number];
export const isMealVoucher = (method: PaymentMethod): method is MealVoucherMethod =>
  (MEAL_VOUCHER_METHODS as readonly PaymentMethod[]).includes(method);

/** The order the PDV offers them in: the everyday ones first. */
export const PAYMENT_METHODS_IN_PDV: readonly PaymentMethod[] = [
  'money',
  'pix',
  'pixQrCodeStatic',
  'debitCard',
  'creditCard',
  ...MEAL_VOUCHER_METHODS,
  'creditShop',
  'boleto',
  'bankTransfer',
  'check',
  'pixQrCode',
  'paymentOnDelivery',
  'storeCredit',
];

/** Methods whose amount is not settled at the counter: the sale stays pending until it is paid. */
export const DEFERRED_METHODS: readonly PaymentMethod[] = ['creditShop', 'boleto'];
/** Methods that may be split into installments. */
export const INSTALLMENT_METHODS: readonly PaymentMethod[] = ['creditCard', 'creditShop', 'boleto'];
export const MAX_INSTALLMENTS = 12;
const MAX_PAYMENTS = 10;
const MAX_SALE_ITEMS = 500;
/** Integer-cents ceiling of the database columns (R$ 21.474.836,47). */
const SALE_MAX_CENTS = 2_147_483_647;
/** Largest quantity of one line (3 decimals). */
const SALE_MAX_QUANTITY = 1_000_000;

/** The spec's general discount enumeration (lower case: the coupon form uses the upper-case forms). */
export const DISCOUNT_KINDS = ['fixed_amount', 'percentage'] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

export const SALE_MESSAGES = {
  noItems: 'Adicione ao menos um item à venda',
  tooManyItems: `Uma venda pode ter no máximo ${MAX_SALE_ITEMS} itens`,
  quantityPositive: 'A quantidade deve ser maior que zero',
  quantityDecimals: 'Use no máximo 3 casas decimais na quantidade',
  quantityTooHigh: 'Quantidade muito alta',
  quantityInteger: 'Este produto é vendido por unidade: use uma quantidade inteira',
  centsInteger: 'Informe o valor em centavos inteiros',
  negative: 'O valor não pode ser negativo',
  tooHigh: 'Valor muito alto',
  percentMax: 'O desconto em % deve ser no máximo 100%',
  lineDiscountTooHigh: 'O desconto do item não pode ser maior que o valor do item',
  discountTooHigh: 'O desconto não pode ser maior que o total dos itens',
  paymentRequired: 'Informe a forma de pagamento',
  paymentAmountPositive: 'O valor do pagamento deve ser maior que zero',
  tooManyPayments: `Use no máximo ${MAX_PAYMENTS} formas de pagamento`,
  installmentsOnlyFor: 'Parcelamento só no cartão de crédito, crediário ou boleto',
  installmentsRange: `O número de parcelas deve ser de 1 a ${MAX_INSTALLMENTS}`,
  creditShopCustomer: 'Informe o cliente para vender no crediário',
  boletoCustomer: 'Informe o cliente para vender no boleto',
  storeCreditCustomer: 'Informe o cliente para pagar com vale-troca',
  dueDateInvalid: 'Data de vencimento inválida',
  dueDatePast: 'A data de vencimento não pode ser anterior a hoje',
  cashWithoutMoney: 'Valor recebido informado sem pagamento em dinheiro',
  cashTooLow: 'O valor recebido em dinheiro é menor que o valor a pagar em dinheiro',
  onDeliveryOnlyDelivery: 'Pagamento na entrega só em vendas com entrega',
  deliveryCustomer: 'Informe o cliente e o endereço de entrega',
  descriptionRequired: 'Informe a descrição da venda',
  valuePositive: 'O valor da venda deve ser maior que zero',
  reasonRequired: 'Informe o motivo',
} as const;

// ---------------------------------------------------------------------------------------------------
// Quantities and money

/** 1.25 -> 1250 thousandths; NaN when the number has more than 3 decimals. */
export function toThousandths(quantity: number): number {
  const scaled = Math.round(quantity * 1000);
  return Math.abs(scaled - quantity * 1000) < 1e-6 ? scaled : Number.NaN;
}

/** quantity (thousandths) x unit price (cents), rounded half-up to the cent. Exact below 2^53. */
export function multiplyQuantity(thousandths: number, unitCents: number): number {
  return Math.floor((thousandths * unitCents + 500) / 1000);
}

/**
 * A discount in cents: fixed_amount takes `value` cents; percentage takes `value` as hundredths of a
 * percent (1050 = 10,5%) of `baseCents`, half-up to the cent.
 */
export function discountCentsOf(kind: DiscountKind, value: number, baseCents: number): number {
  if (value <= 0 || baseCents <= 0) return 0;
  if (kind === 'percentage') return Math.floor((baseCents * value + 5000) / 10000);
  return value;
}

/** "10,5%" from hundredths of a percent. */
export function formatPercentHundredths(hundredths: number): string {
  return `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 }).format(hundredths / 100)}%`;
}

/** The text of a percent input ("10,5" / "10.5" / "10") -> hundredths of a percent; NaN otherwise. */
export function parsePercentToHundredths(text: string): number {
  const m = /^(\d{1,3})(?:[.,](\d{0,2}))?$/.exec(text.trim().replace(/\s*%$/, ''));
  if (!m) return Number.NaN;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** The text of a quantity input ("1,250" / "2") -> a number with up to 3 decimals; NaN otherwise. */
export function parseQuantity(text: string): number {
  const m = /^(\d{1,7})(?:[.,](\d{0,3}))?$/.exec(text.trim());
  if (!m) return Number.NaN;
  return (Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0'))) / 1000;
}

// ---------------------------------------------------------------------------------------------------
// Totals

export type SaleLineInput = {
  /** Price of one unit (product or variant), cents. */
  unitPriceCents: number;
  /** Up to 3 decimals (kg). */
  quantity: number;
  /** Add-ons of ONE unit: each price x its quantity is added to the unit price. */
  additionals?: readonly { priceCents: number; quantity: number }[];
  discountType?: DiscountKind;
  /** Cents (fixed_amount) or hundredths of a percent (percentage). */
  discountValue?: number;
  /**
   * A weighed product of a shop whose scale truncates (issue 36): the gross is cut down to the cent,
   * as the scale's label (core scale/weighedLabel.ts), instead of half-up.
   */
  truncate?: boolean;
};

export type SaleLineTotals = {
  /** Unit price plus the add-ons of one unit. */
  unitTotalCents: number;
  /** quantity x unitTotal, half-up to the cent. */
  grossCents: number;
  discountCents: number;
  totalCents: number;
};

export function lineTotals(line: SaleLineInput): SaleLineTotals {
  const additionalsCents = (line.additionals ?? []).reduce((sum, a) => sum + a.priceCents * a.quantity, 0);
  const unitTotalCents = line.unitPriceCents + additionalsCents;
  const thousandths = toThousandths(line.quantity);
  const grossCents = line.truncate
    ? Math.floor((thousandths * unitTotalCents) / 1000)
    : multiplyQuantity(thousandths, unitTotalCents);
  const discountCents = discountCentsOf(
    line.discountType ?? 'fixed_amount',
    line.discountValue ?? 0,
    grossCents,
  );
  return { unitTotalCents, grossCents, discountCents, totalCents: grossCents - discountCents };
}

type SaleTotalsInput = {
  lines: readonly SaleLineInput[];
  discountType?: DiscountKind;
  discountValue?: number;
  /** Already evaluated by the coupon rules on `totalCents` (core coupon.ts couponDiscountCents). */
  couponDiscountCents?: number;
  freightCents?: number;
};

export type SaleTotals = {
  lines: SaleLineTotals[];
  /** Number of lines. */
  totalItems: number;
  /** Sum of the quantities (3 decimals). */
  totalQuantity: number;
  itemsGrossCents: number;
  itemsDiscountCents: number;
  /** Items after their own discounts: the subtotal coupons and the sale discount are computed on. */
  totalCents: number;
  /** The sale discount (R$ or % of totalCents). */
  discountCents: number;
  couponDiscountCents: number;
  freightCents: number;
  /** total - discount - coupon + freight. */
  finalAmountCents: number;
};

export function computeSaleTotals(input: SaleTotalsInput): SaleTotals {
  const lines = input.lines.map(lineTotals);
  const itemsGrossCents = lines.reduce((s, l) => s + l.grossCents, 0);
  const itemsDiscountCents = lines.reduce((s, l) => s + l.discountCents, 0);
  const totalCents = itemsGrossCents - itemsDiscountCents;
  const discountCents = discountCentsOf(
    input.discountType ?? 'fixed_amount',
    input.discountValue ?? 0,
    totalCents,
  );
  const couponDiscountCents = input.couponDiscountCents ?? 0;
  const freightCents = input.freightCents ?? 0;
  const thousandths = input.lines.reduce((s, l) => s + toThousandths(l.quantity), 0);
  return {
    lines,
    totalItems: lines.length,
    totalQuantity: thousandths / 1000,
    itemsGrossCents,
    itemsDiscountCents,
    totalCents,
    discountCents,
    couponDiscountCents,
    freightCents,
    finalAmountCents: totalCents - discountCents - couponDiscountCents + freightCents,
  };
}

type Issue = { path: string; message: string };

/** What is wrong with a sale's totals (discounts larger than what they discount). Empty when fine. */
export function saleTotalsIssues(input: SaleTotalsInput, totals = computeSaleTotals(input)): Issue[] {
  const issues: Issue[] = [];
  input.lines.forEach((line, i) => {
    if (Number.isNaN(toThousandths(line.quantity))) {
      issues.push({ path: `items.${i}.quantity`, message: SALE_MESSAGES.quantityDecimals });
    }
    if ((line.discountType ?? 'fixed_amount') === 'percentage' && (line.discountValue ?? 0) > 10000) {
      issues.push({ path: `items.${i}.discountValue`, message: SALE_MESSAGES.percentMax });
    } else if (totals.lines[i].discountCents > totals.lines[i].grossCents) {
      issues.push({ path: `items.${i}.discountValue`, message: SALE_MESSAGES.lineDiscountTooHigh });
    }
  });
  if ((input.discountType ?? 'fixed_amount') === 'percentage' && (input.discountValue ?? 0) > 10000) {
    issues.push({ path: 'discountValue', message: SALE_MESSAGES.percentMax });
  } else if (totals.discountCents + totals.couponDiscountCents > totals.totalCents) {
    issues.push({ path: 'discountValue', message: SALE_MESSAGES.discountTooHigh });
  }
  return issues;
}

// ---------------------------------------------------------------------------------------------------
// Payments

export type PaymentInput = {
  method: PaymentMethod;
  amountCents: number;
  /** Credit card, crediário and boleto: 1..12 (default 1). */
  numberInstallments?: number;
  /** Crediário and boleto: first due date, YYYY-MM-DD (default tomorrow). */
  dueDate?: string | null;
};

type Installment = { number: number; amountCents: number; dueDate: string };

type CheckedPayment = {
  method: PaymentMethod;
  /** What this payment pays of the sale (money: without the change). */
  amountCents: number;
  numberInstallments: number;
  dueDate: string | null;
  /** Crediário and boleto: one receivable per installment. */
  installments: Installment[];
};

export type PaymentCheckInput = {
  finalAmountCents: number;
  payments: readonly PaymentInput[];
  /** Cash handed over by the customer (spec: cashDepositAmount); 0 = exactly the money amount. */
  cashDepositAmountCents?: number;
  customerId?: number | null;
  typeOfSale?: TypeOfSale;
  /** The shop's date, YYYY-MM-DD. */
  today: string;
};

export type PaymentCheck =
  | {
      ok: true;
      payments: CheckedPayment[];
      /** Cash received (0 without money payments). */
      cashDepositAmountCents: number;
      changeCents: number;
      /** pending while a crediário/boleto amount is not settled. */
      status: Extract<SaleStatus, 'pending' | 'finished'>;
    }
  | { ok: false; message: string; issues: Issue[] };

/** Adds whole months to an ISO date; the 31st becomes the month's last day (Jan 31 + 1 -> Feb 28/29). */
export function addMonths(iso: string, months: number): string {
  const [year, month, day] = iso.split('-').map(Number);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

/** The default first due date of crediário/boleto (spec 9: tomorrow). */
export function defaultDueDate(today: string): string {
  return addDays(today, 1);
}

/**
 * Splits an amount into n installments, monthly from the first due date. Cents that do not divide go
 * to the first installment (R$ 100,00 in 3 = 33,34 + 33,33 + 33,33).
 */
export function splitInstallments(amountCents: number, count: number, firstDueDate: string): Installment[] {
  const base = Math.floor(amountCents / count);
  const remainder = amountCents - base * count;
  return Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    amountCents: base + (i === 0 ? remainder : 0),
    dueDate: addMonths(firstDueDate, i),
  }));
}

const fail = (message: string, path = 'payments'): PaymentCheck => ({
  ok: false,
  message,
  issues: [{ path, message }],
});

/**
 * Checks the payments of a sale against its final amount.
 * - They must add up to the final amount. Only money may go over it: the excess is the change (the
 *   cashier typed the note the customer handed over, "Dinheiro R$ 50,00" for a R$ 37,50 sale).
 * - `cashDepositAmountCents`, when given, is the cash received: change = received - money amount.
 * - Installments only for credit card, crediário and boleto (1..12); crediário and boleto need a
 *   customer and a first due date (default tomorrow, not in the past) and leave the sale pending.
 */
export function checkPayments(input: PaymentCheckInput): PaymentCheck {
  const { finalAmountCents, today } = input;
  if (input.payments.length > MAX_PAYMENTS) return fail(SALE_MESSAGES.tooManyPayments);
  if (input.payments.length === 0) {
    if (finalAmountCents === 0 && !input.cashDepositAmountCents) {
      return { ok: true, payments: [], cashDepositAmountCents: 0, changeCents: 0, status: 'finished' };
    }
    return fail(SALE_MESSAGES.paymentRequired);
  }
  const payments: CheckedPayment[] = [];
  for (const [i, p] of input.payments.entries()) {
    const path = `payments.${i}`;
    if (!Number.isInteger(p.amountCents) || p.amountCents <= 0) {
      return fail(SALE_MESSAGES.paymentAmountPositive, `${path}.amountCents`);
    }
    const count = p.numberInstallments ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > MAX_INSTALLMENTS) {
      return fail(SALE_MESSAGES.installmentsRange, `${path}.numberInstallments`);
    }
    if (count > 1 && !INSTALLMENT_METHODS.includes(p.method)) {
      return fail(SALE_MESSAGES.installmentsOnlyFor, `${path}.numberInstallments`);
    }
    if (p.method === 'paymentOnDelivery' && input.typeOfSale !== 'delivery') {
      return fail(SALE_MESSAGES.onDeliveryOnlyDelivery, `${path}.method`);
    }
    if (p.method === 'storeCredit' && input.customerId == null) {
      return fail(SALE_MESSAGES.storeCreditCustomer, 'customerId');
    }
    let dueDate: string | null = null;
    if (DEFERRED_METHODS.includes(p.method)) {
      if (input.customerId == null) {
        return fail(
          p.method === 'creditShop' ? SALE_MESSAGES.creditShopCustomer : SALE_MESSAGES.boletoCustomer,
          'customerId',
        );
      }
      dueDate = p.dueDate?.trim() ? p.dueDate.trim() : defaultDueDate(today);
      if (!isIsoDate(dueDate)) return fail(SALE_MESSAGES.dueDateInvalid, `${path}.dueDate`);
      if (dueDate < today) return fail(SALE_MESSAGES.dueDatePast, `${path}.dueDate`);
    }
    payments.push({
      method: p.method,
      amountCents: p.amountCents,
      numberInstallments: count,
      dueDate,
      installments: [],
    });
  }

  const paid = payments.reduce((s, p) => s + p.amountCents, 0);
  const moneyTyped = payments.filter((p) => p.method === 'money').reduce((s, p) => s + p.amountCents, 0);
  if (paid < finalAmountCents) {
    return fail(
      `Os pagamentos somam ${formatCents(paid)}: faltam ${formatCents(finalAmountCents - paid)} para o total de ${formatCents(finalAmountCents)}`,
    );
  }
  const excess = paid - finalAmountCents;
  if (excess > 0 && excess >= moneyTyped) {
    return fail(
      `Os pagamentos passam do total de ${formatCents(finalAmountCents)} em ${formatCents(excess)}: só o pagamento em dinheiro pode passar do total (troco)`,
    );
  }
  // The change comes out of the money payments, the last one first.
  let toTake = excess;
  for (let i = payments.length - 1; i >= 0 && toTake > 0; i--) {
    if (payments[i].method !== 'money') continue;
    const take = Math.min(toTake, payments[i].amountCents);
    payments[i].amountCents -= take;
    toTake -= take;
  }
  const applied = payments.filter((p) => p.amountCents > 0);
  const moneyApplied = moneyTyped - excess;
  const deposit = input.cashDepositAmountCents ?? 0;
  if (deposit > 0 && moneyTyped === 0) return fail(SALE_MESSAGES.cashWithoutMoney, 'cashDepositAmountCents');
  const received = deposit > 0 ? deposit : moneyTyped;
  if (received < moneyApplied) return fail(SALE_MESSAGES.cashTooLow, 'cashDepositAmountCents');

  for (const p of applied) {
    if (p.amountCents < p.numberInstallments) {
      return fail(`Valor pequeno demais para ${p.numberInstallments} parcelas`, 'payments');
    }
    if (p.dueDate) p.installments = splitInstallments(p.amountCents, p.numberInstallments, p.dueDate);
  }
  const deferred = applied.some((p) => DEFERRED_METHODS.includes(p.method));
  return {
    ok: true,
    payments: applied,
    cashDepositAmountCents: received,
    changeCents: received - moneyApplied,
    status: deferred ? 'pending' : 'finished',
  };
}

// ---------------------------------------------------------------------------------------------------
// Input schemas (API body and PDV)

const id = z
  .number({ message: 'Identificador inválido' })
  .int('Identificador inválido')
  .positive('Identificador inválido');

/** An integer-cents field of a sale form (0 up to the column ceiling). */
export const centsField = (label?: string) =>
  z
    .number({ message: label ? `${label}: informe um valor` : SALE_MESSAGES.centsInteger })
    .int(SALE_MESSAGES.centsInteger)
    .min(0, SALE_MESSAGES.negative)
    .max(SALE_MAX_CENTS, SALE_MESSAGES.tooHigh);

const quantity = z
  .number({ message: 'Informe a quantidade' })
  .positive(SALE_MESSAGES.quantityPositive)
  .max(SALE_MAX_QUANTITY, SALE_MESSAGES.quantityTooHigh)
  .refine((q) => !Number.isNaN(toThousandths(q)), SALE_MESSAGES.quantityDecimals);

const discountFields = {
  discountType: z.enum(DISCOUNT_KINDS, { message: 'Tipo de desconto inválido' }).default('fixed_amount'),
  /** Cents (fixed_amount) or hundredths of a percent (percentage: 1050 = 10,5%). */
  discountValue: centsField().default(0),
};

const refinePercent = (v: { discountType: DiscountKind; discountValue: number }, ctx: z.RefinementCtx) => {
  if (v.discountType === 'percentage' && v.discountValue > 10000) {
    ctx.addIssue({ code: 'custom', path: ['discountValue'], message: SALE_MESSAGES.percentMax });
  }
};

/** A manager's password typed on the spot (ROUTES.md: cancel and sangria by a PDV user). */
export const approvalSchema = z.object({
  email: z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(254),
  password: z.string({ message: REQUIRED }).min(1, REQUIRED).max(128, 'Use no máximo 128 caracteres'),
});
export type Approval = z.input<typeof approvalSchema>;

const saleItemInputSchema = z
  .object({
    productId: id,
    /** Required for products with a grid (variants). */
    variantId: id.nullish().transform((v) => v ?? null),
    quantity,
    /** Add-on items of ONE unit (ids of product_additional_items), each with its quantity. */
    additionals: z
      .array(z.object({ id, quantity: z.number().int('Use um número inteiro').min(1).max(50).default(1) }))
      .max(50)
      .default([]),
    ...discountFields,
    notes: optionalText(200),
  })
  .superRefine(refinePercent);

export const paymentInputSchema = z.object({
  method: z.enum(PAYMENT_METHODS, { message: 'Forma de pagamento inválida' }),
  amountCents: centsField('Valor do pagamento'),
  numberInstallments: z
    .number()
    .int(SALE_MESSAGES.installmentsRange)
    .min(1, SALE_MESSAGES.installmentsRange)
    .max(MAX_INSTALLMENTS, SALE_MESSAGES.installmentsRange)
    .default(1),
  dueDate: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v.split('T')[0] : null))
    .refine((v) => v === null || isIsoDate(v), SALE_MESSAGES.dueDateInvalid),
});

const paymentsField = z
  .array(paymentInputSchema)
  .max(MAX_PAYMENTS, SALE_MESSAGES.tooManyPayments)
  .default([]);

export const saleInputSchema = z
  .object({
    items: z
      .array(saleItemInputSchema)
      .min(1, SALE_MESSAGES.noItems)
      .max(MAX_SALE_ITEMS, SALE_MESSAGES.tooManyItems),
    customerId: id.nullish().transform((v) => v ?? null),
    /** The seller credited (saleSeller); default the user at the PDV. */
    sellerId: id.nullish().transform((v) => v ?? null),
    typeOfSale: z.enum(['store', 'delivery'], { message: 'Tipo de venda inválido' }).default('store'),
    /** An address of the customer (delivery). */
    deliveryAddressId: id.nullish().transform((v) => v ?? null),
    freightCents: centsField('Frete').default(0),
    ...discountFields,
    couponCode: optionalText(100),
    payments: paymentsField,
    cashDepositAmountCents: centsField('Valor recebido').default(0),
    notes: optionalText(500),
    /** A manager's approval for discounts above the operator's limit (issue 12 point 9). */
    approval: approvalSchema.optional(),
    /** A delivery sale's order details: payment on delivery, change, promised time (issue 18). */
    delivery: deliveryOnSaleSchema.optional(),
    /** "CPF na nota?" (issue 32): the consumer's CPF or CNPJ on the sale's NFC-e. */
    consumerDocument: consumerDocumentSchema.nullish().transform((v) => v ?? null),
  })
  .superRefine((sale, ctx) => {
    refinePercent(sale, ctx);
    if (sale.typeOfSale === 'delivery' && (sale.customerId === null || sale.deliveryAddressId === null)) {
      ctx.addIssue({ code: 'custom', path: ['deliveryAddressId'], message: SALE_MESSAGES.deliveryCustomer });
    }
  });
export type SaleInput = z.input<typeof saleInputSchema>;
export type SaleData = z.output<typeof saleInputSchema>;

/** Quick sale (/sale/create-simple): a description and a value, no catalog items. */
export const simpleSaleInputSchema = z.object({
  description: z
    .string({ message: SALE_MESSAGES.descriptionRequired })
    .trim()
    .min(1, SALE_MESSAGES.descriptionRequired)
    .max(200, 'Use no máximo 200 caracteres'),
  valueCents: centsField('Valor').refine((v) => v > 0, SALE_MESSAGES.valuePositive),
  customerId: id.nullish().transform((v) => v ?? null),
  payments: paymentsField,
  cashDepositAmountCents: centsField('Valor recebido').default(0),
  notes: optionalText(500),
});
export type SimpleSaleInput = z.input<typeof simpleSaleInputSchema>;
export type SimpleSaleData = z.output<typeof simpleSaleInputSchema>;

/** A reason (cancel, sangria): required text. */
export const reasonSchema = z
  .string({ message: SALE_MESSAGES.reasonRequired })
  .trim()
  .min(3, 'Descreva o motivo (no mínimo 3 caracteres)')
  .max(500, 'Use no máximo 500 caracteres');

export const saleCancelSchema = z.object({ reason: reasonSchema, approval: approvalSchema.optional() });
export type SaleCancelInput = z.input<typeof saleCancelSchema>;

export const receivableSettleSchema = z.object({
  /** How the customer paid the installment (default money): counted in the open register. */
  paymentMethod: z
    .enum(PAYMENT_METHODS, { message: 'Forma de pagamento inválida' })
    .refine(
      (m) => !DEFERRED_METHODS.includes(m) && m !== 'storeCredit',
      'Escolha como o cliente pagou a parcela',
    )
    .default('money'),
});
// ---------------------------------------------------------------------------------------------------
// Offline sales (issue 21): a sale made at a PDV without a connection, sent when it comes back

/**
 * Conflicts an offline sale is accepted with (never refused: the customer has left with the goods):
 * stock below zero where the shop does not allow it, a coupon no longer valid, a price changed since
 * the till's copy of the catalog, a discount above the operator's limit (no manager could approve it).
 */
export const OFFLINE_FLAGS = [
  'negative_stock',
  'coupon_refused',
  'price_changed',
  'discount_unapproved',
] as const;
export type OfflineFlag = (typeof OFFLINE_FLAGS)[number];
export const OFFLINE_FLAG_LABELS: Record<OfflineFlag, string> = {
  negative_stock: 'Estoque ficou negativo',
  coupon_refused: 'Cupom não era mais válido',
  price_changed: 'Preço diferente do catálogo',
  discount_unapproved: 'Desconto acima do limite sem aprovação',
};

export const OFFLINE_MESSAGES = {
  madeAtFuture: 'A hora da venda está no futuro: confira o relógio do aparelho',
  madeAtTooOld: 'Venda feita sem conexão há mais de 7 dias: registre-a de novo',
  pricesMismatch: 'Informe o preço cobrado de cada item',
  offlineLabel: 'Feita sem conexão',
} as const;

/** How long a till may keep a sale before sending it (the Idempotency-Key's retention). */
export const OFFLINE_MAX_AGE_DAYS = 7;

/**
 * POST /v1/sale/offline: the sale as the PDV built it (`sale`, the checkout's input without an
 * approval), the time it was made, and what the till charged from its copy of the catalog: each
 * item's unit and add-on prices and the coupon's discount. The server records those (accepted as
 * made) and flags where today's catalog or rules differ. The Idempotency-Key header is `clientSaleId`.
 */
export const offlineSaleInputSchema = z
  .object({
    /** The till's id for the sale (a UUID), also its Idempotency-Key. */
    clientSaleId: z.uuid('Identificador da venda inválido'),
    madeAt: z.iso.datetime({ offset: true, message: 'Data da venda inválida' }),
    sale: saleInputSchema,
    prices: z
      .array(
        z.object({
          unitPriceCents: centsField('Preço'),
          additionals: z
            .array(z.object({ id, priceCents: centsField('Preço do adicional') }))
            .max(50)
            .default([]),
        }),
      )
      .max(MAX_SALE_ITEMS),
    couponDiscountCents: centsField('Desconto do cupom').default(0),
  })
  .superRefine((v, ctx) => {
    if (v.prices.length !== v.sale.items.length)
      ctx.addIssue({ code: 'custom', path: ['prices'], message: OFFLINE_MESSAGES.pricesMismatch });
  });
export type OfflineSaleInput = z.input<typeof offlineSaleInputSchema>;
export type OfflineSaleData = z.output<typeof offlineSaleInputSchema>;

// ---------------------------------------------------------------------------------------------------
// What the API answers

/** An add-on of ONE unit of a line, as charged. */
export const lineAdditionalSchema = z.object({
  id: z.number(),
  name: z.string(),
  priceCents: z.number(),
  quantity: z.number(),
});
export type LineAdditional = z.infer<typeof lineAdditionalSchema>;

/**
 * A line's snapshot of the catalog when it was made (sale, budget and comanda lines keep the same
 * columns): product, variant, names and codes, unit, quantity, price and add-ons. Never read back
 * from the catalog. The fields of `lineSnapshotSchema`, in the order the answers list them.
 */
export const lineSnapshotShape = {
  /** Null for a free-text line (quick sale, service fee) or a product deleted since. */
  productId: z.number().nullable(),
  variantId: z.number().nullable(),
  description: z.string(),
  variantName: z.string().nullable(),
  sku: z.string().nullable(),
  barcode: z.string().nullable(),
  unit: z.string(),
  /** Up to 3 decimals (kg). */
  quantity: z.number(),
  unitPriceCents: z.number(),
  additionals: z.array(lineAdditionalSchema),
};
export const lineSnapshotSchema = z.object(lineSnapshotShape);
export type LineSnapshot = z.infer<typeof lineSnapshotSchema>;

export const saleItemSchema = z.object({
  id: z.number(),
  ...lineSnapshotShape,
  unitTotalCents: z.number(),
  grossCents: z.number(),
  discountType: z.enum(DISCOUNT_KINDS),
  discountValue: z.number(),
  discountCents: z.number(),
  totalCents: z.number(),
  notes: z.string().nullable(),
});
export type SaleItem = z.infer<typeof saleItemSchema>;

export const salePaymentSchema = z.object({
  id: z.number(),
  method: z.enum(PAYMENT_METHODS),
  amountCents: z.number(),
  numberInstallments: z.number(),
  dueDate: z.string().nullable(),
  /** Pix QR dinâmico (issue 33): the bank's endToEndId of the Pix (receipt and sale detail). */
  pixEndToEndId: z.string().nullable().optional(),
});
export type SalePayment = z.infer<typeof salePaymentSchema>;

/** The customer's address the sale is delivered to. */
export const deliveryAddressSchema = customerAddressSchema.pick({
  id: true,
  zipCode: true,
  street: true,
  number: true,
  complement: true,
  neighborhood: true,
  city: true,
  state: true,
});
export type DeliveryAddress = z.infer<typeof deliveryAddressSchema>;

export const saleSchema = z.object({
  id: z.number(),
  number: z.number(),
  status: z.enum(SALE_STATUSES),
  typeOfSale: z.enum(TYPES_OF_SALE),
  originSale: z.enum(ORIGINS_OF_SALE),
  /** A quick sale: one free-text line. */
  isSimple: z.boolean(),
  customer: customerSchema.pick({ id: true, name: true, document: true, phone: true }).nullable(),
  user: refSchema,
  seller: refSchema.nullable(),
  cashRegisterId: z.number().nullable(),
  items: z.array(saleItemSchema),
  payments: z.array(salePaymentSchema),
  receivables: z.array(saleReceivableSchema),
  totalItems: z.number(),
  totalQuantity: z.number(),
  itemsDiscountCents: z.number(),
  totalCents: z.number(),
  discountType: z.enum(DISCOUNT_KINDS),
  discountValue: z.number(),
  discountCents: z.number(),
  coupon: z.object({ id: z.number(), code: z.string() }).nullable(),
  couponDiscountCents: z.number(),
  freightCents: z.number(),
  finalAmountCents: z.number(),
  cashDepositAmountCents: z.number(),
  changeCents: z.number(),
  deliveryAddress: deliveryAddressSchema.nullable(),
  notes: z.string().nullable(),
  cancelReason: z.string().nullable(),
  canceledAt: z.string().nullable(),
  canceledBy: refSchema.nullable(),
  /** The manager who approved a discount above the operator's limit. */
  discountApprovedBy: refSchema.nullable(),
  /** The Administrador or Gerente who approved the cancel of another user (null: no approval needed). */
  cancelApprovedBy: refSchema.nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string(),
  /** Made at a PDV without a connection (issue 21): createdAt is the till's time, syncedAt its arrival. */
  madeOffline: z.boolean(),
  syncedAt: z.string().nullable(),
  /** The conflicts an offline sale was accepted with (OFFLINE_FLAGS). */
  offlineFlags: z.array(z.enum(OFFLINE_FLAGS)),
  /** Only in the checkout answer: what the PDV should tell the operator. */
  warnings: z.array(saleWarningSchema).optional(),
});
export type Sale = z.infer<typeof saleSchema>;
