import {
  type CustomerCsvKey,
  type CustomerData,
  type CustomerImportLine,
  type CustomerListItem,
  customerInputSchema,
} from '@balcao/core/customer';
import { isIsoDate } from '@balcao/core/date';
import { maskDocument, maskPhone } from '@balcao/core/document';
import { centsToDecimalString, parseMoneyToCents } from '@balcao/core/money';
import Papa from 'papaparse';
import { AppError } from '../../errors.ts';
import { commaDecimal, readCsvRecords } from '../../lib/csv.ts';

/** Import/export of customers as CSV (papaparse: quoting, separators, line breaks inside fields). */

const CSV_MAX_LINES = 5000;

export const EXPORT_KEYS: CustomerCsvKey[] = [
  'nome',
  'tipo',
  'documento',
  'email',
  'whatsapp',
  'nascimento',
  'limite_credito',
  'ativo',
  'observacoes',
  'cep',
  'logradouro',
  'numero',
  'complemento',
  'bairro',
  'cidade',
  'uf',
  'inadimplente',
  'whatsapp_valido',
];

/** Header aliases people type in spreadsheets, normalized (lower case, no accents, "_" separators). */
const ALIASES: Record<string, CustomerCsvKey> = {
  nome: 'nome',
  nome_completo: 'nome',
  razao_social: 'nome',
  cliente: 'nome',
  tipo: 'tipo',
  tipo_pf_ou_pj: 'tipo',
  tipo_pessoa: 'tipo',
  pessoa: 'tipo',
  documento: 'documento',
  cpf: 'documento',
  cnpj: 'documento',
  cpf_cnpj: 'documento',
  email: 'email',
  e_mail: 'email',
  whatsapp: 'whatsapp',
  telefone: 'whatsapp',
  celular: 'whatsapp',
  fone: 'whatsapp',
  nascimento: 'nascimento',
  nascimento_dd_mm_aaaa: 'nascimento',
  data_nascimento: 'nascimento',
  data_de_nascimento: 'nascimento',
  limite_credito: 'limite_credito',
  limite_de_credito: 'limite_credito',
  limite_de_credito_r: 'limite_credito',
  limite: 'limite_credito',
  ativo: 'ativo',
  ativo_sim_nao: 'ativo',
  observacoes: 'observacoes',
  observacao: 'observacoes',
  obs: 'observacoes',
  cep: 'cep',
  logradouro: 'logradouro',
  rua: 'logradouro',
  endereco: 'logradouro',
  numero: 'numero',
  complemento: 'complemento',
  bairro: 'bairro',
  cidade: 'cidade',
  municipio: 'cidade',
  uf: 'uf',
  estado: 'uf',
  inadimplente: 'inadimplente',
  whatsapp_valido: 'whatsapp_valido',
};

const FIELD_LABELS: Record<string, string> = {
  name: 'Nome',
  personType: 'Tipo',
  document: 'CPF/CNPJ',
  email: 'Email',
  phone: 'WhatsApp',
  birthDate: 'Nascimento',
  creditLimitCents: 'Limite de crédito',
  active: 'Ativo',
  notes: 'Observações',
  zipCode: 'CEP',
  street: 'Logradouro',
  number: 'Número',
  complement: 'Complemento',
  neighborhood: 'Bairro',
  city: 'Cidade',
  state: 'UF',
};

