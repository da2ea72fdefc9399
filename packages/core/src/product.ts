import { barcodeSchema } from './barcode.ts';
import type { Upload } from './contract.ts';
import { optionalText } from './fields.ts';
import { booleanFilter, listQuerySchema, pageOf } from './list.ts';
import { keepDigitsAndComma } from './money.ts';
import { plural } from './plural.ts';
import { refSchema, timestampFields } from './responses.ts';
import {
  type ParsedScaleLabel,
  type ScaleRounding,
  scaleCodeSchema,
  weighedLine,
} from './scale/weighedLabel.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * The catalog (issue 4): categories, brands, products, the variants grid (productGrid,
 * productGridColor, productGridSize) and add-on groups (productAdditional).
 * Money is integer cents; quantities (stock, kg) allow 3 decimals.
 */

// ---------------------------------------------------------------- enums

export const PRODUCT_TYPES = ['simple', 'variants', 'service', 'weighed'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export const PRODUCT_TYPE_LABELS: Record<ProductType, string> = {
  simple: 'Simples',
  variants: 'Com variações (grade)',
  service: 'Serviço',
  weighed: 'Pesável (kg)',
};

export const PRODUCT_UNITS = [
  'un',
  'kg',
  'g',
  'l',
  'ml',
  'm',
  'm2',
  'cx',
  'pct',
  'fd',
  'dz',
  'par',
  'kit',
] as const;
export type ProductUnit = (typeof PRODUCT_UNITS)[number];
export const PRODUCT_UNIT_LABELS: Record<ProductUnit, string> = {
  un: 'un - Unidade',
  kg: 'kg - Quilograma',
  g: 'g - Grama',
  l: 'l - Litro',
  ml: 'ml - Mililitro',
  m: 'm - Metro',
  m2: 'm² - Metro quadrado',
  cx: 'cx - Caixa',
  pct: 'pct - Pacote',
  fd: 'fd - Fardo',
  dz: 'dz - Dúzia',
  par: 'par - Par',
  kit: 'kit - Kit',
};

// ---------------------------------------------------------------- field helpers

/** Largest integer-cents value the database column holds (R$ 21.474.836,47). */
const MAX_CENTS = 2_147_483_647;
const MAX_QUANTITY = 99_999_999_999;

function decimals(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const text = String(value);
  if (text.includes('e-')) return Number(text.split('e-')[1]);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

const centsField = (label: string) =>
  z
    .number({ error: (issue) => (issue.input == null ? REQUIRED : `${label}: informe um valor`) })
    .int(`${label}: use centavos inteiros`)
    .min(0, `${label} não pode ser negativo`)
    .max(MAX_CENTS, `${label} muito alto`);

/** A quantity with at most `places` decimals (3 for stock and kg, 2 for cm). */
const quantityField = (label: string, places = 3) =>
  z
    .number({ error: (issue) => (issue.input == null ? REQUIRED : `${label}: informe um número`) })
    .min(0, `${label} não pode ser negativo`)
    .max(MAX_QUANTITY, `${label} muito alto`)
    .refine((v) => decimals(v) <= places, `${label}: use no máximo ${places} casas decimais`);

const optionalQuantity = (label: string, places = 3) => quantityField(label, places).nullish().default(null);

const idRef = z.number().int().positive().nullish().default(null);

/** ISO timestamp the client read; a stale one makes the edit a 409. */
export const updatedAtField = z.iso.datetime({ offset: true, message: 'Data de atualização inválida' });

// ---------------------------------------------------------------- categories and brands

const catalogNameSchema = z.object({
  name: z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(80, 'Use no máximo 80 caracteres'),
  active: z.boolean().default(true),
});

export const productCategoryInputSchema = catalogNameSchema;
export type ProductCategoryInput = z.input<typeof productCategoryInputSchema>;
export const productCategoryUpdateSchema = catalogNameSchema.extend({ updatedAt: updatedAtField });

export const catalogNameListQuerySchema = listQuerySchema.extend({ active: booleanFilter });
export const CATALOG_NAME_SORTS = ['name', 'productCount', 'createdAt'] as const;

/** A category or a brand (the same shape). */
export const productCategorySchema = z.object({
  id: z.number(),
  name: z.string(),
  active: z.boolean(),
  productCount: z.number(),
  ...timestampFields,
});
export type ProductCategory = z.infer<typeof productCategorySchema>;

export const categoryInUseMessage = (n: number) =>
  `Não é possível excluir: ${n} ${n === 1 ? 'produto usa' : 'produtos usam'} esta categoria`;
export const brandInUseMessage = (n: number) =>
  `Não é possível excluir: ${n} ${n === 1 ? 'produto usa' : 'produtos usam'} esta marca`;
export const CATEGORY_NAME_TAKEN = 'Já existe uma categoria com este nome';
export const BRAND_NAME_TAKEN = 'Já existe uma marca com este nome';

// ---------------------------------------------------------------- products

export const SKU_TAKEN = 'Este SKU já está em uso em outro produto';
export const SCALE_CODE_TAKEN = 'Este código da balança já está em uso em outro produto';
export const BARCODE_TAKEN = 'Este código de barras já está em uso em outro produto';

const skuField = optionalText(60, 'O SKU deve ter no máximo 60 caracteres').refine(
  (v) => v === null || /^[\w.\-/ ]+$/u.test(v),
  'O SKU aceita letras, números, espaço, ponto, hífen, barra e sublinhado',
);

const gridNamesField = (label: string) =>
  z
    .array(z.string().trim().min(1, `${label}: nome vazio`).max(40, `${label}: use no máximo 40 caracteres`))
    .max(40, `${label}: no máximo 40`)
    .default([])
    .refine(
      (names) => new Set(names.map((n) => n.toLocaleLowerCase('pt-BR'))).size === names.length,
      `${label}: há nomes repetidos`,
    );

/** Colours and sizes of a product with variants; one variant per combination. */
export const productGridInputSchema = z
  .object({ colors: gridNamesField('Cores'), sizes: gridNamesField('Tamanhos') })
  .refine((g) => g.colors.length + g.sizes.length > 0, {
    message: 'Informe ao menos uma cor ou um tamanho',
    path: ['colors'],
  })
  .refine((g) => Math.max(g.colors.length, 1) * Math.max(g.sizes.length, 1) <= 400, {
    message: 'A grade pode ter no máximo 400 variações',
    path: ['sizes'],
  });
export type ProductGridInput = z.input<typeof productGridInputSchema>;

const productFields = {
  name: z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(120, 'Use no máximo 120 caracteres'),
  description: z.string().trim().max(5000, 'Use no máximo 5.000 caracteres').default(''),
  sku: skuField,
  barcode: barcodeSchema,
  /** Issue 36: the product's code in the shop's scale (weighed labels); not sent = unchanged. */
  scaleCode: scaleCodeSchema.optional(),
  productType: z.enum(PRODUCT_TYPES, { message: 'Selecione o tipo do produto' }).default('simple'),
  unit: z.enum(PRODUCT_UNITS, { message: 'Selecione a unidade' }).default('un'),
  salePriceCents: centsField('Preço de venda'),
  costPriceCents: centsField('Preço de custo').default(0),
  categoryId: idRef,
  brandId: idRef,
  active: z.boolean().default(true),
  stockControl: z.boolean().default(true),
  minStock: quantityField('Estoque mínimo').default(0),
  weightKg: optionalQuantity('Peso (kg)'),
  heightCm: optionalQuantity('Altura (cm)', 2),
  widthCm: optionalQuantity('Largura (cm)', 2),
  lengthCm: optionalQuantity('Comprimento (cm)', 2),
  additionalGroupIds: z
    .array(z.number().int().positive())
    .max(20, 'No máximo 20 grupos de adicionais')
    .default([]),
};

type ProductShape = {
  productType: ProductType;
  unit: ProductUnit;
  stockControl: boolean;
  scaleCode?: string | null;
};

export const SCALE_CODE_UNIT_MESSAGE = 'O código da balança é só para produtos vendidos por kg';

/** Rules that tie fields together (shared by create, update and the CSV import). */
function productRuleIssues(p: ProductShape): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (p.productType === 'weighed' && p.unit !== 'kg' && p.unit !== 'g')
    issues.push({ path: 'unit', message: 'Produto pesável deve usar a unidade kg ou g' });
  if (p.scaleCode && p.unit !== 'kg') issues.push({ path: 'scaleCode', message: SCALE_CODE_UNIT_MESSAGE });
  if (p.productType === 'service' && p.stockControl)
    issues.push({ path: 'stockControl', message: 'Serviço não controla estoque' });
  return issues;
}

function refineProduct(p: ProductShape, ctx: z.RefinementCtx) {
  for (const issue of productRuleIssues(p)) ctx.addIssue({ code: 'custom', ...issue, path: [issue.path] });
}

/** Create: the record, plus initial stock and, for a product with variants, its grid. */
export const productInputSchema = z
  .object({
    ...productFields,
    stock: quantityField('Estoque').default(0),
    grid: productGridInputSchema.optional(),
  })
  .superRefine(refineProduct);
export type ProductInput = z.input<typeof productInputSchema>;
export type ProductInputParsed = z.output<typeof productInputSchema>;

/** Update: `stock` only changes when sent (a stale form never rewrites a level a sale changed). */
export const productUpdateSchema = z
  .object({ ...productFields, stock: quantityField('Estoque').optional(), updatedAt: updatedAtField })
  .superRefine(refineProduct);

export const productListQuerySchema = listQuerySchema.extend({
  categoryId: z.coerce.number().int().positive('Categoria inválida').optional(),
  brandId: z.coerce.number().int().positive('Marca inválida').optional(),
  productType: z.enum(PRODUCT_TYPES, { message: 'Tipo inválido' }).optional(),
  active: booleanFilter,
  lowStock: booleanFilter,
});
export type ProductListQuery = z.input<typeof productListQuerySchema>;
export const PRODUCT_SORTS = ['name', 'sku', 'salePriceCents', 'stock', 'createdAt', 'updatedAt'] as const;

/** One variant of the grid: its own SKU, barcode, price (null = the product's) and stock. */
export const productVariantUpdateSchema = z.object({
  sku: skuField,
  barcode: barcodeSchema,
  priceCents: centsField('Preço da variação').nullish().default(null),
  stock: quantityField('Estoque').optional(),
  active: z.boolean().default(true),
  updatedAt: updatedAtField,
});
export type ProductVariantUpdate = z.input<typeof productVariantUpdateSchema>;

export const productImageSchema = z.object({
  id: z.number(),
  position: z.number(),
  url: z.string(),
  thumbUrl: z.string(),
  width: z.number(),
  height: z.number(),
});
export type ProductImage = z.infer<typeof productImageSchema>;

const productGridColorSchema = refSchema.extend({ position: z.number() });
const productGridSizeSchema = productGridColorSchema;

export const productVariantSchema = z.object({
  id: z.number(),
  productId: z.number(),
  colorId: z.number().nullable(),
  sizeId: z.number().nullable(),
  color: z.string().nullable(),
  size: z.string().nullable(),
  /** "Azul / M" */
  name: z.string(),
  sku: z.string().nullable(),
  barcode: z.string().nullable(),
  priceCents: z.number().nullable(),
  /** The price that applies: the override or the product's sale price. */
  effectivePriceCents: z.number(),
  stock: z.number(),
  active: z.boolean(),
  updatedAt: z.string(),
});
export type ProductVariant = z.infer<typeof productVariantSchema>;

const productAdditionalItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  priceCents: z.number(),
  active: z.boolean(),
  position: z.number(),
});

