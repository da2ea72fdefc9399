import { addDays, formatDateBr, isIsoDate } from './date.ts';
import { numberOrText } from './fields.ts';
import { decimalInputToNumber, formatCents } from './money.ts';
import { timestampFields } from './responses.ts';
import { DEFAULT_TIME_ZONE, dateIn } from './time.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * Coupons (spec sections 3 and 5): the one input schema used by the web form and the API, and the
 * pure rule that says whether a coupon applies to a sale and how much it takes off.
 */

export const DISCOUNT_TYPES = ['PERCENTAGE', 'FIXED_AMOUNT'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

const COUPON_STATUSES = ['active', 'inactive', 'deleted'] as const;

/** Code length (spec 9: the input allows 3 to 100; docs/decisions.md: the message says 3 too). */
const COUPON_CODE_MIN = 3;
export const COUPON_CODE_MAX = 100;
/** Upper bounds that keep every amount inside the database's integer columns. */
const COUPON_MAX_AMOUNT = 1_000_000;
const COUPON_MAX_USES = 1_000_000;

export const COUPON_MESSAGES = {
  codeRequired: `O código é obrigatório e deve ter no mínimo ${COUPON_CODE_MIN} caracteres`,
  codeTooLong: `O código deve ter no máximo ${COUPON_CODE_MAX} caracteres`,
  codeChars: 'O código deve ter apenas letras, números, hífen ou sublinhado',
  discountType: 'Selecione um tipo de desconto válido',
  startRequired: 'A data de início é obrigatória',
  endRequired: 'A data de fim é obrigatória',
  endAfterYesterday: 'A data de fim deve ser maior que ontem',
  endAfterStart: 'A data de fim deve ser posterior à data de início',
  invalidDate: 'Data inválida',
  maxUsesMin: 'O número máximo de usos deve ser no mínimo 0',
  maxUsesMax: `O número máximo de usos deve ser no máximo ${COUPON_MAX_USES}`,
  integer: 'Informe um número inteiro',
  number: 'Informe um número válido',
  decimals: 'Use no máximo 2 casas decimais',
  discountPositive: 'O desconto deve ser maior que 0',
  percentMax: 'O percentual de desconto deve ser no máximo 100',
  amountMax: `O valor deve ser no máximo ${formatCents(COUPON_MAX_AMOUNT * 100)}`,
  minSaleNegative: 'O valor mínimo da venda não pode ser negativo',
  required: REQUIRED,
} as const;

/** A number with at most 2 decimals, checked on hundredths so 0.1 + 0.2 style floats do not matter. */
function hasAtMostTwoDecimals(value: number): boolean {
  return Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
}

/** Reais or percent with 2 decimals -> integer hundredths (R$ 5,50 -> 550; 12,5% -> 1250). */
export function toHundredths(value: number): number {
  return Math.round(value * 100);
}

/** Integer hundredths -> the API's decimal number (550 -> 5.5). Exact for any integer input. */
export function fromHundredths(hundredths: number): number {
  return hundredths / 100;
}

/**
 * A decimal amount given as a number (API) or as the text of a money/percent input (form: digits and
 * one comma, "10,5"; a dot is accepted too). The comma becomes a dot on save (spec 5).
 */
const decimalField = numberOrText(COUPON_MESSAGES.number, (value) => {
  const number = typeof value === 'number' ? value : parseDecimalText(value);
  if (!Number.isFinite(number)) return COUPON_MESSAGES.number;
  if (!hasAtMostTwoDecimals(number)) return COUPON_MESSAGES.decimals;
  return Math.round(number * 100) / 100;
});

function parseDecimalText(text: string): number {
  const trimmed = text.trim();
  if (!/^-?\d+([.,]\d*)?$/.test(trimmed)) return Number.NaN;
  return decimalInputToNumber(trimmed.replace('.', ','));
}

/** A whole number given as a number (API) or as input text (form). */
const integerField = numberOrText(COUPON_MESSAGES.integer, (value) => {
  const number =
    typeof value === 'number' ? value : /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  return Number.isInteger(number) ? number : COUPON_MESSAGES.integer;
});

/** A required calendar date: YYYY-MM-DD, or an ISO date-time whose date part is taken (split at T). */
const dateField = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .transform((value) => value.trim().split('T')[0])
    .pipe(
      z
        .string()
        .min(1, requiredMessage)
        .refine((value) => value === '' || isIsoDate(value), COUPON_MESSAGES.invalidDate),
    );

type CouponSchemaOptions = {
  /** The shop's date used by "A data de fim deve ser maior que ontem" (tests pass a fixed one). */
  today: () => string;
};

/** Builds the coupon input schema on a shop's date (the web's form passes the session's `shopToday`). */
export function makeCouponInputSchema(options: CouponSchemaOptions) {
  const { today } = options;
  return z
    .object({
      code: z
        .string({ error: COUPON_MESSAGES.codeRequired })
        .trim()
        .min(COUPON_CODE_MIN, COUPON_MESSAGES.codeRequired)
        .max(COUPON_CODE_MAX, COUPON_MESSAGES.codeTooLong)
        .regex(/^[A-Za-z0-9_-]*$/, COUPON_MESSAGES.codeChars)
        .transform((code) => code.toUpperCase()),
      discountType: z.enum(DISCOUNT_TYPES, { error: COUPON_MESSAGES.discountType }),
      discountValue: decimalField,
      startDate: dateField(COUPON_MESSAGES.startRequired),
      endDate: dateField(COUPON_MESSAGES.endRequired).refine(
        // Later than yesterday: today or after (dates are whole days).
        (end) => !isIsoDate(end) || end > addDays(today(), -1),
        COUPON_MESSAGES.endAfterYesterday,
      ),
      isSingleUse: z.boolean().default(false),
      maxUsesPerUser: integerField
        .refine((n) => n >= 0, COUPON_MESSAGES.maxUsesMin)
        .refine((n) => n <= COUPON_MAX_USES, COUPON_MESSAGES.maxUsesMax)
        .default(0),
      minSaleAmount: decimalField
        .refine((n) => n >= 0, COUPON_MESSAGES.minSaleNegative)
        .refine((n) => n <= COUPON_MAX_AMOUNT, COUPON_MESSAGES.amountMax)
        .default(0),
      /** Spec 3: set to active on save. 'inactive' parks a coupon without deleting it. */
      status: z.enum(['active', 'inactive']).default('active'),
      /** Spec 7 sends the client; the API only accepts the caller's own (another one is 404). */
      client: z
        .union([z.number().int().positive(), z.object({ id: z.number().int().positive() })])
        .transform((client) => (typeof client === 'number' ? { id: client } : { id: client.id }))
        .optional(),
      /** The record's updatedAt when the form was loaded: a stale edit gets 409 instead of overwriting. */
      updatedAt: z.string().optional(),
    })
    .superRefine((coupon, ctx) => {
      // Rules that compare two fields; each runs only when both fields parsed (zod may call this with
      // other fields already failing, and a failed field is then undefined).
      if (
        isIsoDate(coupon.startDate ?? '') &&
        isIsoDate(coupon.endDate ?? '') &&
        coupon.endDate < coupon.startDate
      ) {
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: COUPON_MESSAGES.endAfterStart });
      }
      const value = coupon.discountValue;
      if (typeof value !== 'number') return;
      if (value <= 0) {
        ctx.addIssue({ code: 'custom', path: ['discountValue'], message: COUPON_MESSAGES.discountPositive });
      } else if (coupon.discountType === 'PERCENTAGE' && value > 100) {
        ctx.addIssue({ code: 'custom', path: ['discountValue'], message: COUPON_MESSAGES.percentMax });
      } else if (coupon.discountType === 'FIXED_AMOUNT' && value > COUPON_MAX_AMOUNT) {
        ctx.addIssue({ code: 'custom', path: ['discountValue'], message: COUPON_MESSAGES.amountMax });
      }
    });
}

