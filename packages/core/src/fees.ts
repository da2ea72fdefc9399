import { isIsoDate } from './date.ts';
import { numberOrText } from './fields.ts';
import { timestampFields } from './responses.ts';
import { MEAL_VOUCHER_METHODS, type MealVoucherMethod } from './sale.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * Card fees (INTEGRATIONS.md "Card fees" and "Fee formulas"): the rate tables a shop keeps, the dated
 * presets they start from, and the pure formulas of the fee simulator.
 *
 * Units: money in integer cents; rates are percent numbers as the acquirers print them (3.79 = 3,79%),
 * anticipation and buyer interest per month. Rounding: every formula runs in floating point on the
 * exact values and rounds ONCE, at the end, to whole cents (half up: Math.round on amounts that are
 * never negative); a fee is gross minus net, so the two always add up to the gross. The effective rate
 * and the price to charge use the unrounded net.
 */

export const ANTICIPATION_MODELS = ['none', 'simple', 'compound', 'linear'] as const;
export type AnticipationModel = (typeof ANTICIPATION_MODELS)[number];

export const ANTICIPATION_MODEL_LABELS: Record<AnticipationModel, string> = {
  none: 'Sem antecipação',
  simple: 'Simples por parcela',
  compound: 'Composta por parcela',
  linear: 'Taxa única (linear)',
};

export const ANTICIPATION_BASES = ['monthly', 'daily'] as const;
export type AnticipationBasis = (typeof ANTICIPATION_BASES)[number];

/** Credit installments a table may hold: 12 as the acquirers print them, up to 18 when the shop wants. */
export const FEE_MAX_INSTALLMENTS = 18;
const FEE_DEFAULT_INSTALLMENTS = 12;
/** Debit settles the next day and Pix at once (days after the sale). */
const DEBIT_SETTLEMENT_DAYS = 1;
const PIX_SETTLEMENT_DAYS = 0;
/** How many tables the simulator compares side by side. */
export const FEE_COMPARE_MAX = 3;

export const FEE_MESSAGES = {
  rate: 'Informe uma taxa válida',
  rateRange: 'A taxa deve ser de 0 a 99,99%',
  decimals: 'Use no máximo 2 casas decimais',
  days: 'Informe um número de dias de 0 a 60',
  nameRequired: 'Informe o nome da tabela',
  acquirerRequired: 'Informe a adquirente',
  tooLong: 'Use no máximo 80 caracteres',
  ratesDate: 'Informe a data das taxas',
  creditRates: `Informe as taxas do crédito de 1x a no máximo ${FEE_MAX_INSTALLMENTS}x`,
  model: 'Selecione um modelo de antecipação válido',
  tableNotFound: 'Tabela de taxas não encontrada',
  activeTable: 'Selecione uma tabela de taxas da loja',
  noRate: 'Taxa de 100% ou mais: nenhum preço rende esse valor',
} as const;

// ---------------------------------------------------------------------------------------------------
// Schemas

/** A percent rate given as a number (API) or input text ("3,79"): 0 to 99.99, at most 2 decimals. */
const rateField = numberOrText(FEE_MESSAGES.rate, (value) => {
  if (typeof value === 'string' && !/^\d+([.,]\d*)?$/.test(value.trim())) return FEE_MESSAGES.rate;
  const number = typeof value === 'number' ? value : Number(value.trim().replace(',', '.'));
  if (!Number.isFinite(number)) return FEE_MESSAGES.rate;
  if (Math.abs(Math.round(number * 100) - number * 100) > 1e-6) return FEE_MESSAGES.decimals;
  if (number < 0 || number >= 100) return FEE_MESSAGES.rateRange;
  return Math.round(number * 100) / 100;
});

/** A rate the acquirer may not offer or publish (Pix, a debit rate): null or blank when absent. */
const optionalRateField = z.preprocess(
  (value) => (value === '' || value === undefined ? null : value),
  rateField.nullable(),
);

const daysField = numberOrText(FEE_MESSAGES.days, (value) => {
  const number = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  return Number.isInteger(number) && number >= 0 && number <= 60 ? number : FEE_MESSAGES.days;
});

const label = (max = 80) => z.string().trim().max(max, FEE_MESSAGES.tooLong).default('');

