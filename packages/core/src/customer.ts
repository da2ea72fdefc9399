import { cepSchema, stateSchema } from './cep.ts';
import { isValidCnpj, isValidCpf, isValidPhone, normalizeDocument, normalizePhone } from './document.ts';
import { personNameSchema } from './fields.ts';
import { booleanFilter, listQuerySchema } from './list.ts';
import { timestampFields } from './responses.ts';
import { REQUIRED, z } from './zod.ts';

/** Customers (issue 5): a person (CPF) or a company (CNPJ), their addresses and crediário limit. */

export const PERSON_TYPES = ['person', 'company'] as const;
export type PersonType = (typeof PERSON_TYPES)[number];
export const PERSON_TYPE_LABELS: Record<PersonType, string> = {
  person: 'Pessoa física',
  company: 'Pessoa jurídica',
};

export const CPF_INVALID = 'CPF inválido';
export const CNPJ_INVALID = 'CNPJ inválido';
export const PHONE_INVALID = 'Número de WhatsApp inválido: use DDD + número, ex. (11) 98765-4321';
export const DOCUMENT_TAKEN = 'Já existe um cliente com este CPF/CNPJ';
export const ONE_DEFAULT_ADDRESS = 'Marque apenas um endereço como principal';
export const CUSTOMER_NOT_FOUND = 'Cliente não encontrado';

/** Empty text (after trim) becomes null: optional fields are null in the database, never "". */
const emptyToNull = (v: string | null | undefined) => {
  const t = (v ?? '').trim();
  return t === '' ? null : t;
};

const optionalText = (max: number) =>
  z
    .string()
    .max(max, `Use no máximo ${max} caracteres`)
    .nullish()
    .transform((v) => emptyToNull(v));

const requiredText = (max: number) =>
  z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(max, `Use no máximo ${max} caracteres`);

function isRealIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

export const addressInputSchema = z.object({
  /** Present when editing an address that already exists. */
  id: z.number().int().positive().optional(),
  /** "Casa", "Trabalho"... */
  label: optionalText(40),
  zipCode: cepSchema,
  street: requiredText(200),
  number: requiredText(20),
  complement: optionalText(100),
  neighborhood: requiredText(100),
  city: requiredText(100),
  state: stateSchema,
  isDefault: z.boolean().default(false),
});
export type AddressData = z.output<typeof addressInputSchema>;

/** One tag: trimmed, inner spaces collapsed, 1 to 30 characters. */
const customerTagSchema = z
  .string({ message: REQUIRED })
  .transform((v) => v.trim().replace(/\s+/g, ' '))
  .pipe(z.string().min(1, REQUIRED).max(30, 'Use no máximo 30 caracteres por etiqueta'));

/** A customer's tags: at most 20, duplicates (ignoring case) dropped, first spelling kept. */
export const customerTagsSchema = z
  .array(customerTagSchema)
  .max(20, 'Use no máximo 20 etiquetas')
  .transform((tags) =>
    tags.filter((t, i) => tags.findIndex((u) => u.toLowerCase() === t.toLowerCase()) === i),
  );

const customerFields = {
  personType: z.enum(PERSON_TYPES, { message: 'Selecione o tipo de pessoa' }).default('person'),
  name: personNameSchema,
  /** CPF (person) or CNPJ (company, alphanumeric too), optional; stored normalized. */
  document: z
    .string()
    .nullish()
    .transform((v) => {
      const t = emptyToNull(v);
      return t === null ? null : normalizeDocument(t);
    }),
  email: z
    .string()
    .max(254, 'Email muito longo')
    .nullish()
    .transform((v) => emptyToNull(v)?.toLowerCase() ?? null)
    .refine((v) => v === null || z.email().safeParse(v).success, 'Email inválido'),
  /** WhatsApp number, stored as 55 + DDD + number. */
  phone: z
    .string()
    .nullish()
    .transform((v) => emptyToNull(v))
    .refine((v) => v === null || isValidPhone(v), PHONE_INVALID)
    .transform((v) => (v === null ? null : normalizePhone(v))),
  /** YYYY-MM-DD; for a company, its foundation date. */
  birthDate: z
    .string()
    .nullish()
    .transform((v) => emptyToNull(v))
    .refine((v) => v === null || isRealIsoDate(v), 'Data inválida')
    .refine(
      (v) => v === null || (v >= '1900-01-01' && v <= new Date().toISOString().slice(0, 10)),
      'A data não pode ser futura nem anterior a 1900',
    ),
  notes: optionalText(2000),
  /** Crediário limit in cents; 0 = no credit. */
  creditLimitCents: z
    .number({ message: 'Limite de crédito inválido' })
    .int('Limite de crédito inválido')
    .min(0, 'O limite de crédito não pode ser negativo')
    .max(100_000_000_00, 'Limite de crédito muito alto')
    .default(0),
  active: z.boolean().default(true),
  addresses: z.array(addressInputSchema).max(20, 'Cadastre no máximo 20 endereços').default([]),
  /** Segments/tags (issue 19: campaign audiences). Absent on an edit = unchanged. */
  tags: customerTagsSchema.optional(),
};