export const productAdditionalGroupSchema = z.object({
  id: z.number(),
  name: z.string(),
  minQuantity: z.number(),
  maxQuantity: z.number(),
  active: z.boolean(),
  items: z.array(productAdditionalItemSchema),
  productCount: z.number(),
  updatedAt: z.string(),
});
export type ProductAdditionalGroup = z.infer<typeof productAdditionalGroupSchema>;

export const productListItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  sku: z.string().nullable(),
  barcode: z.string().nullable(),
  productType: z.enum(PRODUCT_TYPES),
  unit: z.enum(PRODUCT_UNITS),
  salePriceCents: z.number(),
  costPriceCents: z.number(),
  marginPercent: z.number().nullable(),
  category: refSchema.nullable(),
  brand: refSchema.nullable(),
  active: z.boolean(),
  stockControl: z.boolean(),
  stock: z.number(),
  minStock: z.number(),
  isLowStock: z.boolean(),
  variantCount: z.number(),
  coverThumbUrl: z.string().nullable(),
  ...timestampFields,
});
export type ProductListItem = z.infer<typeof productListItemSchema>;

/**
 * A search (`q`) counts its matches only up to this many: past it the list says "mais de 1.000
 * produtos" and pages through the first PRODUCT_SEARCH_CAP (refine the search to see others).
 */
