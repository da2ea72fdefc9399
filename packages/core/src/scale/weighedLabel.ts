import { gtinCheckDigit } from '../barcode.ts';
import { z } from '../zod.ts';

/**
 * Weighed-item labels (issue 36): the EAN-13 a shop's scale prints for a product sold by weight,
 * read by the PDV's barcode scanner. GS1 keeps prefix 2 for in-store (restricted circulation)
 * numbers; Brazilian scales (Toledo MGV, Filizola, Urano) print
 *
 *   2 | product code (4 to 6 digits) | value (the rest: 7 to 5 digits) | EAN-13 check digit
 *
 * where the value is the weight in grams or the total price in cents, as the scale is set. A scale
 * with a 4-digit code usually pads the value with a leading 0 ("2 CCCC 0 PPPPPP D"): the same thing.
 * The scale computes the total from the weight and its price per kg and either truncates or rounds
 * it to the cent; the PDV uses the same rule (`weighedAmountCents`) so its line matches the label.
 */

export const SCALE_LABEL_CONTENTS = ['weight', 'price'] as const;
export type ScaleLabelContent = (typeof SCALE_LABEL_CONTENTS)[number];
export const SCALE_LABEL_CONTENT_LABELS: Record<ScaleLabelContent, string> = {
  weight: 'Peso (gramas)',
  price: 'Preço total (centavos)',
};

export const SCALE_ROUNDINGS = ['truncate', 'round'] as const;
export type ScaleRounding = (typeof SCALE_ROUNDINGS)[number];
export const SCALE_ROUNDING_LABELS: Record<ScaleRounding, string> = {
  truncate: 'Trunca (corta os décimos de centavo)',
  round: 'Arredonda (meio centavo para cima)',
};

export const SCALE_CODE_MIN = 4;
export const SCALE_CODE_MAX = 6;

/** The shop's label layout (Configurações > Balança). */
export const scaleSettingsSchema = z.object({
  /** Off: a prefix-2 EAN-13 is an ordinary barcode. */
  enabled: z.boolean(),
  codeLength: z
    .number({ message: 'Informe o tamanho do código do produto' })
    .int()
    .min(SCALE_CODE_MIN, 'O código do produto na etiqueta tem de 4 a 6 dígitos')
    .max(SCALE_CODE_MAX, 'O código do produto na etiqueta tem de 4 a 6 dígitos'),
  content: z.enum(SCALE_LABEL_CONTENTS, { message: 'Escolha o que a etiqueta traz: peso ou preço' }),
  rounding: z.enum(SCALE_ROUNDINGS, { message: 'Escolha a regra de arredondamento da balança' }),
});
export type ScaleSettings = z.infer<typeof scaleSettingsSchema>;
export type ScaleLayout = Omit<ScaleSettings, 'enabled'>;

export const DEFAULT_SCALE_SETTINGS: ScaleSettings = {
  enabled: false,
  codeLength: 5,
  content: 'price',
  // Half-up, what every sale line did before issue 36: a shop whose scale truncates says so.
  rounding: 'round',
};

export const SCALE_CODE_MESSAGE = 'O código da balança é um número de 1 a 6 dígitos';

/**
 * A product's code in the scale (its PLU: 1 to 6 digits). Kept without leading zeros, so "12",
 * "0012" and "00012" are the same product whatever the label's code length.
 */
export const scaleCodeSchema = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || (/^\d{1,6}$/.test(v) && Number(v) > 0), SCALE_CODE_MESSAGE)
  .transform((v) => (v === null ? null : String(Number(v))));

/** The stored form of a label's product code ("00012" -> "12"). */
export const scaleCodeKey = (code: string) => String(Number(code));

export const SCALE_LABEL_MESSAGES = {
  notLabel: 'Este código não é uma etiqueta de balança (EAN-13 começando com 2)',
  checkDigit: 'Etiqueta de balança inválida: o dígito verificador não confere. Leia de novo.',
  zero: 'Etiqueta de balança sem peso nem valor',
} as const;

export type ParsedScaleLabel = {
  /** The product's code in the scale, as printed (leading zeros kept). */
  code: string;
  /** Grams (content weight) or cents (content price). */
  value: number;
  content: ScaleLabelContent;
};

/** True when the text has the shape of a weighed label: 13 digits starting with 2. */
export function looksLikeScaleLabel(text: string): boolean {
  return /^2\d{12}$/.test(text.trim());
}

