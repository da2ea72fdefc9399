import { parseBoleto } from './boleto.ts';
import { CASH_FLOW_METHODS } from './cashFlowMethods.ts';
import type { Upload } from './contract.ts';
import { addDays, isIsoDate } from './date.ts';
import { isValidCpfOrCnpj, normalizeDocument } from './document.ts';
import { optionalText, personNameSchema } from './fields.ts';
import { listQuerySchema } from './list.ts';
import { timestampFields } from './responses.ts';
import { DEFAULT_TIME_ZONE, dateIn } from './time.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * Contas a pagar (issue 34): suppliers, the shop's expense categories grouped into DRE groups, payables
 * (one, N instalments of a purchase, or a monthly recurrence) and their payments.
 */

export const DRE_GROUPS = ['cmv', 'operating', 'personnel', 'taxes', 'financial', 'other'] as const;
export type DreGroup = (typeof DRE_GROUPS)[number];
export const DRE_GROUP_LABELS: Record<DreGroup, string> = {
  cmv: 'CMV / compras',
  operating: 'Despesas operacionais',
  personnel: 'Pessoal',
  taxes: 'Impostos',
  financial: 'Financeiras',
  other: 'Outras',
};

/** The categories a shop starts with (created on its first use of the payables). */
export const DEFAULT_PAYABLE_CATEGORIES: readonly { name: string; group: DreGroup }[] = [
  { name: 'Compra de mercadorias', group: 'cmv' },
  { name: 'Aluguel', group: 'operating' },
  { name: 'Energia elétrica', group: 'operating' },
  { name: 'Água', group: 'operating' },
  { name: 'Internet e telefone', group: 'operating' },
  { name: 'Manutenção', group: 'operating' },
  { name: 'Salários', group: 'personnel' },
  { name: 'Encargos e benefícios', group: 'personnel' },
  { name: 'Simples Nacional (DAS)', group: 'taxes' },
  { name: 'Tarifas bancárias', group: 'financial' },
  { name: 'Juros e multas', group: 'financial' },
  { name: 'Outras despesas', group: 'other' },
];

export const PAYABLE_MESSAGES = {
  supplierNotFound: 'Fornecedor não encontrado',
  categoryNotFound: 'Categoria não encontrada',
  payableNotFound: 'Conta a pagar não encontrada',
  paymentNotFound: 'Pagamento não encontrado',
  document: 'CPF ou CNPJ inválido',
  documentTaken: 'Já existe um fornecedor com este CPF/CNPJ',
  categoryTaken: 'Já existe uma categoria com este nome',
  categoryArchived: 'Esta categoria está arquivada: escolha outra para contas novas',
  bankAccountNotFound: 'Conta bancária não encontrada',
  bankAccountTaken: 'Já existe uma conta bancária com este nome',
  bankAccountInactive: 'Esta conta bancária está desativada: escolha outra',
  bankAccountNeedsBank: 'Uma conta bancária só paga com a origem "Conta bancária"',
  methodTaken: (method: string, account: string) => `${method} já cai na conta ${account}: tire de lá antes`,
  categoryInUse: 'Esta categoria tem contas a pagar: mude-as de categoria antes de excluí-la',
  supplierInUse: 'Este fornecedor tem contas a pagar: ele não pode ser excluído',
  description: 'Informe a descrição',
  amountPositive: 'O valor deve ser maior que zero',
  amountMax: 'O valor deve ser no máximo R$ 10.000.000,00',
  dueDate: 'Informe a data de vencimento',
  invalidDate: 'Data inválida',
  month: 'Informe o mês de competência (AAAA-MM)',
  installments: 'Informe de 1 a 60 parcelas',
  occurrences: 'Informe de 2 a 60 meses',
  installmentsAndRecurrence: 'Uma conta parcelada não pode ser também recorrente',
  alreadyPaid: 'Esta conta já está paga',
  paidLocked: 'Uma conta paga não pode ser alterada: estorne o pagamento antes',
  payMoreThanOpen: (open: string) => `O valor pago é maior que o saldo em aberto (${open})`,
  discountTooHigh: 'O desconto não pode ser maior que o valor pago',
  registerNeedsMoney: 'Pagamento pelo caixa só em dinheiro',
  registerClosed: 'Abra o caixa para pagar por ele',
  alreadyReversed: 'Este pagamento já foi estornado',
  attachmentNotFound: 'Anexo não encontrado',
  tooManyAttachments: `Uma conta guarda no máximo 10 anexos: exclua um antes de anexar outro`,
  registerClosedReverse:
    'O caixa deste pagamento já foi fechado: o estorno não pode voltar ao caixa. Registre um suprimento se o dinheiro voltou.',
} as const;

