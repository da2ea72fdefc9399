import { isValidCep, maskCep, normalizeCep } from './cep.ts';
import { formatCents } from './money.ts';
import { timestampFields } from './responses.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * Freight and shipping (issue 15): the shop's own delivery rules (rule sets with a fee by
 * neighbourhood, CEP range or distance tier, free above, minimum order, areas not served, the driver's
 * pay), the pure fee rule the PDV and the delivery panel call, and the carrier quotes (Melhor Envio,
 * Rodonaves) in one answer shape.
 */

// ---------------------------------------------------------------------------------------------------
// Own delivery: rule sets

export const FEE_MODES = ['fixed', 'neighborhood', 'cep_range', 'distance'] as const;
export type FeeMode = (typeof FEE_MODES)[number];
export const FEE_MODE_LABELS: Record<FeeMode, string> = {
  fixed: 'Taxa fixa',
  neighborhood: 'Por bairro',
  cep_range: 'Por faixa de CEP',
  distance: 'Por distância (km)',
};

export const DRIVER_FEE_MODES = ['fixed', 'per_km', 'neighborhood'] as const;
export type DriverFeeMode = (typeof DRIVER_FEE_MODES)[number];
export const DRIVER_FEE_MODE_LABELS: Record<DriverFeeMode, string> = {
  fixed: 'Valor fixo por entrega',
  per_km: 'Por km rodado',
  neighborhood: 'Por bairro',
};

/** Upper bounds that keep amounts inside integer columns and lists a screen can show. */
const SHIPPING_MAX_CENTS = 100_000_000;
const SHIPPING_MAX_ROWS = 300;

const SHIPPING_MESSAGES = {
  nameRequired: 'O nome é obrigatório',
  nameTooLong: 'O nome deve ter no máximo 100 caracteres',
  cents: 'Informe um valor válido',
  centsMax: `O valor deve ser no máximo ${formatCents(SHIPPING_MAX_CENTS)}`,
  minutes: 'Informe o tempo em minutos (número inteiro)',
  km: 'Informe a distância em km (até 2 casas decimais)',
  cep: 'CEP inválido',
  cepOrder: 'O CEP final deve ser maior ou igual ao inicial',
  neighborhoodRequired: 'Informe o bairro',
  neighborhoodRepeated: 'Bairro repetido na lista',
  tiersOrder: 'As faixas de distância devem crescer (até 3 km, até 6 km...)',
  tooMany: `No máximo ${SHIPPING_MAX_ROWS} linhas`,
  neighborhoodsEmpty: 'Cadastre ao menos um bairro com a taxa',
  cepRangesEmpty: 'Cadastre ao menos uma faixa de CEP com a taxa',
  tiersEmpty: 'Cadastre ao menos uma faixa de distância com a taxa',
  originRequired: 'Informe o CEP de origem (o endereço da loja) para calcular a distância',
  feeMode: 'Escolha como a taxa é calculada',
  driverFeeMode: 'Escolha como o entregador é pago',
} as const;

const cents = z
  .number({ error: SHIPPING_MESSAGES.cents })
  .int(SHIPPING_MESSAGES.cents)
  .min(0, SHIPPING_MESSAGES.cents)
  .max(SHIPPING_MAX_CENTS, SHIPPING_MESSAGES.centsMax);
const minutes = z
  .number({ error: SHIPPING_MESSAGES.minutes })
  .int(SHIPPING_MESSAGES.minutes)
  .min(0, SHIPPING_MESSAGES.minutes)
  .max(100_000, SHIPPING_MESSAGES.minutes);
const km = z
  .number({ error: SHIPPING_MESSAGES.km })
  .min(0, SHIPPING_MESSAGES.km)
  .max(10_000, SHIPPING_MESSAGES.km)
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, SHIPPING_MESSAGES.km);
const cepField = z
  .string({ error: SHIPPING_MESSAGES.cep })
  .refine(isValidCep, SHIPPING_MESSAGES.cep)
  .transform(normalizeCep);
const optionalCep = z
  .string()
  .trim()
  .default('')
  .refine((v) => v === '' || isValidCep(v), SHIPPING_MESSAGES.cep)
  .transform(normalizeCep);