export const PRODUCT_SEARCH_CAP = 1000;

/**
 * The product list answer: the list contract plus `totalCapped`, true when `q` matched more than
 * PRODUCT_SEARCH_CAP products (then `total` is PRODUCT_SEARCH_CAP).
 */
export const productPageSchema = pageOf(productListItemSchema).extend({ totalCapped: z.boolean() });
export type ProductPage = z.infer<typeof productPageSchema>;

/** "mais de 1.000 produtos", "1 produto", "25 produtos": how many products a list answer found. */
export function productCountText(page: { total: number; totalCapped: boolean }): string {
  const text = plural(page.total, 'produto', 'produtos');
  return page.totalCapped ? `mais de ${text}` : text;
}

export const productSchema = productListItemSchema.extend({
  description: z.string(),
  /** Issue 36: the product's code in the shop's scale; null without one. */
  scaleCode: z.string().nullable(),
  weightKg: z.number().nullable(),
  heightCm: z.number().nullable(),
  widthCm: z.number().nullable(),
  lengthCm: z.number().nullable(),
  images: z.array(productImageSchema),
  colors: z.array(productGridColorSchema),
  sizes: z.array(productGridSizeSchema),
  variants: z.array(productVariantSchema),
  additionalGroups: z.array(productAdditionalGroupSchema),
});
export type Product = z.infer<typeof productSchema>;