/**
 * The schema of the API's body, parsed before any shop is known: "today" is Balcão's default zone's
 * date, so a shop far from it may see "ontem" move by its offset near midnight (issue 29: the route
 * declarations will carry the shop's date). The web form builds its own with the shop's date.
 */
export const couponInputSchema = makeCouponInputSchema({ today: () => dateIn(DEFAULT_TIME_ZONE) });
/** What the form holds (texts from masked inputs allowed) and what the API accepts. */
export type CouponFormValues = z.input<typeof couponInputSchema>;
/** The parsed coupon: numbers, upper-case code, YYYY-MM-DD dates. */
export type CouponInput = z.output<typeof couponInputSchema>;

/** A coupon as the API answers it (spec 3; dates YYYY-MM-DD; amounts as decimal numbers). */
export const couponSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  discountType: z.enum(DISCOUNT_TYPES),
  /** Percent (10.5 = 10,5%) or reais (5.5 = R$ 5,50) by discountType. */
  discountValue: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  isSingleUse: z.boolean(),
  /** 0 = unlimited. */
  maxUsesPerUser: z.number().int(),
  /** Reais; 0 = no minimum. */
  minSaleAmount: z.number(),
  status: z.enum(COUPON_STATUSES),
  client: z.object({ id: z.number().int() }),
  ...timestampFields,
});
export type Coupon = z.infer<typeof couponSchema>;

/** "10%", "12,5%" or "R$ 5,00", as the list shows a discount. */
export function formatCouponDiscount(coupon: Pick<Coupon, 'discountType' | 'discountValue'>): string {
  const hundredths = toHundredths(coupon.discountValue);
  if (coupon.discountType === 'FIXED_AMOUNT') return formatCents(hundredths);
  const percent = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 }).format(hundredths / 100);
  return `${percent}%`;
}

// ---------------------------------------------------------------------------------------------------
// Rules at sale (PRODUCT.md "Coupons at sale")

export type CouponRuleCode =
  | 'inactive'
  | 'not_started'
  | 'expired'
  | 'single_use_used'
  | 'customer_required'
  | 'per_user_limit'
  | 'below_minimum';

