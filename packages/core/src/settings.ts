import { BRAZIL_STATES, isValidCep, normalizeCep } from './cep.ts';
import type { Upload } from './contract.ts';
import { isValidCpfOrCnpj, isValidPhone, normalizeDocument, normalizePhone } from './document.ts';
import { optionalText } from './fields.ts';
import { PIX_CITY_MAX, PIX_KEY_MAX, PIX_MESSAGES, PIX_NAME_MAX, pixKeyOf } from './pix.ts';
import { refSchema } from './responses.ts';
import { isValidTimeZone } from './time.ts';
import { CLIENT_TYPE_IDS, type ClientTypeId, UserType, type UserTypeId } from './userTypes.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * The shop's settings pages (issue 14): company (system-client) and system preferences (system).
 * Working hours are in workingHours.ts. Every page answers who changed it last and when.
 */

/** Who saved a settings page last and when (null before the first save). */
const changedBySchema = z.object({
  updatedAt: z.string().nullable(),
  updatedBy: refSchema.nullable(),
});

/** The version a settings page was edited on: null for the first save of the page. */
const versionField = z.string({ message: REQUIRED }).nullable();

// ---------------------------------------------------------------------------------------------------
// Company (system-client)

/** What each checklist flag turns on (shown beside its switch). */
export const CHECKLIST_FLAG_HELP = {
  saleCommand: 'Comandas: abre e fecha comandas de mesa ou balcão (menu Vendas > Comandas).',
  stockManagement:
    'Controle de estoque: cada venda baixa o estoque e libera as telas de entrada, saída e fracionamento.',
  checkIsOpen:
    'Horário de funcionamento: mostra Aberto/Fechado no topo e avisa no PDV quando a loja está fechada.',
} as const;

const optionalPhone = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || isValidPhone(v), 'Telefone inválido')
  .transform((v) => (v === null ? null : normalizePhone(v)));

const optionalEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Use no máximo 254 caracteres')
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || z.email().safeParse(v).success, 'Email inválido');

const companyAddressSchema = z.object({
  zipCode: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || isValidCep(v), 'CEP inválido')
    .transform((v) => (v === null ? null : normalizeCep(v))),
  street: optionalText(200),
  number: optionalText(20),
  complement: optionalText(100),
  neighborhood: optionalText(100),
  city: optionalText(100),
  state: z
    .string()
    .trim()
    .toUpperCase()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || (BRAZIL_STATES as readonly string[]).includes(v), 'UF inválida'),
});

export const COMPANY_MESSAGES = {
  pixKeyInvalid: 'Chave Pix inválida: use email, CPF/CNPJ, telefone (+55...) ou chave aleatória',
  pixKeyTooLong: PIX_MESSAGES.keyTooLong,
  pixMerchantNameTooLong: `O nome do recebedor Pix deve ter no máximo ${PIX_NAME_MAX} caracteres`,
  pixMerchantCityTooLong: `A cidade do recebedor Pix deve ter no máximo ${PIX_CITY_MAX} caracteres`,
  pixMerchantRequired: 'Informe o nome e a cidade do recebedor para usar a chave Pix',
  logoTooLarge: 'O logotipo deve ter no máximo 2 MB',
  logoNotSupported: 'Formato não suportado: envie uma imagem JPEG, PNG ou WebP',
  documentTaken: 'Já existe uma conta com este CPF/CNPJ',
} as const;

const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A Pix key as the DICT accepts it: email, CPF/CNPJ, +55 phone or a random key (EVP). */
function isValidPixKey(key: string): boolean {
  const k = key.trim();
  if (EVP.test(k)) return true;
  if (/^\+55\d{10,11}$/.test(k)) return true;
  if (k.includes('@')) return z.email().safeParse(k).success && k.length <= 77;
  return isValidCpfOrCnpj(k) && /^[0-9A-Za-z.\-/]+$/.test(k);
}

/** The Pix key as stored: CPF/CNPJ without mask (the BR Code carries it as the DICT does). */
function normalizePixKey(key: string): string {
  const k = key.trim();
  if (EVP.test(k)) return k.toLowerCase();
  if (k.includes('@')) return pixKeyOf(k);
  if (k.startsWith('+')) return k;
  return normalizeDocument(k);
}

/** The Pix merchant name or city: white space runs as one space, then the length checked. */
const pixMerchantText = (max: number, message: string) =>
  z
    .string()
    .transform((v) => v.replace(/\s+/g, ' '))
    .pipe(z.string().trim().max(max, message))
    .nullish()
    .transform((v) => (v ? v : null));