/**
 * Reads a label with the shop's layout: its product code and value. Throws an Error whose message
 * is the Portuguese reason (not a label, wrong check digit, no value).
 */
export function parseScaleLabel(text: string, layout: ScaleLayout): ParsedScaleLabel {
  const code = text.trim();
  if (!looksLikeScaleLabel(code)) throw new Error(SCALE_LABEL_MESSAGES.notLabel);
  if (gtinCheckDigit(code.slice(0, 12)) !== Number(code[12]))
    throw new Error(SCALE_LABEL_MESSAGES.checkDigit);
  const productCode = code.slice(1, 1 + layout.codeLength);
  const value = Number(code.slice(1 + layout.codeLength, 12));
  if (value === 0) throw new Error(SCALE_LABEL_MESSAGES.zero);
  return { code: productCode, value, content: layout.content };
}

/** The label a scale prints (tests, the label emulator): code padded to the layout, value, check digit. */
export function buildScaleLabel(productCode: string | number, value: number, layout: ScaleLayout): string {
  const valueDigits = 11 - layout.codeLength;
  const code = String(productCode).padStart(layout.codeLength, '0');
  if (code.length !== layout.codeLength || !/^\d+$/.test(code)) throw new Error('product code too long');
  if (!Number.isInteger(value) || value < 0 || value >= 10 ** valueDigits)
    throw new Error('value out of range');
  const body = `2${code}${String(value).padStart(valueDigits, '0')}`;
  return `${body}${gtinCheckDigit(body)}`;
}

/**
 * What a weight costs at a price per kg, to the cent, by the scale's rule: truncate (cut the
 * fraction of a cent, what most Brazilian scales do) or round (half a cent up). Integer math.
 */
export function weighedAmountCents(grams: number, pricePerKgCents: number, rounding: ScaleRounding): number {
  const milliCents = grams * pricePerKgCents;
  return rounding === 'truncate' ? Math.floor(milliCents / 1000) : Math.floor((milliCents + 500) / 1000);
}

/**
 * The weight (grams) that costs exactly `amountCents` at this price by the scale's rule: how a PDV
 * turns a price label into a quantity. The smallest such weight; null when no weight gives that
 * amount (the label was priced at another price per kg than the catalog's).
 */
export function gramsForAmount(
  amountCents: number,
  pricePerKgCents: number,
  rounding: ScaleRounding,
): number | null {
  if (pricePerKgCents <= 0 || amountCents <= 0) return null;
  // The least g with amount(g) >= amountCents, then check it gives exactly that amount.
  const target = rounding === 'truncate' ? amountCents * 1000 : amountCents * 1000 - 500;
  const grams = Math.max(1, Math.ceil(target / pricePerKgCents));
  return weighedAmountCents(grams, pricePerKgCents, rounding) === amountCents ? grams : null;
}

/** The line a label adds: its quantity (kg, 3 decimals) and what it costs by the shop's rule. */
export type WeighedLine = {
  /** Kilograms, 3 decimals (grams / 1000). */
  quantity: number;
  grams: number;
  amountCents: number;
  /** The total printed on the label (price labels); null on weight labels. */
  labelAmountCents: number | null;
  /** A price label whose total no weight gives at the catalog's price (the scale's price differs). */
  priceMismatch: boolean;
};

/**
 * The PDV's line for a label at the catalog's price per kg. A price label whose amount cannot be
 * reached (the scale holds another price) takes the weight nearest to it and says so.
 */
export function weighedLine(
  label: ParsedScaleLabel,
  pricePerKgCents: number,
  rounding: ScaleRounding,
): WeighedLine {
  if (label.content === 'weight') {
    const grams = label.value;
    return {
      quantity: grams / 1000,
      grams,
      amountCents: weighedAmountCents(grams, pricePerKgCents, rounding),
      labelAmountCents: null,
      priceMismatch: false,
    };
  }
  const exact = gramsForAmount(label.value, pricePerKgCents, rounding);
  const grams = exact ?? Math.max(1, Math.round((label.value * 1000) / Math.max(1, pricePerKgCents)));
  return {
    quantity: grams / 1000,
    grams,
    amountCents: weighedAmountCents(grams, pricePerKgCents, rounding),
    labelAmountCents: label.value,
    priceMismatch: exact === null,
  };
}