type CustomerShape = {
  personType: PersonType;
  document: string | null;
  addresses: { isDefault: boolean }[];
};

/** Rules across fields: the document matches the person type; at most one default address. */
function checkCustomer(value: CustomerShape, ctx: z.RefinementCtx) {
  if (value.document !== null) {
    if (value.personType === 'person' && !isValidCpf(value.document)) {
      ctx.addIssue({ code: 'custom', path: ['document'], message: CPF_INVALID });
    }
    if (value.personType === 'company' && !isValidCnpj(value.document)) {
      ctx.addIssue({ code: 'custom', path: ['document'], message: CNPJ_INVALID });
    }
  }
  if (value.addresses.filter((a) => a.isDefault).length > 1) {
    ctx.addIssue({ code: 'custom', path: ['addresses'], message: ONE_DEFAULT_ADDRESS });
  }
}

/** Exactly one default address when there is any: with none marked, the first one is the default. */
function withOneDefault<T extends { addresses: AddressData[] }>(value: T): T {
  if (value.addresses.length === 0 || value.addresses.some((a) => a.isDefault)) return value;
  return { ...value, addresses: value.addresses.map((a, i) => ({ ...a, isDefault: i === 0 })) };
}

export const customerInputSchema = z
  .object(customerFields)
  .superRefine(checkCustomer)
  .transform(withOneDefault);
export type CustomerInput = z.input<typeof customerInputSchema>;
export type CustomerData = z.output<typeof customerInputSchema>;

/** An edit carries the `updatedAt` it was based on: a stale edit is refused (409). */
export const customerUpdateSchema = z
  .object({ ...customerFields, updatedAt: z.string({ message: REQUIRED }).min(1, REQUIRED) })
  .superRefine(checkCustomer)
  .transform(withOneDefault);

/** Filters of the customer list; `whatsappValid=unknown` lists numbers never checked. */
export const customerListQuerySchema = listQuerySchema.extend({
  delinquent: booleanFilter,
  active: booleanFilter,
  whatsappValid: z.enum(['true', 'false', 'unknown'], { message: 'Filtro de WhatsApp inválido' }).optional(),
  personType: z.enum(PERSON_TYPES, { message: 'Tipo de pessoa inválido' }).optional(),
  /** Customers carrying this tag (case-insensitive). */
  tag: z.string().trim().max(30).optional(),
});
export type CustomerListQuery = z.input<typeof customerListQuerySchema>;

export const customerAddressSchema = z.object({
  id: z.number(),
  customerId: z.number(),
  label: z.string().nullable(),
  zipCode: z.string(),
  street: z.string(),
  number: z.string(),
  complement: z.string().nullable(),
  neighborhood: z.string(),
  city: z.string(),
  state: z.string(),
  isDefault: z.boolean(),
});
export type CustomerAddress = z.infer<typeof customerAddressSchema>;