/** The rates a formula needs (a table without its names and dates). */
export const feeRatesInputSchema = z.object({
  debitRate: optionalRateField,
  pixRate: optionalRateField,
  /** Index 0 is 1x; the length is the most installments the table offers (1..18). */
  creditRates: z
    .array(rateField, { error: FEE_MESSAGES.creditRates })
    .min(1, FEE_MESSAGES.creditRates)
    .max(FEE_MAX_INSTALLMENTS, FEE_MESSAGES.creditRates),
  anticipationModel: z.enum(ANTICIPATION_MODELS, { error: FEE_MESSAGES.model }),
  /** Monthly anticipation rate, percent. */
  anticipationRate: rateField,
  /** Simple and compound: per month (i = 1..n) or per day (d_i = 30i - settlementDays). */
  anticipationBasis: z.enum(ANTICIPATION_BASES).default('monthly'),
  /** Linear: a*(n-1) instead of a*n (the first installment is not anticipated). */
  linearSkipsFirst: z.boolean().default(false),
  /** Days from the sale to the (first) credit receipt. */
  settlementDays: daysField,
  /**
   * Without anticipation: true when the acquirer pays every installment at once on the settlement
   * day (its rates include the anticipation: SumUp, InfinitePay); false pays one a month.
   */
  settlesAtOnce: z.boolean().default(false),
  /** Buyer-paid interest per month (Price table), percent; 0 when the acquirer offers none. */
  buyerInterestRate: rateField.default(0),
});
export type FeeRates = z.output<typeof feeRatesInputSchema>;

export const feeTableInputSchema = feeRatesInputSchema.extend({
  name: z
    .string({ error: FEE_MESSAGES.nameRequired })
    .trim()
    .min(1, FEE_MESSAGES.nameRequired)
    .max(80, FEE_MESSAGES.tooLong),
  acquirer: z
    .string({ error: FEE_MESSAGES.acquirerRequired })
    .trim()
    .min(1, FEE_MESSAGES.acquirerRequired)
    .max(80, FEE_MESSAGES.tooLong),
  /** The preset it started from, when any. */
  presetKey: z
    .string()
    .trim()
    .max(40)
    .nullish()
    .transform((v) => v || null),
  plan: label(),
  tier: label(),
  settlementLabel: label(),
  brandGroup: label(),
  /** The date the rates were read (presets are dated; the shop dates its own). */
  ratesDate: z
    .string({ error: FEE_MESSAGES.ratesDate })
    .trim()
    .refine((v) => isIsoDate(v), FEE_MESSAGES.ratesDate),
  /** False when the rates come from an unverified source. */
  verified: z.boolean().default(true),
  /** The version edited (required on update: docs/architecture.md). */
  updatedAt: z.string().optional(),
});
export type FeeTableInput = z.input<typeof feeTableInputSchema>;
export type FeeTableValues = z.output<typeof feeTableInputSchema>;

export const feeTableSchema = z.object({
  id: z.number(),
  name: z.string(),
  acquirer: z.string(),
  presetKey: z.string().nullable(),
  plan: z.string(),
  tier: z.string(),
  settlementLabel: z.string(),
  brandGroup: z.string(),
  ratesDate: z.string(),
  verified: z.boolean(),
  debitRate: z.number().nullable(),
  pixRate: z.number().nullable(),
  creditRates: z.array(z.number()),
  anticipationModel: z.enum(ANTICIPATION_MODELS),
  anticipationRate: z.number(),
  anticipationBasis: z.enum(ANTICIPATION_BASES),
  linearSkipsFirst: z.boolean(),
  settlementDays: z.number(),
  settlesAtOnce: z.boolean(),
  buyerInterestRate: z.number(),
  ...timestampFields,
});
export type FeeTable = z.infer<typeof feeTableSchema>;

/** The simulator settings of a shop: its active table and the PDV's surcharge display (off by default). */
export const feeSettingsInputSchema = z.object({
  activeTableId: z.number().int().positive().nullable(),
  pdvSurcharge: z.boolean({ error: REQUIRED }),
  updatedAt: z.string().optional(),
});
export type FeeSettingsInput = z.input<typeof feeSettingsInputSchema>;

export const feeSettingsSchema = z.object({
  activeTableId: z.number().nullable(),
  pdvSurcharge: z.boolean(),
  /** Null until the shop saves its settings the first time. */
  updatedAt: z.string().nullable(),
});
export type FeeSettings = z.infer<typeof feeSettingsSchema>;

// ---------------------------------------------------------------------------------------------------
// Meal vouchers (issue 33): VR/VA cards, one rate and settlement term per brand, enabled per shop.