const neighborhoodName = z
  .string({ error: SHIPPING_MESSAGES.neighborhoodRequired })
  .trim()
  .min(1, SHIPPING_MESSAGES.neighborhoodRequired)
  .max(120, SHIPPING_MESSAGES.neighborhoodRequired);

const neighborhoodFeeSchema = z.object({
  name: neighborhoodName,
  feeCents: cents,
  /** 0 = the rule set's delivery time. */
  timeMinutes: minutes.default(0),
});
const cepRangeFeeSchema = z
  .object({ from: cepField, to: cepField, feeCents: cents, timeMinutes: minutes.default(0) })
  .refine((r) => r.to >= r.from, { path: ['to'], message: SHIPPING_MESSAGES.cepOrder });
const distanceTierSchema = z.object({
  /** The tier covers distances above the previous tier and up to this (inclusive). */
  upToKm: km.refine((v) => v > 0, SHIPPING_MESSAGES.km),
  feeCents: cents,
  timeMinutes: minutes.default(0),
});
const cepRangeSchema = z
  .object({ from: cepField, to: cepField })
  .refine((r) => r.to >= r.from, { path: ['to'], message: SHIPPING_MESSAGES.cepOrder });
const driverNeighborhoodFeeSchema = z.object({ name: neighborhoodName, feeCents: cents });

const rows = <T extends z.ZodType>(schema: T) =>
  z.array(schema).max(SHIPPING_MAX_ROWS, SHIPPING_MESSAGES.tooMany).default([]);

/** The fields of a rule set that the fee rule reads (the input and the answer share them). */
const ruleFields = {
  name: z
    .string({ error: SHIPPING_MESSAGES.nameRequired })
    .trim()
    .min(1, SHIPPING_MESSAGES.nameRequired)
    .max(100, SHIPPING_MESSAGES.nameTooLong),
  /** The shop's CEP: the origin of distances and of carrier quotes. */
  originZipCode: optionalCep,
  feeMode: z.enum(FEE_MODES, { error: SHIPPING_MESSAGES.feeMode }).default('fixed'),
  /** The fee of the fixed mode. */
  fixedPriceCents: cents.default(0),
  neighborhoods: rows(neighborhoodFeeSchema),
  cepRanges: rows(cepRangeFeeSchema),
  distanceTiers: rows(distanceTierSchema),
  /** 0 = never free. */
  freeAboveCents: cents.default(0),
  /** 0 = no minimum order for delivery. */
  minOrderCents: cents.default(0),
  deliveryTimeMinutes: minutes.default(60),
  /** Areas not served, whatever the fee mode: neighbourhood names and CEP ranges. */
  notServedNeighborhoods: rows(neighborhoodName),
  notServedCepRanges: rows(cepRangeSchema),
  /** Shown at the PDV when the address is not served (empty: the standard message). */
  notServedMessage: z.string().trim().max(300).default(''),
  driverFeeMode: z.enum(DRIVER_FEE_MODES, { error: SHIPPING_MESSAGES.driverFeeMode }).default('fixed'),
  driverFixedCents: cents.default(0),
  driverPerKmCents: cents.default(0),
  driverNeighborhoods: rows(driverNeighborhoodFeeSchema),
  /** Switched off rule sets are kept but never used. */
  active: z.boolean().default(true),
  /** The rule set the PDV uses when none is picked (exactly one per shop while any is active). */
  isDefault: z.boolean().default(false),
};

export const shippingSettingInputSchema = z
  .object({ ...ruleFields, updatedAt: z.string().optional() })
  .superRefine((value, ctx) => {
    const need = (ok: boolean, path: string, message: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    if (value.feeMode === 'neighborhood')
      need(value.neighborhoods.length > 0, 'neighborhoods', SHIPPING_MESSAGES.neighborhoodsEmpty);
    if (value.feeMode === 'cep_range')
      need(value.cepRanges.length > 0, 'cepRanges', SHIPPING_MESSAGES.cepRangesEmpty);
    if (value.feeMode === 'distance') {
      need(value.distanceTiers.length > 0, 'distanceTiers', SHIPPING_MESSAGES.tiersEmpty);
      need(value.originZipCode !== '', 'originZipCode', SHIPPING_MESSAGES.originRequired);
    }
    const seen = new Set<string>();
    value.neighborhoods.forEach((n, i) => {
      const key = neighborhoodKey(n.name);
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: ['neighborhoods', i, 'name'],
          message: SHIPPING_MESSAGES.neighborhoodRepeated,
        });
      seen.add(key);
    });
    value.distanceTiers.forEach((tier, i) => {
      if (i > 0 && tier.upToKm <= value.distanceTiers[i - 1].upToKm)
        ctx.addIssue({
          code: 'custom',
          path: ['distanceTiers', i, 'upToKm'],
          message: SHIPPING_MESSAGES.tiersOrder,
        });
    });
  });