/** An address as stored, the answer of adding or editing one address (dates serialized as ISO text). */
export const addressRecordSchema = customerAddressSchema.extend({
  clientId: z.number(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

export const customerSchema = z.object({
  id: z.number(),
  clientId: z.number(),
  personType: z.enum(PERSON_TYPES),
  name: z.string(),
  document: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  birthDate: z.string().nullable(),
  notes: z.string().nullable(),
  creditLimitCents: z.number(),
  active: z.boolean(),
  /** null: not checked yet (or the WhatsApp service could not answer). */
  whatsappValid: z.boolean().nullable(),
  whatsappCheckedAt: z.string().nullable(),
  tags: z.array(z.string()),
  /** A pending crediário receivable of theirs is past its due date. */
  isDelinquent: z.boolean(),
  ...timestampFields,
});
export type Customer = z.infer<typeof customerSchema>;

export const customerListItemSchema = customerSchema.extend({
  defaultAddress: customerAddressSchema.nullable(),
});
export type CustomerListItem = z.infer<typeof customerListItemSchema>;

export const customerDetailSchema = customerSchema.extend({
  addresses: z.array(customerAddressSchema),
  /** Sum of pending receivables and of those overdue (crediário). */
  pendingCents: z.number(),
  overdueCents: z.number(),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

export const customerCountersSchema = z.object({
  userIsDelinquent: z.number(),
  userNotIsDelinquent: z.number(),
  userValidWhatsAppNumber: z.number(),
  userNotValidWhatsAppNumber: z.number(),
});
export type CustomerCounters = z.infer<typeof customerCountersSchema>;

/**
 * CSV columns (export writes them all; import reads the ones marked `importable`).
 * Separator ";" and decimal comma so Excel in pt-BR opens the file as a table.
 */
export const CUSTOMER_CSV_COLUMNS = [
  { key: 'nome', label: 'Nome', importable: true, required: true },
  { key: 'tipo', label: 'Tipo (PF ou PJ)', importable: true, required: false },
  { key: 'documento', label: 'CPF/CNPJ', importable: true, required: false },
  { key: 'email', label: 'Email', importable: true, required: false },
  { key: 'whatsapp', label: 'WhatsApp', importable: true, required: false },
  { key: 'nascimento', label: 'Nascimento (dd/mm/aaaa)', importable: true, required: false },
  { key: 'limite_credito', label: 'Limite de crédito (R$)', importable: true, required: false },
  { key: 'ativo', label: 'Ativo (sim/não)', importable: true, required: false },
  { key: 'observacoes', label: 'Observações', importable: true, required: false },
  { key: 'cep', label: 'CEP', importable: true, required: false },
  { key: 'logradouro', label: 'Logradouro', importable: true, required: false },
  { key: 'numero', label: 'Número', importable: true, required: false },
  { key: 'complemento', label: 'Complemento', importable: true, required: false },
  { key: 'bairro', label: 'Bairro', importable: true, required: false },
  { key: 'cidade', label: 'Cidade', importable: true, required: false },
  { key: 'uf', label: 'UF', importable: true, required: false },
  { key: 'inadimplente', label: 'Inadimplente', importable: false, required: false },
  { key: 'whatsapp_valido', label: 'WhatsApp válido', importable: false, required: false },
] as const;
export type CustomerCsvKey = (typeof CUSTOMER_CSV_COLUMNS)[number]['key'];

export const customerImportSchema = z.object({
  /** The CSV text (UTF-8; the web decodes Windows-1252 files before sending). */
  csv: z.string({ message: REQUIRED }).min(1, 'O arquivo está vazio').max(5_000_000, 'Arquivo grande demais'),
  /** preview: validate only; commit: create the customers. */
  mode: z.enum(['preview', 'commit']).default('preview'),
  /** Commit the valid lines and skip the invalid ones (otherwise any invalid line cancels everything). */
  skipInvalid: z.boolean().default(false),
});

export const customerImportLineSchema = z.object({
  /** Line in the file (the header is line 1). */
  line: z.number(),
  name: z.string(),
  document: z.string().nullable(),
  errors: z.array(z.string()),
});
export type CustomerImportLine = z.infer<typeof customerImportLineSchema>;

export const customerImportResultSchema = z.object({
  mode: z.enum(['preview', 'commit']),
  total: z.number(),
  valid: z.number(),
  invalid: z.number(),
  /** Customers created (commit only). */
  created: z.number(),
  lines: z.array(customerImportLineSchema),
});
export type CustomerImportResult = z.infer<typeof customerImportResultSchema>;

/** The tags a shop's customers carry, with how many customers carry each (most used first). */
export const customerTagCountSchema = z.object({ tag: z.string(), count: z.number() });
export type CustomerTagCount = z.infer<typeof customerTagCountSchema>;