export const companySettingsInputSchema = z
  .object({
    /** Trade name (nome fantasia): the name the app and receipts show. */
    name: z
      .string({ message: REQUIRED })
      .trim()
      .min(2, 'Informe o nome fantasia')
      .max(120, 'Use no máximo 120 caracteres'),
    legalName: optionalText(160),
    document: z
      .string({ message: REQUIRED })
      .trim()
      .min(1, REQUIRED)
      .refine(isValidCpfOrCnpj, 'CPF ou CNPJ inválido')
      .transform(normalizeDocument),
    stateRegistration: optionalText(20),
    clientTypeId: z.coerce
      .number({ message: 'Selecione o segmento' })
      .refine((v) => CLIENT_TYPE_IDS.includes(v as ClientTypeId), 'Selecione o segmento'),
    phone: z
      .string({ message: REQUIRED })
      .trim()
      .min(1, REQUIRED)
      .refine(isValidPhone, 'Telefone inválido')
      .transform(normalizePhone),
    whatsapp: optionalPhone,
    email: optionalEmail,
    address: companyAddressSchema,
    pixKey: z
      .string()
      .trim()
      .max(PIX_KEY_MAX, COMPANY_MESSAGES.pixKeyTooLong)
      .nullish()
      .transform((v) => (v ? v : null))
      .refine((v) => v === null || isValidPixKey(v), COMPANY_MESSAGES.pixKeyInvalid)
      .transform((v) => (v === null ? null : normalizePixKey(v))),
    // A tab or line break pasted into the name or city is a space (the BR Code carries one line).
    pixMerchantName: pixMerchantText(PIX_NAME_MAX, COMPANY_MESSAGES.pixMerchantNameTooLong),
    pixMerchantCity: pixMerchantText(PIX_CITY_MAX, COMPANY_MESSAGES.pixMerchantCityTooLong),
    receiptHeader: optionalText(300),
    receiptFooter: optionalText(300),
    saleCommand: z.boolean(),
    stockManagement: z.boolean(),
    checkIsOpen: z.boolean(),
    updatedAt: versionField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.pixKey && (!v.pixMerchantName || !v.pixMerchantCity)) {
      const path = v.pixMerchantName ? 'pixMerchantCity' : 'pixMerchantName';
      ctx.addIssue({ code: 'custom', path: [path], message: COMPANY_MESSAGES.pixMerchantRequired });
    }
  });
export type CompanySettingsInput = z.input<typeof companySettingsInputSchema>;
export type CompanySettingsData = z.output<typeof companySettingsInputSchema>;

export const companySettingsSchema = z.object({
  name: z.string(),
  legalName: z.string().nullable(),
  document: z.string(),
  stateRegistration: z.string().nullable(),
  clientTypeId: z.number(),
  phone: z.string(),
  whatsapp: z.string().nullable(),
  email: z.string().nullable(),
  address: z.object({
    zipCode: z.string().nullable(),
    street: z.string().nullable(),
    number: z.string().nullable(),
    complement: z.string().nullable(),
    neighborhood: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
  }),
  pixKey: z.string().nullable(),
  pixMerchantName: z.string().nullable(),
  pixMerchantCity: z.string().nullable(),
  receiptHeader: z.string().nullable(),
  receiptFooter: z.string().nullable(),
  /** Public URL of the logo (top bar, receipts, budget PDFs); null without one. */
  logoUrl: z.string().nullable(),
  saleCommand: z.boolean(),
  stockManagement: z.boolean(),
  checkIsOpen: z.boolean(),
  ...changedBySchema.shape,
});
export type CompanySettings = z.infer<typeof companySettingsSchema>;

/** What a receipt prints of the shop (PDV, sale detail): any PDV user reads it. */
export const receiptShopSchema = z.object({
  name: z.string(),
  document: z.string(),
  phone: z.string(),
  address: z.string().nullable(),
  logoUrl: z.string().nullable(),
  receiptHeader: z.string().nullable(),
  receiptFooter: z.string().nullable(),
});
export type ReceiptShopSettings = z.infer<typeof receiptShopSchema>;

// ---------------------------------------------------------------------------------------------------
// System preferences (system)

/** User types whose discounts have a limit: the PDV set but the approvers (Administrador, Gerente). */
export const DISCOUNT_LIMITED_TYPES = [
  UserType.SELLER,
  UserType.CASHIER,
  UserType.WAITER,
  UserType.FINANCIAL,
  UserType.ATTENDANT,
  UserType.MARKETING,
] as const satisfies readonly UserTypeId[];
export type DiscountLimitedType = (typeof DISCOUNT_LIMITED_TYPES)[number];