export type CouponEvaluation =
  | { ok: true; discountCents: number }
  | { ok: false; code: CouponRuleCode; reason: string };

export type CouponRuleInput = Pick<
  Coupon,
  | 'status'
  | 'discountType'
  | 'discountValue'
  | 'startDate'
  | 'endDate'
  | 'isSingleUse'
  | 'maxUsesPerUser'
  | 'minSaleAmount'
>;

export type CouponSaleContext = {
  /** Sale subtotal (items, before the coupon), integer cents. */
  subtotalCents: number;
  /** The sale's customer, when there is one. */
  customerId?: number | null;
  /** Uses of this coupon that count (sales not canceled), by anybody. */
  usesTotal: number;
  /** Of those, the uses by this customer (0 without a customer). */
  usesByCustomer: number;
  /** The shop's date, YYYY-MM-DD. */
  today: string;
};

/** The discount a coupon gives on a subtotal: integer cents, half-up to the cent, never above the subtotal. */
export function couponDiscountCents(
  coupon: Pick<Coupon, 'discountType' | 'discountValue'>,
  subtotalCents: number,
): number {
  if (subtotalCents <= 0) return 0;
  const hundredths = toHundredths(coupon.discountValue);
  const discount =
    coupon.discountType === 'PERCENTAGE'
      ? // subtotal x percent-hundredths / 10000, half-up; integer math (exact below 2^53).
        Math.floor((subtotalCents * hundredths + 5000) / 10000)
      : hundredths;
  return Math.max(0, Math.min(discount, subtotalCents));
}

function refuse(code: CouponRuleCode, reason: string): CouponEvaluation {
  return { ok: false, code, reason };
}

/** Whether the coupon applies to a sale and, if it does, the discount in cents. Pure: no clock, no I/O. */
export function evaluateCoupon(coupon: CouponRuleInput, sale: CouponSaleContext): CouponEvaluation {
  if (coupon.status !== 'active') return refuse('inactive', 'Este cupom está inativo');
  if (sale.today < coupon.startDate) {
    return refuse(
      'not_started',
      `Este cupom ainda não está válido: vale a partir de ${formatDateBr(coupon.startDate)}`,
    );
  }
  if (sale.today > coupon.endDate) {
    return refuse('expired', `Este cupom expirou em ${formatDateBr(coupon.endDate)}`);
  }
  if (coupon.isSingleUse && sale.usesTotal > 0) {
    return refuse('single_use_used', 'Este cupom é de uso único e já foi utilizado');
  }
  if (coupon.maxUsesPerUser > 0) {
    if (sale.customerId == null) {
      return refuse(
        'customer_required',
        'Este cupom tem limite de usos por cliente: informe o cliente da venda',
      );
    }
    if (sale.usesByCustomer >= coupon.maxUsesPerUser) {
      const times = coupon.maxUsesPerUser === 1 ? '1 vez' : `${coupon.maxUsesPerUser} vezes`;
      return refuse('per_user_limit', `Este cliente já usou este cupom o máximo permitido (${times})`);
    }
  }
  const minimumCents = toHundredths(coupon.minSaleAmount);
  if (minimumCents > 0 && sale.subtotalCents < minimumCents) {
    return refuse('below_minimum', `Este cupom exige compra mínima de ${formatCents(minimumCents)}`);
  }
  return { ok: true, discountCents: couponDiscountCents(coupon, sale.subtotalCents) };
}

// ---------------------------------------------------------------------------------------------------
// POST /v1/coupon/validate: does a code apply to a sale subtotal?

/**
 * The subtotal goes as integer cents (`subtotalCents`, the project's money convention) or as a decimal
 * number of reais (`subtotal`, like the coupon's own minSaleAmount); one of them is required.
 */
export const couponValidateInputSchema = z
  .object({
    code: z.string({ error: REQUIRED }).trim().min(1, REQUIRED),
    subtotalCents: z
      .number()
      .int(COUPON_MESSAGES.integer)
      .min(0, 'O subtotal não pode ser negativo')
      .optional(),
    subtotal: z
      .number()
      .min(0, 'O subtotal não pode ser negativo')
      .refine(hasAtMostTwoDecimals, COUPON_MESSAGES.decimals)
      .optional(),
    customerId: z.number().int().positive().nullish(),
  })
  .refine((v) => v.subtotalCents !== undefined || v.subtotal !== undefined, {
    message: REQUIRED,
    path: ['subtotalCents'],
  })
  .transform((v) => ({
    code: v.code,
    subtotalCents: v.subtotalCents ?? toHundredths(v.subtotal ?? 0),
    customerId: v.customerId ?? null,
  }));

export const couponValidationSchema = z.object({
  valid: z.literal(true),
  /** The discount in reais (decimal number) and in cents. */
  discount: z.number(),
  discountCents: z.number().int(),
  subtotalCents: z.number().int(),
  /** Subtotal minus the discount. */
  totalCents: z.number().int(),
  coupon: couponSchema,
});
export type CouponValidation = z.infer<typeof couponValidationSchema>;