export type ShippingSettingInput = z.input<typeof shippingSettingInputSchema>;
export type ShippingSettingData = z.output<typeof shippingSettingInputSchema>;

/** A rule set as answered (GET /v1/shipping-settings/client/{clientId} keeps the session's first fields). */
export const shippingRuleSetSchema = z.object({
  id: z.number(),
  clientId: z.number(),
  name: z.string(),
  originZipCode: z.string(),
  feeMode: z.enum(FEE_MODES),
  fixedPriceCents: z.number(),
  neighborhoods: z.array(z.object({ name: z.string(), feeCents: z.number(), timeMinutes: z.number() })),
  cepRanges: z.array(
    z.object({ from: z.string(), to: z.string(), feeCents: z.number(), timeMinutes: z.number() }),
  ),
  distanceTiers: z.array(z.object({ upToKm: z.number(), feeCents: z.number(), timeMinutes: z.number() })),
  freeAboveCents: z.number(),
  minOrderCents: z.number(),
  deliveryTimeMinutes: z.number(),
  notServedNeighborhoods: z.array(z.string()),
  notServedCepRanges: z.array(z.object({ from: z.string(), to: z.string() })),
  notServedMessage: z.string(),
  driverFeeMode: z.enum(DRIVER_FEE_MODES),
  driverFixedCents: z.number(),
  driverPerKmCents: z.number(),
  driverNeighborhoods: z.array(z.object({ name: z.string(), feeCents: z.number() })),
  active: z.boolean(),
  isDefault: z.boolean(),
  ...timestampFields,
});
export type ShippingRuleSet = z.infer<typeof shippingRuleSetSchema>;

/** What the fee rule reads of a rule set. */
export type FeeRules = Omit<ShippingRuleSet, 'id' | 'clientId' | 'createdAt' | 'updatedAt' | 'name'>;

// ---------------------------------------------------------------------------------------------------
// The fee rule

/** Neighbourhoods match whatever the accents, case and spacing ("São José" = "sao  jose"). */
function neighborhoodKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

function formatKm(value: number): string {
  return `${value.toLocaleString('pt-BR', { maximumFractionDigits: 2 })} km`;
}

/** Where the order goes and how much it is: what the fee rule needs. */
type DeliveryRequest = {
  subtotalCents: number;
  neighborhood?: string | null;
  zipCode?: string | null;
  /** Distance from the shop by road, from the routing adapter or typed by the operator. */
  distanceKm?: number | null;
};

const NOT_SERVED_DEFAULT = 'Não entregamos neste endereço';

type FeeRefusal = 'not_served' | 'below_minimum' | 'distance_required' | 'address_required';

type FeeResult =
  | {
      ok: true;
      feeCents: number;
      /** Before "free above": what the matched rule charges. */
      ruleFeeCents: number;
      timeMinutes: number;
      /** Why, for the operator: "Bairro Centro: R$ 5,00", "Grátis acima de R$ 100,00 (Bairro Centro)". */
      reason: string;
      free: boolean;
      distanceKm: number | null;
    }
  | { ok: false; code: FeeRefusal; message: string };

function inCepRange(cep: string, range: { from: string; to: string }) {
  return cep >= range.from && cep <= range.to;
}

function notServed(rules: FeeRules, detail: string): FeeResult {
  const message = rules.notServedMessage || NOT_SERVED_DEFAULT;
  return { ok: false, code: 'not_served', message: `${message}: ${detail}` };
}

/**
 * The own-delivery freight of an order (issue 15): areas not served first, then the minimum order,
 * then the rule of the fee mode, then "free above". Pure: the PDV, the delivery panel and the API
 * compute the same answer with the same reason.
 */