const MAX_AMOUNT_CENTS = 1_000_000_000;

const isoDate = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .refine((v) => isIsoDate(v), PAYABLE_MESSAGES.invalidDate);

const cents = z
  .number({ error: REQUIRED })
  .int('Informe um valor em centavos')
  .min(1, PAYABLE_MESSAGES.amountPositive)
  .max(MAX_AMOUNT_CENTS, PAYABLE_MESSAGES.amountMax);
const centsOrZero = z.number().int('Informe um valor em centavos').min(0).max(MAX_AMOUNT_CENTS).default(0);

// ---------------------------------------------------------------------------------------------------
// Suppliers

export const supplierInputSchema = z.object({
  name: personNameSchema,
  document: z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? normalizeDocument(v) : null))
    .refine((v) => v === null || isValidCpfOrCnpj(v), PAYABLE_MESSAGES.document),
  contactName: optionalText(120),
  phone: optionalText(30),
  email: optionalText(200).refine(
    (v) => v === null || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v),
    'E-mail inválido',
  ),
  pixKey: optionalText(77),
  notes: optionalText(1000),
  updatedAt: z.string().optional(),
});
export type SupplierInput = z.output<typeof supplierInputSchema>;
export type SupplierFormValues = z.input<typeof supplierInputSchema>;

export const supplierSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  document: z.string().nullable(),
  contactName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  pixKey: z.string().nullable(),
  notes: z.string().nullable(),
  ...timestampFields,
});
export type Supplier = z.infer<typeof supplierSchema>;

// ---------------------------------------------------------------------------------------------------
// Categories

export const payableCategoryInputSchema = z.object({
  name: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(80, 'Use no máximo 80 caracteres'),
  group: z.enum(DRE_GROUPS, { error: 'Escolha o grupo do DRE' }),
});
export type PayableCategoryInput = z.output<typeof payableCategoryInputSchema>;

export const payableCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  group: z.enum(DRE_GROUPS),
});
export type PayableCategory = z.infer<typeof payableCategorySchema>;

/** A category as its screen and the pickers read it: an archived one is not offered for new bills. */
export const payableCategoryItemSchema = payableCategorySchema.extend({ archived: z.boolean() });
export type PayableCategoryItem = z.infer<typeof payableCategoryItemSchema>;

/** Renaming, moving to another DRE group, archiving or bringing back (PUT /payable/category/:id). */
export const payableCategoryUpdateSchema = payableCategoryInputSchema.extend({
  archived: z.boolean().default(false),
});
export type PayableCategoryUpdate = z.output<typeof payableCategoryUpdateSchema>;

/** The categories offered for a bill: the active ones, plus the bill's own when it was archived since. */
export function categoriesOffered<T extends { id: number; archived: boolean }>(
  categories: readonly T[],
  currentId?: number | null,
): T[] {
  return categories.filter((c) => !c.archived || c.id === currentId);
}

// ---------------------------------------------------------------------------------------------------
// Bank accounts (issue 34): where a payment left from, when not the till

export const bankAccountInputSchema = z.object({
  name: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(60, 'Use no máximo 60 caracteres'),
  bank: optionalText(60),
  agency: optionalText(20),
  account: optionalText(30),
  active: z.boolean().default(true),
  /**
   * The sales that land in this account (Pix, cards, vouchers... as the cash flow groups them): its cash
   * flow counts them on their settlement day. A method lands in one active account at most.
   */
  receives: z
    .array(z.enum(CASH_FLOW_METHODS, { error: 'Forma de recebimento inválida' }))
    .max(CASH_FLOW_METHODS.length)
    .default([])
    .refine((list) => !list.includes('money'), 'O dinheiro fica no caixa: ele não cai numa conta bancária')
    .transform((list) => CASH_FLOW_METHODS.filter((m) => list.includes(m))),
});
export type BankAccountInput = z.output<typeof bankAccountInputSchema>;
export type BankAccountFormValues = z.input<typeof bankAccountInputSchema>;