/** Barcode lookup answer for the PDV scanner: the product, and the variant when the code is a variant's. */
export const barcodeMatchSchema = z.object({
  product: productSchema,
  variant: productVariantSchema.nullable(),
});
export type BarcodeMatch = z.infer<typeof barcodeMatchSchema>;

/**
 * A weighed label read at the PDV (issue 36): the product of the scale code, and the line the label
 * makes by the shop's scale rule (core scale/weighedLabel.ts `weighedLine`).
 */
export const weighedMatchSchema = z.object({
  product: productSchema,
  /** The product's code as the label carries it. */
  scaleCode: z.string(),
  /** Kilograms, 3 decimals. */
  quantity: z.number(),
  amountCents: z.number(),
  /** The total printed on a price label; null on a weight label. */
  labelAmountCents: z.number().nullable(),
  /** A price label no weight reaches at the catalog's price per kg (the scale holds another price). */
  priceMismatch: z.boolean(),
  /** The line's gross is truncated to the cent (the scale truncates). */
  truncate: z.boolean(),
});
export type WeighedMatch = z.infer<typeof weighedMatchSchema>;

/**
 * A label's match for its product (the API's lookup and the offline PDV's, issue 36): the line at the
 * catalog's price per kg by the scale's rule.
 */
export function weighedMatchOf<P extends { salePriceCents: number }>(
  label: ParsedScaleLabel,
  product: P,
  rounding: ScaleRounding,
): Omit<WeighedMatch, 'product'> & { product: P } {
  const line = weighedLine(label, product.salePriceCents, rounding);
  return {
    product,
    scaleCode: label.code,
    quantity: line.quantity,
    amountCents: line.amountCents,
    labelAmountCents: line.labelAmountCents,
    priceMismatch: line.priceMismatch,
    truncate: rounding === 'truncate',
  };
}

