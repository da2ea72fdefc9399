import { isIsoDate } from './date.ts';
import { numberOrText, optionalText } from './fields.ts';
import { idFilter, listQuerySchema, pageOf } from './list.ts';
import { parseMoneyToCents } from './money.ts';
import { formatQuantity } from './product.ts';
import { refSchema } from './responses.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * Stock (issue 6): the movement ledger's types and reasons, quantity helpers (3 decimals, decimal
 * comma) and the shared schemas of the entry, exit and fractionate forms and routes.
 *
 * Quantities travel as numbers with at most 3 decimals; arithmetic is done on integer thousandths
 * (`toThousandths`) so 0.1 + 0.2 never shows up in a stock level. Display and input masks are the
 * catalog's (core product.ts: formatQuantity, maskQuantityInput, numberToQuantityInput).
 */

export const STOCK_MOVEMENT_TYPES = [
  'entry',
  'exit',
  'fractionate-out',
  'fractionate-in',
  'sale',
  'sale-cancel',
  'adjustment',
  /** Items of a sale returned by the customer (issue 30), restocked. */
  'sale-return',
] as const;
export type StockMovementType = (typeof STOCK_MOVEMENT_TYPES)[number];

export const STOCK_MOVEMENT_TYPE_LABELS: Record<StockMovementType, string> = {
  entry: 'Entrada',
  exit: 'Saída',
  'fractionate-out': 'Fracionamento (saída)',
  'fractionate-in': 'Fracionamento (entrada)',
  sale: 'Venda',
  'sale-cancel': 'Cancelamento de venda',
  adjustment: 'Ajuste',
  'sale-return': 'Devolução de venda',
};

/** Whether a type adds to (+1) or takes from (-1) the stock; an adjustment carries its own sign. */
export const STOCK_MOVEMENT_DIRECTION: Record<StockMovementType, 1 | -1 | 0> = {
  entry: 1,
  exit: -1,
  'fractionate-out': -1,
  'fractionate-in': 1,
  sale: -1,
  'sale-cancel': 1,
  adjustment: 0,
  'sale-return': 1,
};

/** Reasons of a manual exit (codes in English, labels as the shop reads them). */
export const STOCK_EXIT_REASONS = ['loss', 'breakage', 'internal-use', 'supplier-return', 'other'] as const;
export type StockExitReason = (typeof STOCK_EXIT_REASONS)[number];
export const STOCK_EXIT_REASON_LABELS: Record<StockExitReason, string> = {
  loss: 'Perda',
  breakage: 'Quebra',
  'internal-use': 'Uso interno',
  'supplier-return': 'Devolução ao fornecedor',
  other: 'Outro',
};

/** Reasons the database writes when the product form or the CSV import sets a level directly. */
const STOCK_ADJUSTMENT_REASON_LABELS: Record<string, string> = {
  'initial-stock': 'Saldo inicial',
  'product-form': 'Alterado no cadastro do produto',
};

/** Label of a movement's reason code (exit reasons, database adjustments), or the text itself. */
export function stockReasonLabel(reason: string | null | undefined): string {
  if (!reason) return '';
  return (
    STOCK_EXIT_REASON_LABELS[reason as StockExitReason] ?? STOCK_ADJUSTMENT_REASON_LABELS[reason] ?? reason
  );
}

export const STOCK_MESSAGES = {
  disabled: 'O controle de estoque está desativado',
  quantity: 'Informe uma quantidade válida',
  quantityPositive: 'A quantidade deve ser maior que 0',
  quantityDecimals: 'Use no máximo 3 casas decimais',
  quantityMax: 'Quantidade muito alta',
  unitCost: 'Informe um custo unitário válido',
  itemsMin: 'Adicione ao menos um produto',
  itemsMax: 'No máximo 200 produtos por lançamento',
  reason: 'Selecione o motivo da saída',
  otherNote: 'Descreva o motivo da saída',
  sameProduct: 'Escolha produtos diferentes para origem e destino',
  productRequired: 'Selecione um produto',
  period: 'A data final deve ser igual ou posterior à data inicial',
  invalidDate: 'Data inválida',
} as const;

export const insufficientStockMessage = (productName: string, available: number) =>
  `Estoque insuficiente para ${productName} (disponível: ${formatQuantity(available)})`;

// ---------------------------------------------------------------- quantities

/** Largest level numeric(14,3) holds, in whole units. */
const STOCK_QUANTITY_MAX = 99_999_999_999;

/**
 * The weighted average cost a stock entry keeps on the product (issue 34: the DRE's CMV reads it from
 * the ledger, so no cost setup is needed): (level x cost + quantity x unit cost) / (level + quantity),
 * quantities in thousandths, the level floored at 0 (a negative level has no cost to weigh), rounded
 * half up to the cent on integers (BigInt: no floating point).
 */
export function averageCost(
  levelThousandths: number,
  costCents: number,
  inThousandths: number,
  unitCostCents: number,
): number {
  const level = BigInt(Math.max(levelThousandths, 0));
  const quantity = BigInt(inThousandths);
  const total = level + quantity;
  if (total <= 0n) return unitCostCents;
  const numerator = level * BigInt(costCents) + quantity * BigInt(unitCostCents);
  // Half-up rounding on integers.
  return Number((numerator * 2n + total) / (total * 2n));
}

