import { addDays } from './date.ts';

/**
 * A boleto's linha digitável or barcode (FEBRABAN), read and checked (issue 34): the contas a pagar
 * form offers the amount and the due date it carries.
 *
 * - Bank boleto ("cobrança"): barcode of 44 digits `BBB M D FFFF VVVVVVVVVV L{25}` (bank, currency 9,
 *   general check digit by modulo 11, due-date factor, amount in cents, the bank's free field); its
 *   linha digitável of 47 digits is three fields with a modulo 10 check digit each, the general check
 *   digit and `FFFF VVVVVVVVVV`.
 * - Arrecadação (utilities, taxes: starts with 8): barcode of 44 digits `8 S I D V{11} ...`, the
 *   third digit says modulo 10 (6, 7) or 11 (8, 9) and whether V is an amount (6, 8); its linha of 48
 *   digits is four blocks of 11 digits, each with its check digit. No standard due date.
 *
 * The due-date factor counts days from 1997-10-07; it reached 9999 on 2025-02-21 and restarted at 1000
 * on 2025-02-22 (FEBRABAN's rollover), so a factor names two dates 9000 days apart: the one nearer the
 * reference day (today) is taken.
 */

export type BoletoKind = 'bank' | 'utility';

export type Boleto = {
  kind: BoletoKind;
  /** The 44 digits of the barcode. */
  barcode: string;
  /** The linha digitável, digits only (47 for a bank boleto, 48 for arrecadação). */
  line: string;
  /** Amount in cents; null when the boleto carries none (0 on a bank boleto, or a reference value). */
  amountCents: number | null;
  /** YYYY-MM-DD; null without a factor (0000) or on arrecadação. */
  dueDate: string | null;
  /** Bank code (bank boleto) or segment (arrecadação). */
  bank: string | null;
};

export type BoletoResult = { ok: true; boleto: Boleto } | { ok: false; message: string };

export const BOLETO_MESSAGES = {
  length:
    'O código deve ter 44 dígitos (código de barras), 47 (linha digitável de boleto bancário) ou 48 (conta de consumo ou tributo)',
  checkDigit: (field: number) => `O dígito verificador do campo ${field} não confere: confira a digitação`,
  generalCheckDigit: 'O dígito verificador geral não confere: confira a digitação',
  currency: 'Este boleto não é em reais',
} as const;

const FACTOR_BASE = '1997-10-07';
/** Factor 1000 of the second cycle (FEBRABAN: the day after factor 9999, 2025-02-21). */
const FACTOR_ROLLOVER = '2025-02-22';

/** Modulo 10 (weights 2, 1 from the right; digits of each product summed). */
export function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    let product = Number(digits[i]) * weight;
    if (product > 9) product = Math.floor(product / 10) + (product % 10);
    sum += product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

function mod11Sum(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  return sum % 11;
}