// ---------------------------------------------------------------- add-ons

const productAdditionalItemInputSchema = z.object({
  id: z.number().int().positive().optional(),
  name: z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(80, 'Use no máximo 80 caracteres'),
  priceCents: centsField('Preço do adicional').default(0),
  active: z.boolean().default(true),
});

const additionalGroupFields = {
  name: z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(80, 'Use no máximo 80 caracteres'),
  minQuantity: z
    .number()
    .int('Use um número inteiro')
    .min(0, 'O mínimo não pode ser negativo')
    .max(50)
    .default(0),
  maxQuantity: z
    .number()
    .int('Use um número inteiro')
    .min(1, 'O máximo deve ser pelo menos 1')
    .max(50, 'O máximo deve ser no máximo 50'),
  active: z.boolean().default(true),
  items: z
    .array(productAdditionalItemInputSchema)
    .min(1, 'Cadastre ao menos um item no grupo')
    .max(100, 'No máximo 100 itens por grupo')
    .refine(
      (items) => new Set(items.map((i) => i.name.toLocaleLowerCase('pt-BR'))).size === items.length,
      'Há itens com o mesmo nome',
    ),
};

function refineGroup(g: { minQuantity: number; maxQuantity: number }, ctx: z.RefinementCtx) {
  if (g.maxQuantity < g.minQuantity)
    ctx.addIssue({
      code: 'custom',
      path: ['maxQuantity'],
      message: 'O máximo deve ser maior ou igual ao mínimo',
    });
}

export const productAdditionalInputSchema = z.object(additionalGroupFields).superRefine(refineGroup);
export type ProductAdditionalInput = z.input<typeof productAdditionalInputSchema>;
export const productAdditionalUpdateSchema = z
  .object({ ...additionalGroupFields, updatedAt: updatedAtField })
  .superRefine(refineGroup);

export const ADDITIONAL_NAME_TAKEN = 'Já existe um grupo de adicionais com este nome';

// ---------------------------------------------------------------- pure rules

/** Profit margin over the sale price, in percent with 2 decimals; null without a sale price. */
export function marginPercent(salePriceCents: number, costPriceCents: number): number | null {
  if (salePriceCents <= 0) return null;
  return Math.round(((salePriceCents - costPriceCents) * 10000) / salePriceCents) / 100;
}

export function isLowStock(p: { stockControl: boolean; stock: number; minStock: number }): boolean {
  return p.stockControl && p.minStock > 0 && p.stock <= p.minStock;
}

/** "Azul / M", "Azul", "M". */
export function variantName(color: string | null, size: string | null): string {
  return [color, size].filter(Boolean).join(' / ');
}

/** Every colour x size combination (either list may be empty). */
export function gridCombinations(
  colors: string[],
  sizes: string[],
): { color: string | null; size: string | null }[] {
  const cs = colors.length ? colors : [null];
  const ss = sizes.length ? sizes : [null];
  return cs.flatMap((color) => ss.map((size) => ({ color, size })));
}

/** "AZUL-MARINHO" from "Azul marinho": the variant SKU suffix. */
export function skuPart(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Lower-case, accent-free text: the search key of a product (so "pao" finds "Pão"). */
export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const qty = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 3 });