export function computeShippingFee(rules: FeeRules, request: DeliveryRequest): FeeResult {
  const cep = request.zipCode ? normalizeCep(request.zipCode) : '';
  const hood = request.neighborhood?.trim() ?? '';
  const hoodKey = neighborhoodKey(hood);

  if (hood && rules.notServedNeighborhoods.some((n) => neighborhoodKey(n) === hoodKey))
    return notServed(rules, `bairro ${hood}`);
  if (cep && rules.notServedCepRanges.some((r) => inCepRange(cep, r)))
    return notServed(rules, `CEP ${maskCep(cep)}`);

  if (rules.minOrderCents > 0 && request.subtotalCents < rules.minOrderCents)
    return {
      ok: false,
      code: 'below_minimum',
      message: `Pedido mínimo para entrega: ${formatCents(rules.minOrderCents)}`,
    };

  let matched: { feeCents: number; timeMinutes: number; reason: string; distanceKm: number | null };
  switch (rules.feeMode) {
    case 'fixed':
      matched = {
        feeCents: rules.fixedPriceCents,
        timeMinutes: 0,
        reason: `Taxa fixa: ${formatCents(rules.fixedPriceCents)}`,
        distanceKm: null,
      };
      break;
    case 'neighborhood': {
      if (!hood) return { ok: false, code: 'address_required', message: 'Informe o bairro do endereço' };
      const row = rules.neighborhoods.find((n) => neighborhoodKey(n.name) === hoodKey);
      if (!row) return notServed(rules, `bairro ${hood} fora da lista de entrega`);
      matched = {
        feeCents: row.feeCents,
        timeMinutes: row.timeMinutes,
        reason: `Bairro ${row.name}: ${formatCents(row.feeCents)}`,
        distanceKm: null,
      };
      break;
    }
    case 'cep_range': {
      if (!cep) return { ok: false, code: 'address_required', message: 'Informe o CEP do endereço' };
      const row = rules.cepRanges.find((r) => inCepRange(cep, r));
      if (!row) return notServed(rules, `CEP ${maskCep(cep)} fora das faixas de entrega`);
      matched = {
        feeCents: row.feeCents,
        timeMinutes: row.timeMinutes,
        reason: `CEP ${maskCep(row.from)} a ${maskCep(row.to)}: ${formatCents(row.feeCents)}`,
        distanceKm: null,
      };
      break;
    }
    case 'distance': {
      const distance = request.distanceKm;
      if (distance == null || !Number.isFinite(distance) || distance < 0)
        return {
          ok: false,
          code: 'distance_required',
          message: 'Não foi possível calcular a distância. Informe a distância em km.',
        };
      const row = rules.distanceTiers.find((tier) => distance <= tier.upToKm);
      if (!row) {
        const max = rules.distanceTiers.at(-1)?.upToKm ?? 0;
        return notServed(rules, `${formatKm(distance)}, entregamos até ${formatKm(max)}`);
      }
      matched = {
        feeCents: row.feeCents,
        timeMinutes: row.timeMinutes,
        reason: `Até ${formatKm(row.upToKm)} (${formatKm(distance)}): ${formatCents(row.feeCents)}`,
        distanceKm: distance,
      };
      break;
    }
  }

  const timeMinutes = matched.timeMinutes || rules.deliveryTimeMinutes;
  if (rules.freeAboveCents > 0 && request.subtotalCents >= rules.freeAboveCents && matched.feeCents > 0)
    return {
      ok: true,
      feeCents: 0,
      ruleFeeCents: matched.feeCents,
      timeMinutes,
      reason: `Grátis acima de ${formatCents(rules.freeAboveCents)} (${matched.reason})`,
      free: true,
      distanceKm: matched.distanceKm,
    };
  return {
    ok: true,
    feeCents: matched.feeCents,
    ruleFeeCents: matched.feeCents,
    timeMinutes,
    reason: matched.reason,
    free: matched.feeCents === 0,
    distanceKm: matched.distanceKm,
  };
}

/**
 * What the driver earns for one delivery (the delivery issue's settlement): fixed, per km (rounded
 * to the cent) or by neighbourhood. Null when the rule cannot say (per km without a distance, a
 * neighbourhood not in the list): the settlement asks for it.
 */