export const bankAccountSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  bank: z.string().nullable(),
  agency: z.string().nullable(),
  account: z.string().nullable(),
  active: z.boolean(),
  receives: z.array(z.enum(CASH_FLOW_METHODS)),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

/** "Itaú (ag. 1234, c/c 5678-9)": the account's name with what identifies it at the bank. */
export function bankAccountLabel(a: Pick<BankAccount, 'name' | 'agency' | 'account'>): string {
  const parts = [a.agency ? `ag. ${a.agency}` : null, a.account ? `c/c ${a.account}` : null].filter(Boolean);
  return parts.length ? `${a.name} (${parts.join(', ')})` : a.name;
}

// ---------------------------------------------------------------------------------------------------
// Payables

export const EDIT_SCOPES = ['this', 'following', 'all'] as const;
export type EditScope = (typeof EDIT_SCOPES)[number];
export const EDIT_SCOPE_LABELS: Record<EditScope, string> = {
  this: 'Só esta',
  following: 'Esta e as seguintes',
  all: 'Todas',
};

export const SERIES_KINDS = ['installments', 'recurrence'] as const;
export type SeriesKind = (typeof SERIES_KINDS)[number];

/** The boleto's digits as stored (its linha), or null; a typo says which check digit failed. */
const boletoField = z
  .string()
  .trim()
  .nullish()
  .transform((value, ctx) => {
    if (!value) return null;
    const read = parseBoleto(value, dateIn(DEFAULT_TIME_ZONE));
    if (!read.ok) {
      ctx.addIssue({ code: 'custom', message: read.message });
      return z.NEVER;
    }
    return read.boleto.line;
  });

const payableFields = {
  supplierId: z
    .number()
    .int()
    .positive()
    .nullish()
    .transform((v) => v ?? null),
  categoryId: z.number({ error: 'Escolha a categoria' }).int().positive('Escolha a categoria'),
  description: z
    .string({ error: PAYABLE_MESSAGES.description })
    .trim()
    .min(1, PAYABLE_MESSAGES.description)
    .max(200, 'Use no máximo 200 caracteres'),
  amountCents: cents,
  dueDate: isoDate(PAYABLE_MESSAGES.dueDate),
  /** YYYY-MM; the due date's month when absent. */
  competenceMonth: z
    .string()
    .trim()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, PAYABLE_MESSAGES.month)
    .nullish()
    .transform((v) => v ?? null),
  documentNumber: optionalText(60),
  notes: optionalText(1000),
  boletoLine: boletoField,
};

export const payableInputSchema = z
  .object({
    ...payableFields,
    /** N payables from one purchase: the amount split (the cents left over go to the first). */
    installments: z
      .number()
      .int()
      .min(1, PAYABLE_MESSAGES.installments)
      .max(60, PAYABLE_MESSAGES.installments)
      .default(1),
    /** A monthly recurrence: `occurrences` payables of the same amount, one a month. */
    recurrence: z.enum(['none', 'monthly']).default('none'),
    occurrences: z
      .number()
      .int()
      .min(2, PAYABLE_MESSAGES.occurrences)
      .max(60, PAYABLE_MESSAGES.occurrences)
      .default(12),
  })
  .superRefine((v, ctx) => {
    if (v.installments > 1 && v.recurrence !== 'none')
      ctx.addIssue({
        code: 'custom',
        path: ['recurrence'],
        message: PAYABLE_MESSAGES.installmentsAndRecurrence,
      });
  });
export type PayableInput = z.output<typeof payableInputSchema>;
export type PayableFormValues = z.input<typeof payableInputSchema>;

export const payableUpdateSchema = z.object({
  ...payableFields,
  /** Which of its series the edit reaches (a single payable ignores it). */
  scope: z.enum(EDIT_SCOPES).default('this'),
  updatedAt: z.string({ error: 'Recarregue a conta antes de salvar' }),
});
export type PayableUpdate = z.output<typeof payableUpdateSchema>;

export const payableScopeQuerySchema = z.object({ scope: z.enum(EDIT_SCOPES).default('this') });