/** "1,25 kg", "3 un". */
export function formatQuantity(value: number, unit?: string): string {
  return unit ? `${qty.format(value)} ${unit}` : qty.format(value);
}

// ---------------------------------------------------------------- CSV

/**
 * The import/export spreadsheet: one header per column, Portuguese, semicolon separated
 * (Excel in pt-BR), decimal comma. Export writes every column; import needs `nome` and
 * `preco_venda` and matches existing products by `sku`.
 */
export const PRODUCT_CSV_COLUMNS = [
  'nome',
  'sku',
  'codigo_barras',
  'tipo',
  'unidade',
  'preco_venda',
  'preco_custo',
  'categoria',
  'marca',
  'ativo',
  'controla_estoque',
  'estoque',
  'estoque_minimo',
  'peso_kg',
  'altura_cm',
  'largura_cm',
  'comprimento_cm',
  'descricao',
  /** Issue 36: the product's code in the shop's scale (weighed labels). */
  'codigo_balanca',
] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];
/**
 * Issue 32: the NFC-e fields a product import may carry (a blank cell keeps the product's field, or
 * the shop's default for a new one). The export writes them after PRODUCT_CSV_COLUMNS (a product's
 * own fields; blank where the shop's default applies), so an export imports back unchanged.
 */
export const PRODUCT_CSV_FISCAL_COLUMNS = [
  'ncm',
  'cfop',
  'csosn',
  'origem',
  'cest',
  'unidade_fiscal',
  /** IBS/CBS classification (NT 2025.002), checked against CLASS_TRIB_NFCE as the product form does. */
  'cclasstrib',
  /**
   * The IBS/CBS CST: the cClassTrib's first three digits (Informe Técnico 2025.002), so the export writes
   * it beside its cClassTrib and the import only checks that both agree (the product keeps no CST of its own).
   */
  'cst_ibs_cbs',
] as const;
export type ProductCsvFiscalColumn = (typeof PRODUCT_CSV_FISCAL_COLUMNS)[number];
export const PRODUCT_CSV_REQUIRED: readonly ProductCsvColumn[] = ['nome', 'preco_venda'];

/** Values of `tipo` in the spreadsheet. */
export const PRODUCT_TYPE_CSV: Record<string, ProductType> = {
  simples: 'simple',
  simple: 'simple',
  variacoes: 'variants',
  variações: 'variants',
  grade: 'variants',
  variants: 'variants',
  servico: 'service',
  serviço: 'service',
  service: 'service',
  pesavel: 'weighed',
  pesável: 'weighed',
  weighed: 'weighed',
};
export const PRODUCT_TYPE_TO_CSV: Record<ProductType, string> = {
  simple: 'simples',
  variants: 'grade',
  service: 'servico',
  weighed: 'pesavel',
};

export const importLineErrorSchema = z.object({
  line: z.number(),
  column: z.string().nullable(),
  message: z.string(),
});
export type ImportLineError = z.infer<typeof importLineErrorSchema>;

export const importPreviewRowSchema = z.object({
  line: z.number(),
  action: z.enum(['create', 'update']),
  name: z.string(),
  sku: z.string().nullable(),
  barcode: z.string().nullable(),
  salePriceCents: z.number(),
  category: z.string().nullable(),
  brand: z.string().nullable(),
});
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;

/** The product import answer (a dry run previews, otherwise the figures of what was written). */
export const importResultSchema = z.object({
  dryRun: z.boolean(),
  totalLines: z.number(),
  validLines: z.number(),
  invalidLines: z.number(),
  created: z.number(),
  updated: z.number(),
  skipped: z.number(),
  errors: z.array(importLineErrorSchema),
  preview: z.array(importPreviewRowSchema),
  /** Columns of the file the import does not know (ignored). */
  ignoredColumns: z.array(z.string()),
});
export type ImportResult = z.infer<typeof importResultSchema>;
export const productImportInputSchema = z.object({
  csv: z.string({ message: 'Envie o conteúdo do arquivo CSV' }).min(1, 'O arquivo está vazio'),
  dryRun: z.boolean().default(true),
  skipInvalid: z.boolean().default(false),
});