function normalizeHeader(header: string): string {
  return header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Undo the "'" a spreadsheet-safe export puts before =, +, -, @ (formula injection guard). */
function unescapeFormula(value: string): string {
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

function parseDateBr(text: string): string | null | 'invalid' {
  const t = text.trim();
  if (!t) return null;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  const iso = m ? `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}` : t;
  return isIsoDate(iso) ? iso : 'invalid';
}

function parseYesNo(text: string): boolean | 'invalid' {
  const t = normalizeHeader(text);
  if (t === '' || ['sim', 's', 'true', '1', 'ativo', 'yes', 'x'].includes(t)) return true;
  if (['nao', 'n', 'false', '0', 'inativo', 'no'].includes(t)) return false;
  return 'invalid';
}

function parsePersonType(text: string, document: string): 'person' | 'company' | 'invalid' {
  const t = normalizeHeader(text);
  if (t === '') return document.replace(/[^0-9a-zA-Z]/g, '').length === 14 ? 'company' : 'person';
  if (['pf', 'f', 'fisica', 'pessoa_fisica', 'person', 'cpf'].includes(t)) return 'person';
  if (['pj', 'j', 'juridica', 'pessoa_juridica', 'company', 'empresa', 'cnpj'].includes(t)) return 'company';
  return 'invalid';
}

/** "1.234,56", "1234,56", "1234.56", "R$ 50" -> cents. */
function parseMoney(text: string): number | 'invalid' {
  const t = commaDecimal(text.trim().replace(/^R\$\s*/i, ''));
  if (t === '') return 0;
  if (t === null) return 'invalid';
  const cents = parseMoneyToCents(t);
  return Number.isNaN(cents) ? 'invalid' : cents;
}

type ParsedLine = CustomerImportLine & { data: CustomerData | null };

/** Reads the CSV into one result per data line: the customer to create, or Portuguese errors. */
export function parseCustomerCsv(text: string): ParsedLine[] {
  const records = readCsvRecords(text);
  const header = records.header?.map((h) => ALIASES[normalizeHeader(h)] ?? null) ?? null;
  const rows = records.rows.map(({ line, cells, quoteError }) => ({
    line,
    cells,
    quoteError,
    tooMany: header !== null && cells.length > header.length,
  }));
  if (!header) throw new AppError(400, 'O arquivo está vazio');
  const keys = header as (CustomerCsvKey | null)[];
  if (!keys.includes('nome')) {
    throw new AppError(400, 'Coluna obrigatória ausente: nome. A primeira linha deve ser o cabeçalho.');
  }
  if (rows.length === 0) throw new AppError(400, 'O arquivo não tem linhas de clientes');
  if (rows.length > CSV_MAX_LINES) {
    throw new AppError(400, `Importe no máximo ${CSV_MAX_LINES} clientes por arquivo`);
  }

  return rows.map(({ cells, line, tooMany, quoteError }) => {
    const record: Partial<Record<CustomerCsvKey, string>> = {};
    keys.forEach((key, i) => {
      if (key && record[key] === undefined) record[key] = unescapeFormula((cells[i] ?? '').trim());
    });
    const get = (key: CustomerCsvKey) => record[key] ?? '';
    const errors: string[] = [];
    if (tooMany) errors.push('A linha tem mais colunas que o cabeçalho');
    if (quoteError) errors.push('Aspas não fechadas nesta linha');

    const personType = parsePersonType(get('tipo'), get('documento'));
    if (personType === 'invalid') errors.push('Tipo: use PF ou PJ');
    const birthDate = parseDateBr(get('nascimento'));
    if (birthDate === 'invalid') errors.push('Nascimento: data inválida (use dd/mm/aaaa)');
    const creditLimitCents = parseMoney(get('limite_credito'));
    if (creditLimitCents === 'invalid') errors.push('Limite de crédito: valor inválido (ex.: 1.500,00)');
    const active = parseYesNo(get('ativo'));
    if (active === 'invalid') errors.push('Ativo: use sim ou não');

    const addressKeys: CustomerCsvKey[] = [
      'cep',
      'logradouro',
      'numero',
      'complemento',
      'bairro',
      'cidade',
      'uf',
    ];
    const hasAddress = addressKeys.some((k) => get(k) !== '');
    const input = {
      personType: personType === 'invalid' ? undefined : personType,
      name: get('nome'),
      document: get('documento'),
      email: get('email'),
      phone: get('whatsapp'),
      birthDate: birthDate === 'invalid' ? null : birthDate,
      notes: get('observacoes'),
      creditLimitCents: creditLimitCents === 'invalid' ? 0 : creditLimitCents,
      active: active === 'invalid' ? true : active,
      addresses: hasAddress
        ? [
            {
              zipCode: get('cep'),
              street: get('logradouro'),
              number: get('numero') || 'S/N',
              complement: get('complemento'),
              neighborhood: get('bairro'),
              city: get('cidade'),
              state: get('uf'),
              isDefault: true,
            },
          ]
        : [],
    };
    const parsed = customerInputSchema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[issue.path.length - 1] ?? '');
        const label = FIELD_LABELS[field] ?? field;
        const prefix = issue.path[0] === 'addresses' ? `Endereço, ${label}` : label;
        errors.push(prefix ? `${prefix}: ${issue.message}` : issue.message);
      }
    }
    return {
      line,
      name: get('nome'),
      document: parsed.success ? parsed.data.document : get('documento') || null,
      errors,
      data: parsed.success && errors.length === 0 ? parsed.data : null,
    };
  });
}

const yesNo = (v: boolean) => (v ? 'sim' : 'não');

function formatDate(iso: string | null): string {
  if (!iso) return '';
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
}

export const CUSTOMER_CSV_UNPARSE = { delimiter: ';', escapeFormulae: true, newline: '\r\n' } as const;

/**
 * The customers CSV for `sendCsvStream`: the BOM and the column names, then the lines batch by batch.
 * An empty list keeps the blank line after the header that the whole-file export had.
 */
export async function customersCsv(customers: AsyncIterable<CustomerListItem>) {
  const iterator = customers[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* rows() {
    for (let next = first; !next.done; next = await iterator.next()) yield next.value;
  }
  const header = `\uFEFF${EXPORT_KEYS.join(';')}\r\n${first.done ? '\r\n' : ''}`;
  return { header, rows: rows(), lines: customersCsvLines };
}

/**
 * The lines of a batch of customers (after the header of `customersCsv`): ";" separated, decimal comma,
 * each line ended by CRLF; nothing for an empty batch.
 */
export function customersCsvLines(items: CustomerListItem[]): string {
  if (items.length === 0) return '';
  return `${Papa.unparse(items.map(customerCsvRow), CUSTOMER_CSV_UNPARSE)}\r\n`;
}

/** One customer's cells, in the export's column order. */
export function customerCsvRow(c: CustomerListItem): string[] {
  const a = c.defaultAddress;
  const row: Record<CustomerCsvKey, string> = {
    nome: c.name,
    tipo: c.personType === 'company' ? 'PJ' : 'PF',
    documento: c.document ? maskDocument(c.document) : '',
    email: c.email ?? '',
    whatsapp: c.phone ? maskPhone(c.phone) : '',
    nascimento: formatDate(c.birthDate),
    limite_credito: centsToDecimalString(c.creditLimitCents).replace('.', ','),
    ativo: yesNo(c.active),
    observacoes: c.notes ?? '',
    cep: a ? `${a.zipCode.slice(0, 5)}-${a.zipCode.slice(5)}` : '',
    logradouro: a?.street ?? '',
    numero: a?.number ?? '',
    complemento: a?.complement ?? '',
    bairro: a?.neighborhood ?? '',
    cidade: a?.city ?? '',
    uf: a?.state ?? '',
    inadimplente: yesNo(c.isDelinquent),
    whatsapp_valido: c.whatsappValid === null ? '' : yesNo(c.whatsappValid),
  };
  return EXPORT_KEYS.map((k) => row[k]);
}
