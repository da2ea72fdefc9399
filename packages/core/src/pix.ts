/**
 * Pix static QR code (BR Code, "copia e cola"), INTEGRATIONS.md: EMV fields in a fixed order, each
 * written as ID (2 digits) + length (2 digits) + value, closed by a CRC-16/CCITT-FALSE over the whole
 * text including the CRC field's own "6304".
 */

/** CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, xorout 0; 4 upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  const bytes = new TextEncoder().encode(text);
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** One EMV field: id + 2-digit length + value (the value's length must be under 100). */
function field(id: string, value: string): string {
  const length = new TextEncoder().encode(value).length;
  if (length > 99) throw new Error(`Pix field ${id} too long`);
  return `${id}${String(length).padStart(2, '0')}${value}`;
}

/**
 * Text without accents and outside printable ASCII (merchant name and city in a BR Code). Any run of
 * white space (a tab, a line break pasted into the name) becomes one space first, so "Loja\tCentral"
 * reads "Loja Central", not "LojaCentral".
 */
export function pixText(text: string, max: number): string {
  return text
    .replace(/\s+/g, ' ')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/ +/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

export const PIX_NAME_MAX = 25;
export const PIX_CITY_MAX = 15;
/** The longest key the DICT issues (an e-mail); field 26 then has no room left for a description. */
export const PIX_KEY_MAX = 77;
const PIX_TXID_MAX = 25;
/** EMV values are at most 99 bytes; field 26 holds the GUI (18), the key (4 + n) and the description (4 + n). */
const EMV_VALUE_MAX = 99;
const ACCOUNT_FIXED = 18;

/**
 * The key as the BR Code carries it: trimmed, an e-mail key in lower case (the DICT stores e-mails in
 * lower case; a bank app may not find "Loja@Exemplo.com.br").
 */
export function pixKeyOf(key: string): string {
  const k = key.trim();
  return k.includes('@') ? k.toLowerCase() : k;
}

type PixPayloadInput = {
  /** The Pix key: e-mail, CPF/CNPJ, phone (+55...) or random key (EVP). */
  key: string;
  merchantName: string;
  merchantCity: string;
  /** Amount in integer cents; absent or 0 lets the payer type it. */
  amountCents?: number | null;
  /** Transaction id: letters and digits, up to 25; default "***" (none). */
  txid?: string | null;
  /** Free text shown to the payer (field 26.02). */
  description?: string | null;
};

export const PIX_MESSAGES = {
  keyRequired: 'Cadastre a chave Pix nas configurações de pagamento',
  keyTooLong: `A chave Pix deve ter no máximo ${PIX_KEY_MAX} caracteres`,
  merchantRequired: 'Cadastre o nome e a cidade do recebedor Pix nas configurações de pagamento',
  amountInvalid: 'Valor do Pix inválido',
} as const;

function centsToAmount(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Why a payload cannot be built from these settings (null when it can). */
export function pixPayloadProblem(input: Partial<PixPayloadInput>): string | null {
  if (!input.key?.trim()) return PIX_MESSAGES.keyRequired;
  if (new TextEncoder().encode(pixKeyOf(input.key)).length > PIX_KEY_MAX) return PIX_MESSAGES.keyTooLong;
  if (!pixText(input.merchantName ?? '', PIX_NAME_MAX) || !pixText(input.merchantCity ?? '', PIX_CITY_MAX)) {
    return PIX_MESSAGES.merchantRequired;
  }
  const cents = input.amountCents;
  if (cents != null && (!Number.isInteger(cents) || cents < 0 || cents > 99_999_999_99)) {
    return PIX_MESSAGES.amountInvalid;
  }
  return null;
}

/** The BR Code text of a static Pix charge (what the QR encodes and the "copia e cola" button copies). */
export function buildPixPayload(input: PixPayloadInput): string {
  const problem = pixPayloadProblem(input);
  if (problem) throw new Error(problem);
  const key = pixKeyOf(input.key);
  // The description is cut to the room the key leaves in field 26 (none with a 77-character key).
  const room = EMV_VALUE_MAX - ACCOUNT_FIXED - (4 + new TextEncoder().encode(key).length) - 4;
  const description = room > 0 ? pixText(input.description ?? '', Math.min(72, room)) : '';
  const account =
    field('00', 'br.gov.bcb.pix') + field('01', key) + (description ? field('02', description) : '');
  const txid = (input.txid ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, PIX_TXID_MAX) || '***';
  const body =
    field('00', '01') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    (input.amountCents ? field('54', centsToAmount(input.amountCents)) : '') +
    field('58', 'BR') +
    field('59', pixText(input.merchantName, PIX_NAME_MAX)) +
    field('60', pixText(input.merchantCity, PIX_CITY_MAX)) +
    field('62', field('05', txid)) +
    '6304';
  return body + crc16(body);
}

/** Splits a BR Code into its top-level fields (tests and diagnostics). */
export function parsePixFields(payload: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let i = 0;
  while (i + 4 <= payload.length) {
    const id = payload.slice(i, i + 2);
    const length = Number(payload.slice(i + 2, i + 4));
    fields[id] = payload.slice(i + 4, i + 4 + length);
    i += 4 + length;
  }
  return fields;
}

/** True when the last 4 characters are the CRC of everything before them. */
export function isPixCrcValid(payload: string): boolean {
  return payload.length > 8 && crc16(payload.slice(0, -4)) === payload.slice(-4);
}