export const PAYABLE_STATUSES = ['open', 'partial', 'paid'] as const;
export type PayableStatus = (typeof PAYABLE_STATUSES)[number];
export const PAYABLE_STATUS_LABELS: Record<PayableStatus | 'overdue', string> = {
  open: 'Em aberto',
  partial: 'Pago em parte',
  paid: 'Pago',
  overdue: 'Vencida',
};

export const PAY_METHODS = ['money', 'pix', 'boleto', 'transfer', 'debitCard', 'creditCard'] as const;
export type PayMethod = (typeof PAY_METHODS)[number];
export const PAY_METHOD_LABELS: Record<PayMethod, string> = {
  money: 'Dinheiro',
  pix: 'Pix',
  boleto: 'Boleto',
  transfer: 'Transferência',
  debitCard: 'Cartão de débito',
  creditCard: 'Cartão de crédito',
};
export const PAY_SOURCES = ['register', 'bank'] as const;
export type PaySource = (typeof PAY_SOURCES)[number];
export const PAY_SOURCE_LABELS: Record<PaySource, string> = {
  register: 'Caixa aberto (dinheiro da gaveta)',
  bank: 'Conta bancária',
};

export const payablePaymentSchema = z.object({
  id: z.number().int(),
  paidOn: z.string(),
  amountCents: z.number().int(),
  discountCents: z.number().int(),
  interestCents: z.number().int(),
  fineCents: z.number().int(),
  /** What left the account: amount - discount + interest + fine. */
  totalCents: z.number().int(),
  method: z.enum(PAY_METHODS),
  source: z.enum(PAY_SOURCES),
  cashRegisterId: z.number().int().nullable(),
  /** The shop's bank account the money left from (null: the till, or an account not named). */
  bankAccount: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  reversedAt: z.string().nullable(),
  user: z.object({ id: z.number().int(), name: z.string() }),
  createdAt: z.string(),
});
export type PayablePayment = z.infer<typeof payablePaymentSchema>;

/** A file kept with a payable (PDF, JPEG, PNG or WebP), downloaded through GET .../attachment/:id. */
export const payableAttachmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  createdAt: z.string(),
});
export type PayableAttachment = z.infer<typeof payableAttachmentSchema>;

/** The attachment upload (multipart field "file"): what the route takes and its Portuguese refusals. */
export const PAYABLE_ATTACHMENT_UPLOAD = {
  maxBytes: 5 * 1024 * 1024,
  tooLarge: 'O anexo deve ter no máximo 5 MB',
  notSupported: 'Formato não suportado: anexe um PDF ou uma imagem JPEG, PNG ou WebP',
  pdf: true,
} as const satisfies Upload;

/** How many files one payable keeps. */
export const MAX_PAYABLE_ATTACHMENTS = 10;

export const payableSchema = z.object({
  id: z.number().int(),
  supplier: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  category: payableCategorySchema,
  description: z.string(),
  amountCents: z.number().int(),
  paidCents: z.number().int(),
  openCents: z.number().int(),
  dueDate: z.string(),
  competenceMonth: z.string(),
  documentNumber: z.string().nullable(),
  notes: z.string().nullable(),
  boletoLine: z.string().nullable(),
  /** Files kept with the bill (a boleto's PDF, a photo of the invoice), oldest first. */
  attachments: z.array(payableAttachmentSchema),
  status: z.enum(PAYABLE_STATUSES),
  overdue: z.boolean(),
  lastPaidOn: z.string().nullable(),
  /** Where its live payments left from: "Caixa", the bank accounts' names, "Conta bancária" (not named). */
  paidFrom: z.string().nullable(),
  series: z
    .object({
      id: z.number().int(),
      kind: z.enum(SERIES_KINDS),
      index: z.number().int(),
      count: z.number().int(),
    })
    .nullable(),
  payments: z.array(payablePaymentSchema),
  ...timestampFields,
});
export type Payable = z.infer<typeof payableSchema>;

export const payableCreatedSchema = z.object({ items: z.array(payableSchema) });