/** Hundredths of a percent (1000 = 10%), like a sale's percentage discount. */
export const DEFAULT_DISCOUNT_LIMITS: Record<DiscountLimitedType, { line: number; sale: number }> = {
  3: { line: 1000, sale: 1000 },
  4: { line: 1000, sale: 1000 },
  5: { line: 500, sale: 500 },
  7: { line: 1000, sale: 1000 },
  8: { line: 1000, sale: 1000 },
  9: { line: 500, sale: 500 },
};

export const DELIVERY_PAYMENT_OPTIONS = ['onDelivery', 'beforeDispatch', 'both'] as const;
export const DELIVERY_PAYMENT_LABELS: Record<(typeof DELIVERY_PAYMENT_OPTIONS)[number], string> = {
  onDelivery: 'Na entrega',
  beforeDispatch: 'Antes de sair para entrega',
  both: 'Na entrega ou antes',
};

const percentHundredths = (label: string) =>
  z
    .number({ message: `${label}: informe um percentual` })
    .int(`${label}: use no máximo 2 casas decimais`)
    .min(0, `${label}: o percentual não pode ser negativo`)
    .max(10000, `${label}: o percentual deve ser no máximo 100%`);

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ message: `${label}: informe um número` })
    .int(`${label}: use um número inteiro`)
    .min(min, `${label}: use no mínimo ${min}`)
    .max(max, `${label}: use no máximo ${max}`);

const discountLimitSchema = z.object({
  userTypeId: z
    .number()
    .refine((v) => (DISCOUNT_LIMITED_TYPES as readonly number[]).includes(v), 'Tipo de usuário inválido'),
  /** Max discount of one line, hundredths of a percent of the line. */
  line: percentHundredths('Desconto por item'),
  /** Max discount of the whole sale (lines + sale discount), hundredths of a percent of its items. */
  sale: percentHundredths('Desconto na venda'),
});

const deliveryPreferencesSchema = z.object({
  /** The delivery panel takes orders. */
  enabled: z.boolean(),
  /** Smallest order delivered, in cents (0: none). */
  minimumOrderCents: wholeNumber('Pedido mínimo', 0, 100_000_000),
  /** The time promised to the customer, in minutes. */
  estimateMinutes: wholeNumber('Tempo estimado', 5, 600),
  /** When a delivery is paid. */
  payment: z.enum(DELIVERY_PAYMENT_OPTIONS, { message: 'Forma de pagamento da entrega inválida' }),
});

const userTypeList = z
  .array(z.number().int().min(1).max(11, 'Tipo de usuário inválido'))
  .max(11)
  .transform((v) => [...new Set(v)].sort((a, b) => a - b));

/**
 * Exchanges and returns (issue 30): the window after the sale, in days (the receipt promises 30), and
 * the user types that return without a manager's approval (the others need one).
 */
const returnPreferencesSchema = z.object({
  windowDays: wholeNumber('Prazo de troca', 1, 365),
  userTypeIds: userTypeList,
});

export const systemSettingsInputSchema = z
  .object({
    timeZone: z
      .string({ message: REQUIRED })
      .trim()
      .min(1, REQUIRED)
      .refine(isValidTimeZone, 'Fuso horário inválido'),
    /** The stock module's setting (sales and exits below zero). */
    allowNegativeStock: z.boolean(),
    discountLimits: z.array(discountLimitSchema).max(DISCOUNT_LIMITED_TYPES.length),
    budgetValidityDays: wholeNumber('Validade do orçamento', 1, 365),
    serviceFeePercent: percentHundredths('Taxa de serviço').max(3000, 'Taxa de serviço: use no máximo 30%'),
    couvertCents: wholeNumber('Couvert', 0, 100_000),
    tabIdleMinutes: wholeNumber('Tempo de comanda parada', 5, 1440),
    delivery: deliveryPreferencesSchema,
    /** Issue 30; left out, the stored (or default) value stays. */
    returns: returnPreferencesSchema.optional(),
    /** User types that close their register by a blind count (issue 30); left out, the stored stays. */
    blindCountUserTypeIds: userTypeList.optional(),
    /**
     * Issue 35: orders from the QR-code menu at the table go straight to the tab and the kitchen
     * (no waiter's approval); left out, the stored value stays.
     */
    tableOrdersDirect: z.boolean().optional(),
    updatedAt: versionField.optional(),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    v.discountLimits.forEach((l, i) => {
      if (seen.has(l.userTypeId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['discountLimits', i, 'userTypeId'],
          message: 'Tipo de usuário repetido',
        });
      }
      seen.add(l.userTypeId);
    });
  });