export const MEAL_VOUCHER_MESSAGES = {
  duplicate: 'Cada bandeira de vale só pode aparecer uma vez',
  help: 'Os vales-refeição e alimentação cobram a taxa e pagam no prazo do contrato de cada bandeira: informe os do seu contrato. Só as bandeiras habilitadas aparecem no PDV.',
} as const;

/** A brand's line: offered at the PDV or not, its rate (percent) and the days until it pays. */
export const mealVoucherRateInputSchema = z.object({
  method: z.enum(MEAL_VOUCHER_METHODS, { error: 'Bandeira de vale inválida' }),
  enabled: z.boolean({ error: REQUIRED }),
  rate: rateField,
  settlementDays: daysField,
});

export const mealVoucherSettingsInputSchema = z.object({
  brands: z
    .array(mealVoucherRateInputSchema)
    .max(MEAL_VOUCHER_METHODS.length)
    .refine(
      (brands) => new Set(brands.map((b) => b.method)).size === brands.length,
      MEAL_VOUCHER_MESSAGES.duplicate,
    ),
});
export type MealVoucherSettingsInput = z.input<typeof mealVoucherSettingsInputSchema>;

export const mealVoucherRateSchema = z.object({
  method: z.enum(MEAL_VOUCHER_METHODS),
  enabled: z.boolean(),
  rate: z.number(),
  settlementDays: z.number(),
});
export type MealVoucherRate = z.infer<typeof mealVoucherRateSchema>;
/** Every brand, in MEAL_VOUCHER_METHODS order (the defaults for a brand the shop never saved). */
export const mealVoucherSettingsSchema = z.object({ brands: z.array(mealVoucherRateSchema) });
export type MealVoucherSettings = z.infer<typeof mealVoucherSettingsSchema>;

/** A brand the shop never saved: off, no rate, paid in 30 days (the common term of the brands' contracts). */
export const DEFAULT_MEAL_VOUCHER_DAYS = 30;
export const defaultMealVoucherRate = (method: MealVoucherMethod): MealVoucherRate => ({
  method,
  enabled: false,
  rate: 0,
  settlementDays: DEFAULT_MEAL_VOUCHER_DAYS,
});

/** What a voucher sale of `grossCents` leaves the shop, and when (the flat rate, rounded once). */
export function quoteMealVoucher(
  brand: Pick<MealVoucherRate, 'rate' | 'settlementDays'>,
  grossCents: number,
): { grossCents: number; feeCents: number; netCents: number; settlementDays: number } {
  const netCents = Math.max(0, toCents(grossCents * (1 - brand.rate / 100)));
  return { grossCents, feeCents: grossCents - netCents, netCents, settlementDays: brand.settlementDays };
}

/**
 * What the PDV needs: the active table when the surcharge display is on, else null; and the meal
 * voucher brands the shop enabled (the only ones the payment step offers).
 */
export const feePdvSchema = z.object({
  table: feeTableSchema.nullable(),
  mealVouchers: z.array(z.enum(MEAL_VOUCHER_METHODS)),
});
export type FeePdv = z.infer<typeof feePdvSchema>;

// ---------------------------------------------------------------------------------------------------
// Presets (INTEGRATIONS.md, rates of 2026-11 unless dated otherwise)

export type FeePreset = Omit<FeeTableValues, 'updatedAt' | 'presetKey' | 'name'> & {
  key: string;
  name: string;
  /** What the shop must check or fill in before trusting the preset. */
  note: string;
};

const sumupRates = [3.99, 5.79, 6.79, 7.79, 8.79, 9.59, 9.99, 10.69, 10.9, 11.4, 12.0, 12.65];
const infiniteRates = [3.15, 5.39, 6.12, 6.85, 7.57, 8.28, 8.99, 9.8, 10.38, 11.06, 11.74, 12.4];
const pagbank = (first: number, rest: number) => [first, ...Array<number>(11).fill(rest)];
const common = {
  pixRate: null,
  anticipationBasis: 'monthly',
  linearSkipsFirst: false,
  buyerInterestRate: 0,
  brandGroup: 'Visa/Master',
  verified: true,
} as const;

