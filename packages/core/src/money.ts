/** Money is integer cents end to end (PRODUCT.md). */

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

export function formatCents(cents: number): string {
  return brl.format(cents / 100).replace(/\u00a0/g, ' ');
}

/** "12,34" / "12.34" / "12" -> 1234. Returns NaN on anything else. Never uses float math on the result. */
export function parseMoneyToCents(text: string): number {
  const value = text
    .trim()
    .replace(/^R\$\s*/, '')
    .replace(/\s*%$/, '');
  const m = /^(\d+)(?:[.,](\d{0,2}))?$/.exec(value);
  if (!m) return Number.NaN;
  const decimals = (m[2] ?? '').padEnd(2, '0');
  return Number(m[1]) * 100 + Number(decimals);
}

export function centsToDecimalString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Input mask of money/percent fields (spec 5): only digits and one comma, at most 2 decimals.
 * Returns the cleaned text to show.
 */
export function maskDecimalInput(text: string): string {
  let out = '';
  let seenComma = false;
  let decimals = 0;
  for (const ch of text.replace(/\./g, ',')) {
    if (ch >= '0' && ch <= '9') {
      if (seenComma) {
        if (decimals >= 2) continue;
        decimals++;
      }
      out += ch;
    } else if (ch === ',' && !seenComma) {
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

export function numberToDecimalInput(value: number): string {
  if (!Number.isFinite(value)) return '';
  return String(value).replace('.', ',');
}
