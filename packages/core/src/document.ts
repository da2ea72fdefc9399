/** CPF and CNPJ (numeric and alphanumeric) check digits, per INTEGRATIONS.md. */

export function onlyDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/** Strips mask characters of a CPF/CNPJ and upper-cases letters (alphanumeric CNPJ). */
export function normalizeDocument(value: string): string {
  return value.replace(/[^0-9a-zA-Z]/g, '').toUpperCase();
}

export function isValidCpf(value: string): boolean {
  const cpf = normalizeDocument(value);
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digit = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(cpf[i]) * (length + 1 - i);
    const d = (sum * 10) % 11;
    return d === 10 ? 0 : d;
  };
  return digit(9) === Number(cpf[9]) && digit(10) === Number(cpf[10]);
}

const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

export function isValidCnpj(value: string): boolean {
  const cnpj = normalizeDocument(value);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const digit = (weights: number[]) => {
    let sum = 0;
    weights.forEach((w, i) => {
      sum += (cnpj.charCodeAt(i) - 48) * w;
    });
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return digit(CNPJ_WEIGHTS_1) === Number(cnpj[12]) && digit(CNPJ_WEIGHTS_2) === Number(cnpj[13]);
}

export function isValidCpfOrCnpj(value: string): boolean {
  const doc = normalizeDocument(value);
  return doc.length === 11 ? isValidCpf(doc) : isValidCnpj(doc);
}

/** Formats a CPF (000.000.000-00) or CNPJ (00.000.000/0000-00) as the user types. */
export function maskDocument(value: string): string {
  const doc = normalizeDocument(value).slice(0, 14);
  if (doc.length <= 11 && /^\d*$/.test(doc)) {
    return doc
      .replace(/^(\d{3})(\d)/, '$1.$2')
      .replace(/^(\d{3})\.(\d{3})(\d)/, '$1.$2.$3')
      .replace(/\.(\d{3})(\d{1,2})$/, '.$1-$2');
  }
  return doc
    .replace(/^(\w{2})(\w)/, '$1.$2')
    .replace(/^(\w{2})\.(\w{3})(\w)/, '$1.$2.$3')
    .replace(/\.(\w{3})(\w)/, '.$1/$2')
    .replace(/(\w{4})(\w{1,2})$/, '$1-$2');
}

/** Brazilian mobile/landline, stored as E.164 digits with the 55 country code. */
export function normalizePhone(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length === 10 || digits.length === 11) return `55${digits}`;
  return digits;
}

/** A mobile (9 + 8 digits) or a landline (8 digits starting 2-5) after a two-digit area code (DDD). */
export function isValidPhone(value: string): boolean {
  return /^55[1-9]{2}(?:9\d{8}|[2-5]\d{7})$/.test(normalizePhone(value));
}

export function maskPhone(value: string): string {
  let digits = onlyDigits(value);
  if (digits.startsWith('55') && digits.length > 11) digits = digits.slice(2);
  digits = digits.slice(0, 11);
  if (digits.length <= 2) return digits ? `(${digits}` : '';
  if (digits.length <= 6) return `(${digits.slice(0, 2)}) ${digits.slice(2)}`;
  if (digits.length <= 10) return `(${digits.slice(0, 2)}) ${digits.slice(2, 6)}-${digits.slice(6)}`;
  return `(${digits.slice(0, 2)}) ${digits.slice(2, 7)}-${digits.slice(7)}`;
}