export const FEE_PRESETS: readonly FeePreset[] = [
  {
    ...common,
    key: 'sumup-d1',
    name: 'SumUp 1 dia útil',
    acquirer: 'SumUp',
    plan: 'Recebimento em 1 dia útil',
    tier: 'R$ 2 mil a R$ 20 mil/mês',
    settlementLabel: '1 dia útil',
    ratesDate: '2026-11-01',
    debitRate: 1.29,
    creditRates: sumupRates,
    anticipationModel: 'none',
    anticipationRate: 0,
    settlementDays: 1,
    settlesAtOnce: true,
    note: 'Antecipação inclusa nas taxas.',
  },
  {
    ...common,
    key: 'pagbank-30d',
    name: 'PagBank Moderninha 30 dias',
    acquirer: 'PagBank',
    plan: 'Moderninha, a partir de',
    tier: '',
    settlementLabel: '30 dias',
    ratesDate: '2026-11-01',
    debitRate: 1.99,
    creditRates: pagbank(3.19, 3.79),
    anticipationModel: 'none',
    anticipationRate: 0,
    settlementDays: 30,
    settlesAtOnce: false,
    buyerInterestRate: 2.99,
    note: 'Taxas "a partir de": confira as do seu plano. Parcelas pagas mês a mês.',
  },
  {
    ...common,
    key: 'pagbank-14d',
    name: 'PagBank Moderninha 14 dias',
    acquirer: 'PagBank',
    plan: 'Moderninha, a partir de',
    tier: '',
    settlementLabel: '14 dias',
    ratesDate: '2026-11-01',
    debitRate: 1.99,
    creditRates: pagbank(3.99, 4.59),
    anticipationModel: 'simple',
    anticipationRate: 0,
    settlementDays: 14,
    settlesAtOnce: true,
    buyerInterestRate: 2.99,
    note: 'A taxa de antecipação por parcela não é publicada: informe a do seu contrato.',
  },
  {
    ...common,
    key: 'pagbank-now',
    name: 'PagBank Moderninha na hora',
    acquirer: 'PagBank',
    plan: 'Moderninha, a partir de',
    tier: '',
    settlementLabel: 'Na hora',
    ratesDate: '2026-11-01',
    debitRate: 1.99,
    creditRates: pagbank(4.99, 5.59),
    anticipationModel: 'simple',
    anticipationRate: 0,
    settlementDays: 0,
    settlesAtOnce: true,
    buyerInterestRate: 2.99,
    note: 'A taxa de antecipação por parcela não é publicada: informe a do seu contrato.',
  },
  {
    ...common,
    key: 'mercadopago-now',
    name: 'Mercado Pago Point na hora',
    acquirer: 'Mercado Pago',
    plan: 'Point',
    tier: '',
    settlementLabel: 'Na hora',
    ratesDate: '2026-11-01',
    verified: false,
    debitRate: null,
    creditRates: Array<number>(12).fill(4.74),
    anticipationModel: 'linear',
    anticipationRate: 1.99,
    linearSkipsFirst: true,
    settlementDays: 0,
    settlesAtOnce: true,
    note: 'Não verificada. Crédito 4,74% + 1,99% a.m. por parcela; débito não informado.',
  },
  {
    ...common,
    key: 'infinitepay-20k',
    name: 'InfinitePay até R$ 20 mil/mês',
    acquirer: 'InfinitePay',
    plan: '',
    tier: 'Até R$ 20 mil/mês',
    settlementLabel: '1 dia',
    ratesDate: '2025-11-01',
    verified: false,
    debitRate: 1.37,
    creditRates: infiniteRates,
    anticipationModel: 'none',
    anticipationRate: 0,
    settlementDays: 1,
    settlesAtOnce: true,
    note: 'Não verificada (fim de 2025).',
  },
];

/** Stone negotiates per shop: no preset, the shop starts from a blank table. */
export function blankFeeTable(today: string): Omit<FeePreset, 'key' | 'note'> {
  return {
    ...common,
    name: '',
    acquirer: '',
    plan: '',
    tier: '',
    settlementLabel: '',
    brandGroup: '',
    ratesDate: today,
    debitRate: null,
    creditRates: Array<number>(FEE_DEFAULT_INSTALLMENTS).fill(0),
    anticipationModel: 'none',
    anticipationRate: 0,
    settlementDays: 30,
    settlesAtOnce: false,
  };
}

// ---------------------------------------------------------------------------------------------------
// Formulas

type Rates = Pick<
  FeeRates,
  | 'creditRates'
  | 'anticipationModel'
  | 'anticipationRate'
  | 'anticipationBasis'
  | 'linearSkipsFirst'
  | 'settlementDays'
  | 'settlesAtOnce'
>;

/** Cents, rounded once (half up; amounts here are never negative). */
const toCents = (value: number) => Math.round(value + 1e-9);