/** The bank barcode's general check digit: 11 - rest, and 1 where that gives 0, 10 or 11. */
export function mod11Bank(digits: string): number {
  const dv = 11 - mod11Sum(digits);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

/** Arrecadação's modulo 11: rest 0 or 1 -> 0, rest 10 -> 1, else 11 - rest. */
export function mod11Utility(digits: string): number {
  const rest = mod11Sum(digits);
  if (rest === 0 || rest === 1) return 0;
  if (rest === 10) return 1;
  return 11 - rest;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * The due date of a factor: of the two cycles' dates, the one nearer `reference` (YYYY-MM-DD). Null for
 * 0000 (no due date).
 */
export function dueDateOfFactor(factor: number, reference: string): string | null {
  if (factor === 0) return null;
  const first = addDays(FACTOR_BASE, factor);
  if (factor < 1000) return first;
  const second = addDays(FACTOR_ROLLOVER, factor - 1000);
  return Math.abs(daysBetween(reference, first)) <= Math.abs(daysBetween(reference, second)) ? first : second;
}

/** The factor of a due date (the cycle it falls in). */
export function factorOfDate(date: string): number {
  if (date < FACTOR_ROLLOVER) return daysBetween(FACTOR_BASE, date);
  return 1000 + (daysBetween(FACTOR_ROLLOVER, date) % 9000);
}

function bankLineToBarcode(line: string): string {
  return (
    line.slice(0, 4) +
    line[32] +
    line.slice(33, 47) +
    line.slice(4, 9) +
    line.slice(10, 20) +
    line.slice(21, 31)
  );
}

function bankBarcodeToLine(barcode: string): string {
  const free = barcode.slice(19);
  const f1 = barcode.slice(0, 4) + free.slice(0, 5);
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  return `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${barcode[4]}${barcode.slice(5, 19)}`;
}

function utilityCheck(barcode: string): (digits: string) => number {
  return barcode[2] === '6' || barcode[2] === '7' ? mod10 : mod11Utility;
}

function readBank(barcode: string, line: string, reference: string): BoletoResult {
  if (barcode[3] !== '9') return { ok: false, message: BOLETO_MESSAGES.currency };
  if (mod11Bank(barcode.slice(0, 4) + barcode.slice(5)) !== Number(barcode[4]))
    return { ok: false, message: BOLETO_MESSAGES.generalCheckDigit };
  const amount = Number(barcode.slice(9, 19));
  return {
    ok: true,
    boleto: {
      kind: 'bank',
      barcode,
      line,
      amountCents: amount > 0 ? amount : null,
      dueDate: dueDateOfFactor(Number(barcode.slice(5, 9)), reference),
      bank: barcode.slice(0, 3),
    },
  };
}

function readUtility(barcode: string, line: string): BoletoResult {
  const check = utilityCheck(barcode);
  if (check(barcode.slice(0, 3) + barcode.slice(4)) !== Number(barcode[3]))
    return { ok: false, message: BOLETO_MESSAGES.generalCheckDigit };
  const realAmount = barcode[2] === '6' || barcode[2] === '8';
  const amount = Number(barcode.slice(4, 15));
  return {
    ok: true,
    boleto: {
      kind: 'utility',
      barcode,
      line,
      amountCents: realAmount && amount > 0 ? amount : null,
      dueDate: null,
      bank: barcode[1],
    },
  };
}

/**
 * Reads a linha digitável or a barcode (dots, spaces and dashes ignored) and checks every check digit.
 * `reference` is the day the due-date factor is read near (the shop's today).
 */
export function parseBoleto(text: string, reference: string): BoletoResult {
  const digits = text.replace(/[\s.\-_]/g, '');
  if (!/^\d+$/.test(digits)) return { ok: false, message: BOLETO_MESSAGES.length };
  if (digits.length === 44) {
    if (digits[0] === '8') {
      const blocks = [0, 11, 22, 33].map((i) => digits.slice(i, i + 11));
      const check = utilityCheck(digits);
      return readUtility(digits, blocks.map((b) => `${b}${check(b)}`).join(''));
    }
    return readBank(digits, bankBarcodeToLine(digits), reference);
  }
  if (digits.length === 47) {
    const fields = [digits.slice(0, 9), digits.slice(10, 20), digits.slice(21, 31)];
    const dvs = [digits[9], digits[20], digits[31]];
    for (let i = 0; i < 3; i++) {
      if (mod10(fields[i]) !== Number(dvs[i]))
        return { ok: false, message: BOLETO_MESSAGES.checkDigit(i + 1) };
    }
    return readBank(bankLineToBarcode(digits), digits, reference);
  }
  if (digits.length === 48 && digits[0] === '8') {
    const blocks = [0, 12, 24, 36].map((i) => digits.slice(i, i + 11));
    const check = utilityCheck(blocks.join(''));
    for (let i = 0; i < 4; i++) {
      if (check(blocks[i]) !== Number(digits[i * 12 + 11]))
        return { ok: false, message: BOLETO_MESSAGES.checkDigit(i + 1) };
    }
    return readUtility(blocks.join(''), digits);
  }
  return { ok: false, message: BOLETO_MESSAGES.length };
}

/** "10492.00650 61000.100042 00997.263900 9 89810000021403": the linha as printed on a boleto. */
export function formatBoletoLine(line: string): string {
  if (line.length === 47) {
    return `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`;
  }
  if (line.length === 48) {
    return [0, 12, 24, 36].map((i) => `${line.slice(i, i + 11)}-${line[i + 11]}`).join(' ');
  }
  return line;
}

/** Builds a valid bank boleto's linha (tests and the e2e's fixture): bank, amount, due date, free field. */
export function makeBankBoletoLine(
  bank: string,
  amountCents: number,
  dueDate: string,
  free = '0'.repeat(25),
): string {
  const body = `${bank}9${String(factorOfDate(dueDate)).padStart(4, '0')}${String(amountCents).padStart(10, '0')}${free.padStart(25, '0').slice(-25)}`;
  const barcode = `${body.slice(0, 4)}${mod11Bank(body)}${body.slice(4)}`;
  return bankBarcodeToLine(barcode);
}