export function computeDriverFee(
  rules: Pick<FeeRules, 'driverFeeMode' | 'driverFixedCents' | 'driverPerKmCents' | 'driverNeighborhoods'>,
  delivery: { neighborhood?: string | null; distanceKm?: number | null },
): { feeCents: number; reason: string } | null {
  switch (rules.driverFeeMode) {
    case 'fixed':
      return { feeCents: rules.driverFixedCents, reason: `Fixo: ${formatCents(rules.driverFixedCents)}` };
    case 'per_km': {
      const distance = delivery.distanceKm;
      if (distance == null || !Number.isFinite(distance) || distance < 0) return null;
      const feeCents = Math.round(distance * rules.driverPerKmCents);
      return {
        feeCents,
        reason: `${formatKm(distance)} × ${formatCents(rules.driverPerKmCents)}: ${formatCents(feeCents)}`,
      };
    }
    case 'neighborhood': {
      const key = neighborhoodKey(delivery.neighborhood ?? '');
      const row = key ? rules.driverNeighborhoods.find((n) => neighborhoodKey(n.name) === key) : undefined;
      return row
        ? { feeCents: row.feeCents, reason: `Bairro ${row.name}: ${formatCents(row.feeCents)}` }
        : null;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Own delivery quote (PDV's delivery step, delivery panel)

export const deliveryQuoteInputSchema = z.object({
  /** The rule set; the shop's default one when absent. */
  settingId: z.number().int().positive().optional(),
  subtotalCents: z.number().int().min(0).max(SHIPPING_MAX_CENTS),
  /** A saved address of a customer, or the address typed. */
  customerAddressId: z.number().int().positive().optional(),
  address: z
    .object({
      zipCode: z.string().default(''),
      street: z.string().default(''),
      number: z.string().default(''),
      neighborhood: z.string().default(''),
      city: z.string().default(''),
      state: z.string().default(''),
    })
    .optional(),
  /** Typed by the operator when the routing service cannot answer. */
  distanceKm: km.optional(),
});
export type DeliveryQuoteInput = z.input<typeof deliveryQuoteInputSchema>;

export const deliveryQuoteSchema = z.object({
  settingId: z.number(),
  settingName: z.string(),
  ok: z.boolean(),
  feeCents: z.number().nullable(),
  timeMinutes: z.number().nullable(),
  /** "Bairro Centro: R$ 5,00" when ok; the refusal ("Não entregamos...") otherwise. */
  reason: z.string(),
  code: z.enum(['ok', 'not_served', 'below_minimum', 'distance_required', 'address_required']),
  free: z.boolean(),
  distanceKm: z.number().nullable(),
  /** Where the distance came from: the routing service, the operator, or none was needed. */
  distanceSource: z.enum(['routing', 'typed', 'none']),
  /** What the driver earns for this delivery, when the rule can say. */
  driverFeeCents: z.number().nullable(),
});
export type DeliveryQuote = z.infer<typeof deliveryQuoteSchema>;

// ---------------------------------------------------------------------------------------------------
// Carriers

export const CARRIERS = ['melhor_envio', 'rodonaves'] as const;
export type Carrier = (typeof CARRIERS)[number];
export const CARRIER_LABELS: Record<Carrier, string> = {
  melhor_envio: 'Melhor Envio',
  rodonaves: 'Rodonaves',
};

/*
 * Carrier hosts are the server's configuration (apps/api/src/config.ts, issue 31): a shop picks the
 * Melhor Envio sandbox or production at most, never an address.
 */

/** Melhor Envio service ids (INTEGRATIONS.md). */
export const MELHOR_ENVIO_SERVICES: { id: number; name: string; company: string }[] = [
  { id: 1, name: 'PAC', company: 'Correios' },
  { id: 2, name: 'SEDEX', company: 'Correios' },
  { id: 17, name: 'Mini Envios', company: 'Correios' },
  { id: 3, name: '.Package', company: 'Jadlog' },
  { id: 4, name: '.Com', company: 'Jadlog' },
  { id: 27, name: '.Package Centralizado', company: 'Jadlog' },
  { id: 12, name: 'éFácil', company: 'LATAM Cargo' },
  { id: 15, name: 'Expresso', company: 'Azul Cargo' },
  { id: 16, name: 'e-commerce', company: 'Azul Cargo' },
  { id: 22, name: 'Rodoviário', company: 'Buslog' },
  { id: 31, name: 'Express', company: 'Loggi' },
  { id: 32, name: 'Coleta', company: 'Loggi' },
  { id: 34, name: 'Loggi Ponto', company: 'Loggi' },
  { id: 33, name: 'Standard', company: 'JeT' },
  { id: 35, name: 'Standard', company: 'Total Express' },
];

/** A box: cm and kg (weight with up to 3 decimals). */
export const packageSchema = z.object({
  heightCm: z.number({ error: 'Informe a altura (cm)' }).positive('Informe a altura (cm)').max(1000),
  widthCm: z.number({ error: 'Informe a largura (cm)' }).positive('Informe a largura (cm)').max(1000),
  lengthCm: z
    .number({ error: 'Informe o comprimento (cm)' })
    .positive('Informe o comprimento (cm)')
    .max(1000),
  weightKg: z.number({ error: 'Informe o peso (kg)' }).positive('Informe o peso (kg)').max(10_000),
});
export type PackageDims = z.infer<typeof packageSchema>;

/** A fallback price when the carrier cannot answer: destination CEP range and weight tier. */
export const fallbackRowSchema = z
  .object({
    from: cepField,
    to: cepField,
    upToKg: z.number({ error: 'Informe o peso (kg)' }).positive('Informe o peso (kg)').max(10_000),
    priceCents: cents,
    days: z.number().int().min(0).max(365),
  })
  .refine((r) => r.to >= r.from, { path: ['to'], message: SHIPPING_MESSAGES.cepOrder });
export type FallbackRow = z.output<typeof fallbackRowSchema>;

/**
 * The estimate of a failed carrier (issue 15): the first row whose CEP range holds the destination
 * and whose weight tier is the smallest that holds the weight. Null when no row fits.
 */
export function fallbackQuote(
  table: FallbackRow[],
  toZipCode: string,
  weightKg: number,
): { priceCents: number; days: number } | null {
  const cep = normalizeCep(toZipCode);
  const fits = table
    .filter((r) => inCepRange(cep, r) && weightKg <= r.upToKg)
    .sort((a, b) => a.upToKg - b.upToKg);
  return fits[0] ? { priceCents: fits[0].priceCents, days: fits[0].days } : null;
}

const optionalSecret = z.string().trim().max(4000).optional();

/** Melhor Envio settings as saved: secrets are write-only (absent = keep, "" = remove). */
export const melhorEnvioSettingsInputSchema = z.object({
  enabled: z.boolean().default(true),
  /** The server's sandbox hosts rather than production (a token works only where it was issued). */
  sandbox: z.boolean().default(false),
  originZipCode: optionalCep,
  /** The panel token, pasted (write-only). */
  token: optionalSecret,
  /** OAuth2 app (write-only secret). */
  clientId: z.string().trim().max(100).default(''),
  clientSecret: optionalSecret,
  /** "AppName (technical contact email)" sent as User-Agent on every request. */
  userAgent: z.string().trim().max(200).default(''),
  defaultPackage: packageSchema.nullable().default(null),
  services: z.array(z.number().int().positive()).max(50).default([1, 2]),
  fallback: rows(fallbackRowSchema),
  updatedAt: z.string().optional(),
});
export type MelhorEnvioSettingsInput = z.input<typeof melhorEnvioSettingsInputSchema>;

export const rodonavesSettingsInputSchema = z.object({
  enabled: z.boolean().default(true),
  username: z.string().trim().max(200).default(''),
  password: optionalSecret,
  /** auth_type of the token request: dev or prod. */
  authType: z.enum(['dev', 'prod']).default('prod'),
  /** CustomerTaxIdRegistration: the shop's CNPJ, digits. */
  taxpayerId: z
    .string()
    .trim()
    .default('')
    .transform((v) => v.replace(/[.\-/\s]/g, '').toUpperCase()),
  originZipCode: optionalCep,
  defaultPackage: packageSchema.nullable().default(null),
  fallback: rows(fallbackRowSchema),
  updatedAt: z.string().optional(),
});
export type RodonavesSettingsInput = z.input<typeof rodonavesSettingsInputSchema>;

const fallbackRowAnswer = z.object({
  from: z.string(),
  to: z.string(),
  upToKg: z.number(),
  priceCents: z.number(),
  days: z.number(),
});

/** What the browser sees of a carrier account: never a secret, only whether it is set. */
export const melhorEnvioSettingsSchema = z.object({
  enabled: z.boolean(),
  sandbox: z.boolean(),
  originZipCode: z.string(),
  clientId: z.string(),
  userAgent: z.string(),
  defaultPackage: packageSchema.nullable(),
  services: z.array(z.number()),
  fallback: z.array(fallbackRowAnswer),
  hasToken: z.boolean(),
  hasRefreshToken: z.boolean(),
  hasClientSecret: z.boolean(),
  /** When the access token expires (OAuth), ISO; null for a pasted token without expiry. */
  tokenExpiresAt: z.string().nullable(),
  /** "token" pasted, "oauth" authorized, or none yet. */
  connection: z.enum(['none', 'token', 'oauth']),
  updatedAt: z.string().nullable(),
});
export type MelhorEnvioSettings = z.infer<typeof melhorEnvioSettingsSchema>;

export const rodonavesSettingsSchema = z.object({
  enabled: z.boolean(),
  username: z.string(),
  authType: z.enum(['dev', 'prod']),
  taxpayerId: z.string(),
  originZipCode: z.string(),
  defaultPackage: packageSchema.nullable(),
  fallback: z.array(fallbackRowAnswer),
  hasPassword: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type RodonavesSettings = z.infer<typeof rodonavesSettingsSchema>;

export const oauthStartSchema = z.object({ url: z.string() });
export const oauthCallbackInputSchema = z.object({
  code: z.string().trim().min(1, REQUIRED),
  state: z.string().trim().min(1, REQUIRED),
});

// ---------------------------------------------------------------------------------------------------
// Carrier quotes (simulators)

export const freightQuoteInputSchema = z
  .object({
    carriers: z.array(z.enum(CARRIERS)).min(1).default(['melhor_envio', 'rodonaves']),
    /** Empty: the carrier's origin CEP, else the shop's default rule set's. */
    fromZipCode: optionalCep,
    toZipCode: cepField,
    /** One box, or products of the catalog with quantities (their weight and dimensions). */
    package: packageSchema.optional(),
    products: z
      .array(
        z.object({
          productId: z.number().int().positive(),
          quantity: z.number().int().positive('Informe a quantidade').max(10_000),
        }),
      )
      .max(100)
      .optional(),
    invoiceValueCents: cents.default(0),
  })
  .refine((v) => !(v.package && v.products?.length), {
    path: ['products'],
    message: 'Informe a caixa ou os produtos, não os dois',
  });
export type FreightQuoteInput = z.input<typeof freightQuoteInputSchema>;

export const freightOptionSchema = z.object({
  carrier: z.enum(CARRIERS),
  serviceId: z.string(),
  serviceName: z.string(),
  companyName: z.string(),
  companyPicture: z.string().nullable(),
  priceCents: z.number().nullable(),
  deliveryMinDays: z.number().nullable(),
  deliveryMaxDays: z.number().nullable(),
  /** From the fallback table: the carrier did not answer (shown as "estimativa"). */
  estimate: z.boolean(),
  /** Why this service has no price, or why it is an estimate, in Portuguese. */
  error: z.string().nullable(),
});
export type FreightOption = z.infer<typeof freightOptionSchema>;

export const freightQuoteSchema = z.object({
  fromZipCode: z.string(),
  toZipCode: z.string(),
  weightKg: z.number(),
  options: z.array(freightOptionSchema),
});
export type FreightQuote = z.infer<typeof freightQuoteSchema>;

/** Sorts quotes by price or time, services without a price last. */
export function sortFreightOptions(options: FreightOption[], by: 'price' | 'time'): FreightOption[] {
  const key = (o: FreightOption) =>
    by === 'price' ? o.priceCents : (o.deliveryMaxDays ?? o.deliveryMinDays);
  return [...options].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka == null && kb == null) return a.serviceName.localeCompare(b.serviceName);
    if (ka == null) return 1;
    if (kb == null) return -1;
    return ka - kb;
  });
}

/**
 * Boxes of products (Melhor Envio's `products[]`, Rodonaves' Packs): totals weight and the
 * insurance/invoice value. A product without weight or dimensions cannot be quoted by item.
 */
export function totalWeightKg(items: { weightKg: number; quantity: number }[]): number {
  return Math.round(items.reduce((sum, i) => sum + i.weightKg * i.quantity, 0) * 1000) / 1000;
}