export type SystemSettingsInput = z.input<typeof systemSettingsInputSchema>;
export type SystemSettingsData = z.output<typeof systemSettingsInputSchema>;

export const DEFAULT_SYSTEM_SETTINGS = {
  budgetValidityDays: 7,
  serviceFeePercent: 1000,
  couvertCents: 0,
  tabIdleMinutes: 30,
  delivery: { enabled: true, minimumOrderCents: 0, estimateMinutes: 60, payment: 'both' },
} as const satisfies Omit<
  SystemSettingsData,
  | 'timeZone'
  | 'allowNegativeStock'
  | 'discountLimits'
  | 'updatedAt'
  | 'returns'
  | 'blindCountUserTypeIds'
  | 'tableOrdersDirect'
>;

/** Issue 30: Administrador and Gerente return directly, the others with a manager's approval. */
export const DEFAULT_RETURN_SETTINGS = (): { windowDays: number; userTypeIds: number[] } => ({
  windowDays: 30,
  userTypeIds: [1, 2],
});
/** Issue 30: Caixa counts blind by default. */
export const DEFAULT_BLIND_COUNT_USER_TYPES = (): number[] => [4];

export const systemSettingsSchema = z.object({
  timeZone: z.string(),
  allowNegativeStock: z.boolean(),
  /** One per limited user type, in DISCOUNT_LIMITED_TYPES order. */
  discountLimits: z.array(z.object({ userTypeId: z.number(), line: z.number(), sale: z.number() })),
  budgetValidityDays: z.number(),
  serviceFeePercent: z.number(),
  couvertCents: z.number(),
  tabIdleMinutes: z.number(),
  delivery: z.object({
    enabled: z.boolean(),
    minimumOrderCents: z.number(),
    estimateMinutes: z.number(),
    payment: z.enum(DELIVERY_PAYMENT_OPTIONS),
  }),
  returns: z.object({ windowDays: z.number(), userTypeIds: z.array(z.number()) }),
  blindCountUserTypeIds: z.array(z.number()),
  /** Issue 35: table orders (QR menu) accepted without a waiter's approval. */
  tableOrdersDirect: z.boolean(),
  ...changedBySchema.shape,
});
export type SystemSettings = z.infer<typeof systemSettingsSchema>;

/** The discount limit of the session's user (PDV): null when the type has none (approvers). */
export const myDiscountLimitSchema = z.object({ line: z.number(), sale: z.number() }).nullable();

export const DISCOUNT_LIMIT_MESSAGES = {
  needsApproval: (percent: string) =>
    `Desconto acima do seu limite (${percent}): peça a aprovação de um Administrador ou Gerente`,
  refused: 'Aprovação recusada: email ou senha de Administrador/Gerente incorretos',
} as const;

/** Hundredths of a percent as Brazilian text: 1050 -> "10,5%". */
export function percentText(hundredths: number): string {
  return `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 }).format(hundredths / 100)}%`;
}

/**
 * Which discounts of a sale go beyond a user's limit: a line whose discount exceeds `line` percent
 * of its gross, or the sale when its manual discounts (lines + sale discount, coupons aside) exceed
 * `sale` percent of the lines' gross. Integer arithmetic: discount x 10000 > limit x base.
 */
export function discountsOverLimit(
  totals: { lines: { grossCents: number; discountCents: number }[]; discountCents: number },
  limit: { line: number; sale: number },
): { lines: number[]; sale: boolean } {
  const lines: number[] = [];
  let gross = 0;
  let manual = totals.discountCents;
  totals.lines.forEach((l, i) => {
    gross += l.grossCents;
    manual += l.discountCents;
    if (l.discountCents > 0 && l.discountCents * 10000 > limit.line * l.grossCents) lines.push(i);
  });
  return { lines, sale: manual > 0 && manual * 10000 > limit.sale * gross };
}

/** The logo upload (Configurações > Empresa): up to 2 MB, JPEG, PNG or WebP. */
export const LOGO_UPLOAD = {
  maxBytes: 2 * 1024 * 1024,
  tooLarge: COMPANY_MESSAGES.logoTooLarge,
  notSupported: COMPANY_MESSAGES.logoNotSupported,
} as const satisfies Upload;