export const PAYABLE_LIST_STATUSES = ['all', 'open', 'overdue', 'paid'] as const;
export const payableListQuerySchema = listQuerySchema.extend({
  status: z.enum(PAYABLE_LIST_STATUSES, { error: 'Situação inválida' }).default('all'),
  /** The period filters the due date, or the payment date. */
  dateField: z.enum(['due', 'paid']).default('due'),
  from: z.string().refine(isIsoDate, PAYABLE_MESSAGES.invalidDate).optional(),
  to: z.string().refine(isIsoDate, PAYABLE_MESSAGES.invalidDate).optional(),
  supplierId: z.coerce.number().int().positive().optional(),
  categoryId: z.coerce.number().int().positive().optional(),
});
export type PayableListQuery = z.output<typeof payableListQuerySchema>;

export const payableListSchema = z.object({
  items: z.array(payableSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  /** Totals of everything the filters match (not only the page). */
  totals: z.object({
    amountCents: z.number(),
    paidCents: z.number(),
    openCents: z.number(),
    overdueCents: z.number(),
  }),
});
export type PayableList = z.infer<typeof payableListSchema>;

export const payInputSchema = z
  .object({
    paidOn: isoDate('Informe a data do pagamento'),
    /** The part of the bill this payment settles (the open balance for a full payment). */
    amountCents: cents,
    discountCents: centsOrZero,
    interestCents: centsOrZero,
    fineCents: centsOrZero,
    method: z.enum(PAY_METHODS, { error: 'Escolha a forma de pagamento' }),
    source: z.enum(PAY_SOURCES, { error: 'Escolha de onde saiu o dinheiro' }),
    /** Which of the shop's bank accounts paid (source "bank"); null: an account not named. */
    bankAccountId: z
      .number()
      .int()
      .positive()
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine((v, ctx) => {
    if (v.bankAccountId !== null && v.source !== 'bank')
      ctx.addIssue({
        code: 'custom',
        path: ['bankAccountId'],
        message: PAYABLE_MESSAGES.bankAccountNeedsBank,
      });
    if (v.discountCents > v.amountCents)
      ctx.addIssue({ code: 'custom', path: ['discountCents'], message: PAYABLE_MESSAGES.discountTooHigh });
    if (v.source === 'register' && v.method !== 'money')
      ctx.addIssue({ code: 'custom', path: ['method'], message: PAYABLE_MESSAGES.registerNeedsMoney });
  });
export type PayInput = z.output<typeof payInputSchema>;
export type PayFormValues = z.input<typeof payInputSchema>;

/** What left the account for a payment. */
export function paymentTotal(p: {
  amountCents: number;
  discountCents: number;
  interestCents: number;
  fineCents: number;
}) {
  return p.amountCents - p.discountCents + p.interestCents + p.fineCents;
}

/** The status of a payable from what its live payments settled. */
export function payableStatusOf(amountCents: number, paidCents: number): PayableStatus {
  if (paidCents >= amountCents) return 'paid';
  return paidCents > 0 ? 'partial' : 'open';
}

// ---------------------------------------------------------------------------------------------------
// Series (instalments, monthly recurrence): pure rules, tested in core

/** `count` amounts that add to `total`: equal cents, the remainder on the first. */
export function splitInstallments(totalCents: number, count: number): number[] {
  const base = Math.floor(totalCents / count);
  const rest = totalCents - base * count;
  return Array.from({ length: count }, (_, i) => (i === 0 ? base + rest : base));
}

function lastDayOf(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The date `months` months after `iso`, on the same day clamped to the month's end (31 Jan + 1 = 28/29 Feb). */
export function addMonths(iso: string, months: number, day = Number(iso.slice(8, 10))): string {
  const [y, m] = iso.split('-').map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const d = Math.min(day, lastDayOf(year, month));
  return `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** YYYY-MM of a date plus months. */
export function monthOf(iso: string, months = 0): string {
  return addMonths(`${iso.slice(0, 7)}-01`, months).slice(0, 7);
}

export type SeriesMember = { id: number; index: number; dueDate: string; paid: boolean };

/**
 * Which members of a series an edit of `edited` reaches: itself ("só esta"), itself and the later ones
 * ("esta e as seguintes") or every one ("todas"). A member already paid (or paid in part) is never
 * changed by an edit of another: its money left as it was.
 */
export function membersReached(
  members: readonly SeriesMember[],
  edited: SeriesMember,
  scope: EditScope,
): SeriesMember[] {
  if (scope === 'this') return [edited];
  return members.filter(
    (m) => m.id === edited.id || (!m.paid && (scope === 'all' || m.index > edited.index)),
  );
}

/**
 * The due date a member takes when the edited one's due date moved: its own month, the edited one's
 * new day (clamped), so "todo dia 10" becomes "todo dia 15" across the series.
 */
export function dueDateFollowing(memberDue: string, newDue: string): string {
  return addMonths(memberDue, 0, Number(newDue.slice(8, 10)));
}

/** The reference day a shop's schema reads boletos near; the API re-reads with the shop's today. */
export function payableToday(): string {
  return dateIn(DEFAULT_TIME_ZONE);
}

/** Last day of the month of a YYYY-MM. */
export function monthEnd(month: string): string {
  return addDays(`${monthOf(`${month}-01`, 1)}-01`, -1);
}

// ---------------------------------------------------------------------------------------------------
// What is due (the bell and the home)

const dueCountSchema = z.object({ count: z.number().int(), amountCents: z.number().int() });

/**
 * The shop's open payables by due date against its "today": overdue, due today, due in the next 7 days
 * (today excluded). The open balance counts (a partly paid bill owes the rest). GET /v1/payable/due
 * (the bell) and the home's card, for who sees Financeiro.
 */
export const payableDueSchema = z.object({
  overdue: dueCountSchema,
  dueToday: dueCountSchema,
  dueNextDays: dueCountSchema,
});
export type PayableDue = z.infer<typeof payableDueSchema>;

/** The bell's lines: only the kinds with bills in them. */
export function payableDueLines(due: PayableDue, money: (cents: number) => string): string[] {
  const lines: string[] = [];
  const { overdue, dueToday } = due;
  if (overdue.count > 0)
    lines.push(
      `${overdue.count} ${overdue.count === 1 ? 'conta a pagar vencida' : 'contas a pagar vencidas'} (${money(overdue.amountCents)})`,
    );
  if (dueToday.count > 0)
    lines.push(
      `${dueToday.count} ${dueToday.count === 1 ? 'conta a pagar vence hoje' : 'contas a pagar vencem hoje'} (${money(dueToday.amountCents)})`,
    );
  return lines;
}

// ---------------------------------------------------------------------------------------------------
// A payable from a purchase: a stock entry (issue 34)

/** What the bill of a stock entry needs: who sold, when it falls due, in how many instalments. */
export const purchaseBillSchema = z.object({
  supplierId: z.number({ error: 'Escolha o fornecedor' }).int().positive('Escolha o fornecedor'),
  /** The expense category; without one, the shop's first CMV/compras category. */
  categoryId: z.number().int().positive().nullable().default(null),
  dueDate: isoDate(PAYABLE_MESSAGES.dueDate),
  installments: z
    .number()
    .int()
    .min(1, PAYABLE_MESSAGES.installments)
    .max(60, PAYABLE_MESSAGES.installments)
    .default(1),
});
export type PurchaseBill = z.output<typeof purchaseBillSchema>;

/** The entry's value: each line's quantity x unit cost rounded to the cent, added. */
export function entryTotalCents(items: readonly { quantity: number; unitCostCents: number }[]): number {
  return items.reduce((sum, i) => sum + Math.round(i.quantity * i.unitCostCents), 0);
}

// ---------------------------------------------------------------------------------------------------
// A payable from a supplier's NF-e XML (issue 34)

/** The NF-e XML upload (multipart field "file"): the nfeProc the supplier sent. */
export const NFE_XML_UPLOAD = {
  maxBytes: 2 * 1024 * 1024,
  tooLarge: 'O XML da NF-e deve ter no máximo 2 MB',
  notSupported: 'Envie o arquivo XML da NF-e (nfeProc) que o fornecedor mandou',
  xml: true,
} as const satisfies Upload;

export const NFE_IMPORT_MESSAGES = {
  notNfe: 'Este XML não é uma NF-e: envie o nfeProc (o XML da nota) que o fornecedor mandou',
  noKey: 'A NF-e não tem chave de acesso (atributo Id de infNFe)',
  noIssuer: 'A NF-e não tem o CNPJ ou CPF do emitente',
  badIssuerDocument: (doc: string) => `O CNPJ/CPF do emitente (${doc}) é inválido`,
  badTotal: 'A NF-e não tem um valor total (vNF) válido',
  badDup: (n: string) => `A duplicata ${n} não tem vencimento ou valor válidos`,
  dupTotal: (dups: string, total: string) =>
    `As duplicatas somam ${dups}, mas a fatura da NF-e é de ${total}: confira o XML com o fornecedor`,
  alreadyImported: (n: string) => `A NF-e ${n} deste fornecedor já foi importada`,
  tooManyDups: 'A NF-e tem mais de 60 duplicatas',
} as const;

export const nfeImportQuerySchema = z.object({
  /** The expense category; without one, the shop's first CMV/compras category. */
  categoryId: z.coerce.number().int().positive().optional(),
});

export const nfeImportedSchema = z.object({
  supplier: z.object({ id: z.number().int(), name: z.string(), created: z.boolean() }),
  number: z.string(),
  totalCents: z.number().int(),
  items: z.array(payableSchema),
});
export type NfeImported = z.infer<typeof nfeImportedSchema>;

// ---------------------------------------------------------------- NF-e as a stock entry (issue 34)

export const NFE_ENTRY_MESSAGES = {
  schema: (element: string) =>
    `O XML da NF-e não segue o leiaute oficial (NF-e 4.00) no campo ${element}: peça ao fornecedor o XML autorizado`,
  notForShop: (document: string) =>
    `Esta NF-e foi emitida para o CNPJ/CPF ${document}, não para esta loja: nada foi importado`,
  unsigned:
    'Esta NF-e não tem a assinatura digital do fornecedor: peça a ele o XML autorizado (nfeProc); nada foi importado',
  badSignature:
    'A assinatura digital da NF-e não confere: o XML foi alterado depois de assinado. Peça ao fornecedor o XML original; nada foi importado',
  notIssuerSignature: (document: string) =>
    `A NF-e foi assinada com o certificado digital de outra empresa, não do emitente (${document}): nada foi importado`,
  noRecipient: 'A NF-e não tem destinatário: só notas emitidas para o CNPJ da loja entram no estoque',
  itemMissing: (n: number) => `Diga o que fazer com o item ${n} da nota: vincular a um produto ou cadastrar`,
  itemUnknown: (n: number) => `O item ${n} não existe nesta NF-e`,
  badQuantity: (n: number) => `O item ${n} da nota tem uma quantidade inválida`,
  productNotFound: (n: number) => `O produto escolhido para o item ${n} não foi encontrado`,
  tinyQuantity: (n: number) =>
    `O item ${n} da nota, convertido nas unidades do produto, dá menos de 0,001: confira as unidades por unidade da nota`,
} as const;

/** The most product units one supplier unit may hold (a pallet of 100.000 is already absurd). */
export const NFE_FACTOR_MAX = 100_000;

/**
 * How many of the product's units one unit of the supplier's line holds (uCom CX with 12 units: 12),
 * up to 4 decimals (qCom's own precision; 0,5 for a supplier's half unit).
 */
export const nfeFactorSchema = z
  .number({ message: 'Informe quantas unidades do produto vêm em cada unidade da nota' })
  .positive('As unidades por unidade da nota devem ser maiores que zero')
  .max(NFE_FACTOR_MAX, `No máximo ${NFE_FACTOR_MAX.toLocaleString('pt-BR')} unidades por unidade da nota`)
  .refine((f) => Math.abs(Math.round(f * 10_000) - f * 10_000) < 1e-6, {
    message: 'Use no máximo 4 casas decimais nas unidades por unidade da nota',
  });

/**
 * What one line of a supplier's note puts in the stock, once converted to the product's units (issue
 * 34): quantity = qCom x factor to 3 decimals (the stock's precision, half up); unit cost = the line's
 * delivered total / (qCom x factor), to the cent, half up, on the exact (unrounded) quantity. Computed
 * in integers (qCom and the factor to 4 decimals), so R$ 99,80 for 2 CX of 12 is 416 cents, always.
 * Both the API's entry and the review screen use it.
 */
export function nfeStockFigures(
  qCom: number,
  totalCents: number,
  factor: number,
): { quantity: number; unitCostCents: number } {
  const units = BigInt(Math.round(qCom * 10_000)) * BigInt(Math.round(factor * 10_000)); // x 10^8
  if (units <= 0n) return { quantity: 0, unitCostCents: 0 };
  const thousandths = (units + 50_000n) / 100_000n;
  const cost = (2n * BigInt(Math.max(0, Math.round(totalCents))) * 100_000_000n + units) / (2n * units);
  return { quantity: Number(thousandths) / 1000, unitCostCents: Number(cost) };
}

/** One item (det) of a supplier's NF-e as the review shows it, with the product it was matched to. */
export const nfeReviewItemSchema = z.object({
  /** nItem: the item's number in the note (1, 2, ...). */
  index: z.number().int(),
  /** cProd: the supplier's own code. */
  code: z.string(),
  /** cEAN when it is a GTIN (null for "SEM GTIN"). */
  barcode: z.string().nullable(),
  description: z.string(),
  unit: z.string(),
  /** qCom, to 4 decimals. */
  quantity: z.number(),
  /** What one unit cost, delivered: (vProd - vDesc + vFrete + vSeg + vOutro) / qCom, to the cent. */
  unitCostCents: z.number().int(),
  totalCents: z.number().int(),
  /** uTrib and qTrib: the taxable unit, often the single unit when uCom is a box. */
  taxUnit: z.string(),
  taxQuantity: z.number(),
  /** Product units per supplier unit offered: the one remembered for this code, else qTrib / qCom. */
  factor: z.number(),
  factorFrom: z.enum(['remembered', 'taxUnit']).nullable(),
  match: z
    .object({
      productId: z.number().int(),
      variantId: z.number().int().nullable(),
      name: z.string(),
      by: z.enum(['barcode', 'supplierCode']),
      /** True when the product has a grid and no variant was matched: the review asks for the variant. */
      needsVariant: z.boolean().optional(),
    })
    .nullable(),
});
export type NfeReviewItem = z.infer<typeof nfeReviewItemSchema>;

export const nfeReviewSchema = z.object({
  key: z.string(),
  number: z.string(),
  issuedOn: z.string(),
  supplier: z.object({ id: z.number().int().nullable(), name: z.string(), document: z.string() }),
  totalCents: z.number().int(),
  bills: z.array(z.object({ number: z.string(), dueDate: z.string(), amountCents: z.number().int() })),
  items: z.array(nfeReviewItemSchema),
});
export type NfeReview = z.infer<typeof nfeReviewSchema>;

const positiveId = (message: string) => z.number({ message }).int(message).positive(message);

/** What the review decided for each item: a product (remembered for this supplier's code) or a new one. */
export const nfeEntryItemSchema = z.union([
  z.object({
    index: z.number().int().positive(),
    productId: positiveId('Produto inválido'),
    variantId: z.number().int().positive().nullish().default(null),
    /** Product units per supplier unit; without it, the review's offer (remembered, qTrib/qCom, 1). */
    factor: nfeFactorSchema.optional(),
  }),
  z.object({
    index: z.number().int().positive(),
    newProduct: z.object({
      name: z
        .string()
        .trim()
        .min(1, 'Informe o nome do produto')
        .max(120, 'Nome com no máximo 120 caracteres'),
      categoryId: positiveId('Escolha a categoria').nullish().default(null),
      salePriceCents: z.number().int().min(0).max(99_999_999_99),
    }),
    factor: nfeFactorSchema.optional(),
  }),
]);
export type NfeEntryItem = z.input<typeof nfeEntryItemSchema>;

export const nfeEntryInputSchema = z.object({
  /** The XML as the supplier sent it (the review read the same text). */
  xml: z.string().min(1, 'Envie o XML da NF-e').max(2_000_000, 'XML grande demais'),
  /** The bills' expense category; without one, the shop's first CMV/compras category. */
  categoryId: z.number().int().positive().optional(),
  items: z.array(nfeEntryItemSchema).max(990),
});
export type NfeEntryInput = z.input<typeof nfeEntryInputSchema>;

export const nfeEntryCreatedSchema = nfeImportedSchema.extend({
  movements: z.number().int(),
  productsCreated: z.number().int(),
});
export type NfeEntryCreated = z.infer<typeof nfeEntryCreatedSchema>;