/**
 * The exact (unrounded) net of a credit sale of `grossCents` in `n` installments, INTEGRATIONS.md:
 * P = G/n, N = P(1 - m_n);
 * - none: n*N (paid monthly, or at once when the rates include the anticipation);
 * - linear: G(1 - m_n - a*n), or a*(n-1) when the first installment is not anticipated;
 * - simple: sum N(1 - a*i), daily N(1 - a/30*d_i) with d_i = 30i - settlement days;
 * - compound: sum N/(1+a)^i, daily N/(1+rd)^d_i with rd = (1+a)^(1/30) - 1.
 * May be zero or negative when the rates eat the whole sale (see the 100% guard of `chargeFor`).
 */
export function creditNetExact(rates: Rates, grossCents: number, n: number): number {
  const mdr = mdrOf(rates, n);
  const a = rates.anticipationRate / 100;
  const perInstallment = (grossCents / n) * (1 - mdr);
  const elapsed = rates.settlementDays;
  const daily = rates.anticipationBasis === 'daily';
  switch (rates.anticipationModel) {
    case 'none':
      return n * perInstallment;
    case 'linear':
      return grossCents * (1 - mdr - a * (rates.linearSkipsFirst ? n - 1 : n));
    case 'simple': {
      let net = 0;
      for (let i = 1; i <= n; i++)
        net += perInstallment * (1 - (daily ? (a / 30) * (30 * i - elapsed) : a * i));
      return net;
    }
    case 'compound': {
      const rd = (1 + a) ** (1 / 30) - 1;
      let net = 0;
      for (let i = 1; i <= n; i++)
        net += daily ? perInstallment / (1 + rd) ** (30 * i - elapsed) : perInstallment / (1 + a) ** i;
      return net;
    }
  }
}

function mdrOf(rates: Pick<Rates, 'creditRates'>, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > rates.creditRates.length) {
    throw new RangeError(`No credit rate for ${n}x`);
  }
  return rates.creditRates[n - 1] / 100;
}

/** Effective rate r = 1 - net/G of n installments (a fraction; the same for any gross). */
function effectiveRate(rates: Rates, n: number): number {
  return 1 - creditNetExact(rates, 1_000_000, n) / 1_000_000;
}

/**
 * The price to charge so the shop nets `netCents` in n installments: X / (1 - r), never X * (1 + r),
 * which under-collects. Null when the rates take 100% or more (no price nets anything).
 */
export function chargeFor(rates: Rates, netCents: number, n: number): number | null {
  return chargeAtRate(netCents, effectiveRate(rates, n));
}

/** X / (1 - r) in cents, or null at r >= 100%. */
export function chargeAtRate(netCents: number, rate: number): number | null {
  if (rate >= 1 - 1e-12) return null;
  return toCents(netCents / (1 - rate));
}

/** Days from the sale to the last money of a credit sale in n installments. */
export function creditSettlementDays(rates: Rates, n: number): number {
  const monthly = rates.anticipationModel === 'none' && !rates.settlesAtOnce;
  return monthly ? rates.settlementDays + 30 * (n - 1) : rates.settlementDays;
}

/** One row of the simulator: what a sale of `grossCents` in `installments` leaves the shop. */
export type FeeQuote = {
  /** 'pix', 'debit' or the credit installments count. */
  kind: 'pix' | 'debit' | 'credit';
  installments: number;
  grossCents: number;
  feeCents: number;
  /** Effective rate, percent with 2 decimals (12.21). */
  feePercent: number;
  netCents: number;
  /** Gross / n, rounded (what each installment shows to the buyer). */
  installmentCents: number;
  /** Days from the sale to the last money. */
  settlementDays: number;
};

const percentOf = (rate: number) => Math.round(rate * 10_000) / 100;

function quoteOf(
  kind: FeeQuote['kind'],
  n: number,
  grossCents: number,
  netExact: number,
  days: number,
): FeeQuote {
  const netCents = Math.max(0, toCents(netExact));
  return {
    kind,
    installments: n,
    grossCents,
    feeCents: grossCents - netCents,
    feePercent: grossCents > 0 ? percentOf(1 - netExact / grossCents) : 0,
    netCents,
    installmentCents: toCents(grossCents / n),
    settlementDays: days,
  };
}

/** "Quanto recebo": the net of a credit sale of `grossCents` in n installments. */
export function quoteCredit(rates: Rates, grossCents: number, n: number): FeeQuote {
  return quoteOf(
    'credit',
    n,
    grossCents,
    creditNetExact(rates, grossCents, n),
    creditSettlementDays(rates, n),
  );
}

