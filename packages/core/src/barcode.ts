import { z } from './zod.ts';

/**
 * GTIN barcodes (GS1): EAN-8, UPC-A (GTIN-12), EAN-13 and GTIN-14 (DUN-14, boxes).
 * All share one check digit rule: from the right, digits are weighted 3, 1, 3, 1...;
 * the check digit brings the sum up to a multiple of 10.
 */
type GtinKind = 'EAN-8' | 'UPC-A' | 'EAN-13' | 'GTIN-14';

const KIND_BY_LENGTH: Record<number, GtinKind> = { 8: 'EAN-8', 12: 'UPC-A', 13: 'EAN-13', 14: 'GTIN-14' };

export const BARCODE_DIGITS_MESSAGE = 'O código de barras deve ter apenas números';
export const BARCODE_LENGTH_MESSAGE =
  'O código de barras deve ter 8, 12, 13 ou 14 dígitos (EAN-8, UPC-A, EAN-13 ou GTIN-14)';
export const BARCODE_CHECK_MESSAGE = 'Código de barras inválido: o dígito verificador não confere';

/** Removes spaces, dots and hyphens a reader or a spreadsheet may add. */
export function normalizeBarcode(value: string): string {
  return value.replace(/[\s.-]/g, '');
}

/** The check digit of a GTIN body (the code without its last digit). */
export function gtinCheckDigit(body: string): number {
  if (!/^\d+$/.test(body)) throw new Error('digits only');
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

export function gtinKind(code: string): GtinKind | undefined {
  return /^\d+$/.test(code) ? KIND_BY_LENGTH[code.length] : undefined;
}

/** True for an EAN-8, UPC-A, EAN-13 or GTIN-14 whose check digit is right. */
export function isValidGtin(value: string): boolean {
  const code = normalizeBarcode(value);
  if (!gtinKind(code)) return false;
  return gtinCheckDigit(code.slice(0, -1)) === Number(code[code.length - 1]);
}

/** Why a barcode is refused, or undefined when it is valid. */
export function barcodeProblem(value: string): string | undefined {
  const code = normalizeBarcode(value);
  if (!/^\d+$/.test(code)) return BARCODE_DIGITS_MESSAGE;
  if (!gtinKind(code)) return BARCODE_LENGTH_MESSAGE;
  if (!isValidGtin(code)) return BARCODE_CHECK_MESSAGE;
  return undefined;
}

/** Completes a body with its check digit (e.g. to print internal EAN-13 labels starting with 2). */
export function withCheckDigit(body: string): string {
  return `${body}${gtinCheckDigit(body)}`;
}

/**
 * An optional barcode field: empty text or null means "no barcode" (null);
 * anything else must be a valid GTIN and comes out normalized.
 */
export const barcodeSchema = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v ? normalizeBarcode(v) : null))
  .superRefine((code, ctx) => {
    if (code === null) return;
    const problem = barcodeProblem(code);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