/**
 * A quantity (number, or text with a decimal comma or dot: "1,5", "0.250") -> integer thousandths.
 * NaN when it is not a number or has more than 3 decimals. Never loses precision for numeric(14,3).
 */
export function toThousandths(value: number | string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return Number.NaN;
    const scaled = value * 1000;
    const rounded = Math.round(scaled);
    return Math.abs(scaled - rounded) < 1e-6 * Math.max(1, Math.abs(scaled)) ? rounded : Number.NaN;
  }
  const m = /^(-)?(\d+)(?:[.,](\d{0,3}))?$/.exec(value.trim());
  if (!m) return Number.NaN;
  const thousandths = Number(m[2]) * 1000 + Number((m[3] ?? '').padEnd(3, '0'));
  if (!Number.isSafeInteger(thousandths)) return Number.NaN;
  return m[1] ? -thousandths : thousandths;
}

/** Integer thousandths -> the API's decimal number (1500 -> 1.5). */
export function fromThousandths(thousandths: number): number {
  return thousandths / 1000;
}

/** A positive quantity given as a number (API) or as input text ("1,5"); parsed to a number. */
const stockQuantityField = numberOrText(STOCK_MESSAGES.quantity, (value) => {
  const thousandths = toThousandths(value);
  if (Number.isNaN(thousandths)) {
    const tooPrecise =
      (typeof value === 'number' && Number.isFinite(value)) ||
      (typeof value === 'string' && /^\d+[.,]\d{4,}$/.test(value.trim()));
    return tooPrecise ? STOCK_MESSAGES.quantityDecimals : STOCK_MESSAGES.quantity;
  }
  if (thousandths <= 0) return STOCK_MESSAGES.quantityPositive;
  if (thousandths > STOCK_QUANTITY_MAX * 1000) return STOCK_MESSAGES.quantityMax;
  return fromThousandths(thousandths);
});

const MAX_CENTS = 2_147_483_647;

const unitCostCentsField = z
  .number({ message: STOCK_MESSAGES.unitCost })
  .int('Custo unitário: use centavos inteiros')
  .min(0, 'O custo unitário não pode ser negativo')
  .max(MAX_CENTS, 'Custo unitário muito alto');

/** The money text of a form ("12,34", "R$ 1.234,56") -> cents. */
const unitCostTextField = z
  .string({ message: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .transform((text, ctx) => {
    const cents = parseMoneyToCents(text);
    if (Number.isNaN(cents) || cents > MAX_CENTS) {
      ctx.addIssue({ code: 'custom', message: STOCK_MESSAGES.unitCost });
      return z.NEVER;
    }
    return cents;
  });

const idField = (message: string) => z.number({ message }).int(message).positive(message);
const variantIdField = z.number().int().positive('Variação inválida').nullish().default(null);

// ---------------------------------------------------------------- entry

const entryItemFields = {
  productId: idField(STOCK_MESSAGES.productRequired),
  variantId: variantIdField,
  quantity: stockQuantityField,
};
const entryHeaderFields = {
  /** Invoice (nota fiscal) or other document number. */
  document: optionalText(60),
  note: optionalText(500),
};

export const stockEntryInputSchema = z.object({
  items: z
    .array(z.object({ ...entryItemFields, unitCostCents: unitCostCentsField }))
    .min(1, STOCK_MESSAGES.itemsMin)
    .max(200, STOCK_MESSAGES.itemsMax),
  ...entryHeaderFields,
});
export type StockEntryInput = z.input<typeof stockEntryInputSchema>;
export type StockEntryInputParsed = z.output<typeof stockEntryInputSchema>;

/** The entry form: unit cost typed as money text; its output is the API's input. */
export const stockEntryFormSchema = z.object({
  items: z
    .array(z.object({ ...entryItemFields, unitCost: unitCostTextField }))
    .min(1, STOCK_MESSAGES.itemsMin)
    .max(200, STOCK_MESSAGES.itemsMax),
  ...entryHeaderFields,
});

export function stockEntryFormToInput(form: z.output<typeof stockEntryFormSchema>): StockEntryInput {
  return {
    document: form.document,
    note: form.note,
    items: form.items.map(({ unitCost, ...item }) => ({ ...item, unitCostCents: unitCost })),
  };
}

// ---------------------------------------------------------------- exit

export const stockExitInputSchema = z
  .object({
    items: z
      .array(z.object(entryItemFields))
      .min(1, STOCK_MESSAGES.itemsMin)
      .max(200, STOCK_MESSAGES.itemsMax),
    reason: z.enum(STOCK_EXIT_REASONS, { message: STOCK_MESSAGES.reason }),
    ...entryHeaderFields,
  })
  .superRefine((value, ctx) => {
    if (value.reason === 'other' && !value.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: STOCK_MESSAGES.otherNote });
  });
export type StockExitInput = z.input<typeof stockExitInputSchema>;
export type StockExitInputParsed = z.output<typeof stockExitInputSchema>;

// ---------------------------------------------------------------- fractionate

export const stockFractionateInputSchema = z
  .object({
    sourceProductId: idField(STOCK_MESSAGES.productRequired),
    sourceVariantId: variantIdField,
    /** N units of the source go out... */
    sourceQuantity: stockQuantityField,
    targetProductId: idField(STOCK_MESSAGES.productRequired),
    targetVariantId: variantIdField,
    /** ...and M units of the target come in. */
    targetQuantity: stockQuantityField,
    note: optionalText(500),
  })
  .superRefine((value, ctx) => {
    if (value.sourceProductId === value.targetProductId && value.sourceVariantId === value.targetVariantId)
      ctx.addIssue({ code: 'custom', path: ['targetProductId'], message: STOCK_MESSAGES.sameProduct });
  });
export type StockFractionateInput = z.input<typeof stockFractionateInputSchema>;
export type StockFractionateInputParsed = z.output<typeof stockFractionateInputSchema>;

/** Target units per source unit of a remembered ratio (12 for "Caixa 12 un" -> "Unidade"). */
export function fractionTargetFor(
  ratio: { sourceQuantity: number; targetQuantity: number },
  sourceQuantity: number,
): number {
  const perUnit = toThousandths(ratio.targetQuantity) / toThousandths(ratio.sourceQuantity);
  return Math.round(toThousandths(sourceQuantity) * perUnit) / 1000;
}

// ---------------------------------------------------------------- history

const dateFilter = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .refine((v) => v === undefined || isIsoDate(v), STOCK_MESSAGES.invalidDate);

export const stockMovementListQuerySchema = listQuerySchema
  .extend({
    productId: idFilter('Produto inválido'),
    variantId: idFilter('Variação inválida'),
    userId: idFilter('Usuário inválido'),
    /** One type or several separated by commas ("fractionate-out,fractionate-in"). */
    type: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v.split(',').map((t) => t.trim()) : undefined))
      .pipe(z.array(z.enum(STOCK_MOVEMENT_TYPES, { message: 'Tipo de movimentação inválido' })).optional()),
    /** Shop dates (YYYY-MM-DD, America/Sao_Paulo), both inclusive. */
    from: dateFilter,
    to: dateFilter,
  })
  .superRefine((value, ctx) => {
    if (value.from && value.to && value.to < value.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: STOCK_MESSAGES.period });
  });