// ---------------------------------------------------------------- form (web)

/**
 * Quantity inputs (stock, kg, cm): digits and one comma, up to `places` decimals
 * (3 for stock and kg, 2 for cm). A dot typed on a keypad counts as the comma.
 */
export function maskQuantityInput(text: string, places = 3): string {
  const normalized = text.includes(',') ? text.replace(/\./g, '') : text.replace('.', ',');
  return keepDigitsAndComma(normalized, places);
}

/** "1,250" -> 1.25; "" -> null. */
export function quantityInputToNumber(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) ? n : Number.NaN;
}

/** 1.25 -> "1,25"; null -> "". */
export function numberToQuantityInput(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return String(Number(value.toFixed(3))).replace('.', ',');
}

/** 1299 -> "12,99" (the text a money input shows). */
export function centsToMoneyInput(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '';
  return `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
}

/** "12,99" -> 1299 without float math; "" -> undefined (required error); junk -> NaN. */
export function moneyInputToCents(text: string): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const m = /^(\d+)(?:,(\d{0,2}))?$/.exec(t);
  if (!m) return Number.NaN;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** What the product form holds: texts as the inputs show them ("12,50", "1,250"). */
export const productFormSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    sku: z.string(),
    barcode: z.string(),
    /** Issue 36: the product's code in the scale; optional so older form values still parse. */
    scaleCode: z.string().optional(),
    productType: z.enum(PRODUCT_TYPES),
    unit: z.enum(PRODUCT_UNITS),
    salePriceCents: z.string(),
    costPriceCents: z.string(),
    categoryId: z.number().nullable(),
    brandId: z.number().nullable(),
    active: z.boolean(),
    stockControl: z.boolean(),
    stock: z.string(),
    minStock: z.string(),
    weightKg: z.string(),
    heightCm: z.string(),
    widthCm: z.string(),
    lengthCm: z.string(),
    additionalGroupIds: z.array(z.number()),
    colors: z.array(z.string()),
    sizes: z.array(z.string()),
  })
  .transform(
    (v): ProductInput => ({
      name: v.name,
      description: v.description,
      sku: v.sku,
      barcode: v.barcode,
      ...(v.scaleCode !== undefined ? { scaleCode: v.scaleCode } : {}),
      productType: v.productType,
      unit: v.unit,
      // undefined makes the piped schema say "O campo é obrigatório".
      salePriceCents: moneyInputToCents(v.salePriceCents) as number,
      costPriceCents: moneyInputToCents(v.costPriceCents) ?? 0,
      categoryId: v.categoryId,
      brandId: v.brandId,
      active: v.active,
      stockControl: v.stockControl,
      stock: quantityInputToNumber(v.stock) ?? 0,
      minStock: quantityInputToNumber(v.minStock) ?? 0,
      weightKg: quantityInputToNumber(v.weightKg),
      heightCm: quantityInputToNumber(v.heightCm),
      widthCm: quantityInputToNumber(v.widthCm),
      lengthCm: quantityInputToNumber(v.lengthCm),
      additionalGroupIds: v.additionalGroupIds,
      grid:
        v.productType === 'variants' && v.colors.length + v.sizes.length > 0
          ? { colors: v.colors, sizes: v.sizes }
          : undefined,
    }),
  )
  .pipe(productInputSchema);
export type ProductFormValues = z.input<typeof productFormSchema>;

/** A product image: up to 5 MB, JPEG, PNG or WebP (stored as WebP in two sizes). */
export const PRODUCT_IMAGE_UPLOAD = {
  maxBytes: 5 * 1024 * 1024,
  tooLarge: 'A imagem deve ter no máximo 5 MB',
  notSupported: 'Formato não suportado: envie uma imagem JPEG, PNG ou WebP',
} as const satisfies Upload;