/** Debit or Pix (a single flat rate), null when the table has no such rate. */
export function quoteFlat(
  rates: Pick<FeeRates, 'debitRate' | 'pixRate'>,
  kind: 'debit' | 'pix',
  grossCents: number,
): FeeQuote | null {
  const rate = kind === 'debit' ? rates.debitRate : rates.pixRate;
  if (rate === null) return null;
  const days = kind === 'debit' ? DEBIT_SETTLEMENT_DAYS : PIX_SETTLEMENT_DAYS;
  return quoteOf(kind, 1, grossCents, grossCents * (1 - rate / 100), days);
}

/**
 * "Quanto cobrar": the price of each row so the shop nets `netCents`, then that price's own quote
 * (its net may differ from the target by the rounding of one cent). Null for a row whose rates take
 * 100% or more.
 */
export function quoteToNet(
  rates: Rates & Pick<FeeRates, 'debitRate' | 'pixRate'>,
  netCents: number,
  kind: FeeQuote['kind'],
  n = 1,
): FeeQuote | null {
  if (kind === 'credit') {
    const gross = chargeFor(rates, netCents, n);
    return gross === null ? null : quoteCredit(rates, gross, n);
  }
  const rate = kind === 'debit' ? rates.debitRate : rates.pixRate;
  if (rate === null) return null;
  const gross = chargeAtRate(netCents, rate / 100);
  return gross === null ? null : quoteFlat(rates, kind, gross);
}

/** Buyer-paid interest (Price table): PMT = G*i / (1 - (1+i)^-n), the buyer pays n*PMT. */
export type BuyerInterestQuote = {
  installments: number;
  /** Each installment the buyer pays, rounded. */
  installmentCents: number;
  /** n * PMT of the exact PMT, rounded. */
  totalCents: number;
  /** What the buyer pays above the price. */
  interestCents: number;
};

export function buyerInterest(grossCents: number, n: number, monthlyRatePercent: number): BuyerInterestQuote {
  const i = monthlyRatePercent / 100;
  const pmt = i === 0 ? grossCents / n : (grossCents * i) / (1 - (1 + i) ** -n);
  const totalCents = toCents(pmt * n);
  return {
    installments: n,
    installmentCents: toCents(pmt),
    totalCents,
    interestCents: totalCents - grossCents,
  };
}

export const SIMULATOR_MODES = ['receive', 'charge', 'buyer'] as const;
export type SimulatorMode = (typeof SIMULATOR_MODES)[number];
export const SIMULATOR_MODE_LABELS: Record<SimulatorMode, string> = {
  receive: 'Quanto recebo',
  charge: 'Quanto cobrar',
  buyer: 'Juros do comprador',
};

/** Every row of a table at once: Pix, debit (when the table has them), then 1x..Nx. */
export function simulateAll(
  rates: Rates & Pick<FeeRates, 'debitRate' | 'pixRate'>,
  mode: 'receive' | 'charge',
  valueCents: number,
): (FeeQuote | null)[] {
  const rows: (FeeQuote | null)[] = [];
  for (const kind of ['pix', 'debit'] as const) {
    if ((kind === 'pix' ? rates.pixRate : rates.debitRate) === null) continue;
    rows.push(mode === 'receive' ? quoteFlat(rates, kind, valueCents) : quoteToNet(rates, valueCents, kind));
  }
  for (let n = 1; n <= rates.creditRates.length; n++) {
    rows.push(
      mode === 'receive' ? quoteCredit(rates, valueCents, n) : quoteToNet(rates, valueCents, 'credit', n),
    );
  }
  return rows;
}

/**
 * The counter price of a product in n installments so the shop nets its price: the charge and the
 * installment value (charge / n, rounded up to the cent so n installments never fall short of the
 * charge). Null when the rates take 100% or more.
 */
export function counterPrice(
  rates: Rates,
  priceCents: number,
  n: number,
): { chargeCents: number; installmentCents: number } | null {
  const charge = chargeFor(rates, priceCents, n);
  if (charge === null) return null;
  return { chargeCents: charge, installmentCents: Math.ceil(charge / n) };
}

/** Surcharge of n installments on an amount: what the price rises so the shop nets the amount. */
export function surchargeFor(rates: Rates, amountCents: number, n: number): number | null {
  if (n > rates.creditRates.length) return null;
  const charge = chargeFor(rates, amountCents, n);
  return charge === null ? null : charge - amountCents;
}

/** "em até 12x" */
export const upToLabel = (n: number) => `em até ${n}x`;