export const stockMovementSchema = z.object({
  id: z.number(),
  type: z.enum(STOCK_MOVEMENT_TYPES),
  /** Signed: positive adds to the stock, negative takes from it. */
  quantity: z.number(),
  unitCostCents: z.number().nullable(),
  reason: z.string().nullable(),
  document: z.string().nullable(),
  note: z.string().nullable(),
  saleId: z.number().nullable(),
  product: refSchema.extend({ unit: z.string() }),
  variant: refSchema.nullable(),
  user: refSchema.nullable(),
  createdAt: z.string(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;

/** A stock card line: the movement and the product's level right after it. */
export const stockCardLineSchema = stockMovementSchema.extend({ balance: z.number() });
export type StockCardLine = z.infer<typeof stockCardLineSchema>;

export const lowStockProductSchema = z.object({
  id: z.number(),
  name: z.string(),
  sku: z.string().nullable(),
  barcode: z.string().nullable(),
  unit: z.string(),
  stock: z.number(),
  minStock: z.number(),
  costPriceCents: z.number(),
});
export type LowStockProduct = z.infer<typeof lowStockProductSchema>;

/** The stock card's product: its stock figures and whether it is controlled and low. */
export const stockCardSchema = pageOf(stockCardLineSchema).extend({
  product: lowStockProductSchema
    .omit({ sku: true, barcode: true })
    .extend({ stockControl: z.boolean(), isLowStock: z.boolean() }),
});
export type StockCard = z.infer<typeof stockCardSchema>;

export const stockSettingsInputSchema = z.object({
  allowNegativeStock: z.boolean({ message: 'Informe se o estoque pode ficar negativo' }),
});
export type StockSettingsInput = z.output<typeof stockSettingsInputSchema>;

export const stockSettingsSchema = z.object({
  stockManagement: z.boolean(),
  allowNegativeStock: z.boolean(),
});
export type StockSettings = z.infer<typeof stockSettingsSchema>;

export const fractionRatioSchema = z.object({
  sourceProductId: z.number(),
  targetProductId: z.number(),
  targetProductName: z.string(),
  sourceQuantity: z.number(),
  targetQuantity: z.number(),
  updatedAt: z.string(),
});
export type FractionRatio = z.infer<typeof fractionRatioSchema>;

/** Result of an entry, exit or fractionation. */
export const stockOperationResultSchema = z.object({ movements: z.array(stockMovementSchema) });
export type StockOperationResult = z.infer<typeof stockOperationResultSchema>;

/** A product's level, the units budgets reserve of it and what is left to sell (issue 17). */
export const stockReservationFiguresSchema = z.object({
  stock: z.number(),
  reserved: z.number(),
  available: z.number(),
});
export type StockReservationFigures = z.infer<typeof stockReservationFiguresSchema>;
