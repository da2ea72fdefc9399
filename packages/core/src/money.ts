/** Money is integer cents end to end (PRODUCT.md). */

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

export function formatCents(cents: number): string {
  return brl.format(cents / 100).replace(/\u00a0/g, ' ');
}

/**
 * "12,34" / "12.34" / "12" / "R$ 1.234,56" -> cents. NaN on anything else (more than 2 decimals,
 * letters, a sign). Dots are thousands separators when a decimal comma follows, or when they group
 * digits in threes ("1.234.567"); a single dot with 1-2 digits after it is a decimal point.
 * Never uses float math on the result.
 */
export function parseMoneyToCents(text: string): number {
  const value = text
    .trim()
    .replace(/^R\$\s*/, '')
    .replace(/\s*%$/, '');
  const grouped = /^(\d{1,3}(?:\.\d{3})+)(?:,(\d{0,2}))?$/.exec(value);
  const plain = /^(\d+)(?:[.,](\d{0,2}))?$/.exec(value);
  const m = plain ?? grouped;
  if (!m) return Number.NaN;
  const whole = Number(m[1].replace(/\./g, ''));
  const cents = whole * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : Number.NaN;
}

export function centsToDecimalString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Input mask of money/percent fields (spec 5): only digits and one comma, at most 2 decimals.
 * Returns the cleaned text to show. A dot typed on a numeric keypad counts as the comma; in a pasted
 * "1.234,56" (or "1.234.567") the dots group thousands and are dropped.
 */
export function maskDecimalInput(text: string): string {
  const dots = (text.match(/\./g) ?? []).length;
  const normalized = text.includes(',') || dots > 1 ? text.replace(/\./g, '') : text.replace('.', ',');
  return keepDigitsAndComma(normalized, 2);
}

/**
 * The digits and the first comma of `text` (none when `places` is 0), with at most `places` digits
 * after the comma; a leading comma becomes "0,". The core of the decimal input masks.
 */
export function keepDigitsAndComma(text: string, places: number): string {
  let out = '';
  let seenComma = false;
  let decimals = 0;
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') {
      if (seenComma) {
        if (decimals >= places) continue;
        decimals++;
      }
      out += ch;
    } else if (ch === ',' && !seenComma && places > 0) {
      seenComma = true;
      out += out === '' ? '0,' : ',';
    }
  }
  return out;
}

/** On save the comma becomes a dot (spec 5). */
export function decimalInputToNumber(text: string): number {
  if (text.trim() === '') return Number.NaN;
  return Number(text.replace(',', '.'));
}

/** 12.5 -> "12,5" for an input field; at most 2 decimals (0.1 + 0.2 shows "0,3"). */
export function numberToDecimalInput(value: number): string {
  if (!Number.isFinite(value)) return '';
  return String(Number(value.toFixed(2))).replace('.', ',');
}
