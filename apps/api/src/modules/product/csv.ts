import {
  cstOfClassTrib,
  type ProductFiscalField,
  type ProductFiscalOverride,
  productFiscalOverrideSchema,
} from '@balcao/core/fiscal';
import {
  BARCODE_TAKEN,
  type ImportLineError,
  type ImportPreviewRow,
  type ImportResult,
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_FISCAL_COLUMNS,
  PRODUCT_CSV_REQUIRED,
  PRODUCT_TYPE_CSV,
  PRODUCT_TYPE_TO_CSV,
  PRODUCT_UNITS,
  type ProductCsvColumn,
  type ProductCsvFiscalColumn,
  type ProductInputParsed,
  type ProductListItem,
  productInputSchema,
  SKU_TAKEN,
  searchKey,
} from '@balcao/core/product';
import { and, eq, inArray, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import type { Db, Executor } from '../../db/client.ts';
import { type Actor, actInTransaction } from '../../lib/actor.ts';
import { commaDecimal, readCsvRecords } from '../../lib/csv.ts';
import { num } from '../../lib/pg.ts';
import { assertPlanRoom } from '../billing/service.ts';
import { brandService } from '../product-brand/service.ts';
import { categoryService } from '../product-category/service.ts';
import { countProducts } from './planCount.ts';
import { products, productVariants } from './schema.ts';

/**
 * CSV import and export of products (papaparse: RFC 4180 quoting, delimiter detection and
 * streaming unparse, so files from Excel, LibreOffice and Google Sheets read the same).
 * Spreadsheet conventions of Brazil: semicolon separated, decimal comma, UTF-8 with BOM.
 */

type Row = Partial<Record<ProductCsvColumn | ProductCsvFiscalColumn, string>>;

/** The CST column: derived from the cClassTrib, checked on import, never kept on its own. */
const CST_COLUMN = 'cst_ibs_cbs' satisfies ProductCsvFiscalColumn;
type FieldColumn = Exclude<ProductCsvFiscalColumn, typeof CST_COLUMN>;
const FIELD_COLUMNS = PRODUCT_CSV_FISCAL_COLUMNS.filter((c): c is FieldColumn => c !== CST_COLUMN);

/** The fiscal columns and the field each one fills; `clean` forgives the spreadsheet's formatting. */
const FISCAL_COLUMNS: Record<FieldColumn, { field: ProductFiscalField; clean: (v: string) => string }> = {
  ncm: { field: 'ncm', clean: (v) => v.replace(/[.\s]/g, '') },
  cfop: { field: 'cfop', clean: (v) => v.replace(/[.\s]/g, '') },
  csosn: { field: 'csosn', clean: (v) => v.trim() },
  // "0", "0 - Nacional": the digit.
  origem: { field: 'origin', clean: (v) => /^\s*(\d)/.exec(v)?.[1] ?? v.trim() },
  cest: { field: 'cest', clean: (v) => v.replace(/[.\s]/g, '') },
  unidade_fiscal: { field: 'unit', clean: (v) => v.trim().toUpperCase() },
  cclasstrib: { field: 'cClassTrib', clean: (v) => v.replace(/[.\s]/g, '') },
};

/** The CST cell against the line's cClassTrib (the CST is its first three digits). */
export function cstCellMessage(cst: string, cClassTrib: string | undefined): string | null {
  if (!/^\d{3}$/.test(cst))
    return `CST do IBS/CBS "${cst}" inválido: use os 3 dígitos do CST, por exemplo 000`;
  if (!cClassTrib)
    return `CST do IBS/CBS ${cst} sem cClassTrib: preencha a coluna cclasstrib (o CST são os 3 primeiros dígitos dela)`;
  if (cstOfClassTrib(cClassTrib) !== cst)
    return `CST do IBS/CBS ${cst} não corresponde ao cClassTrib ${cClassTrib} (o CST são os 3 primeiros dígitos do cClassTrib)`;
  return null;
}

const FIELD_COLUMN: Record<string, ProductCsvColumn> = {
  name: 'nome',
  sku: 'sku',
  barcode: 'codigo_barras',
  productType: 'tipo',
  unit: 'unidade',
  salePriceCents: 'preco_venda',
  costPriceCents: 'preco_custo',
  active: 'ativo',
  stockControl: 'controla_estoque',
  stock: 'estoque',
  minStock: 'estoque_minimo',
  weightKg: 'peso_kg',
  heightCm: 'altura_cm',
  widthCm: 'largura_cm',
  lengthCm: 'comprimento_cm',
  description: 'descricao',
  scaleCode: 'codigo_balanca',
};

const HEADER_ALIASES: Record<string, ProductCsvColumn> = {
  codigo_de_barras: 'codigo_barras',
  ean: 'codigo_barras',
  gtin: 'codigo_barras',
  preco: 'preco_venda',
  preco_de_venda: 'preco_venda',
  preco_de_custo: 'preco_custo',
  custo: 'preco_custo',
  descricao_do_produto: 'descricao',
  produto: 'nome',
};

function normalizeHeader(header: string): string {
  return searchKey(header.replace(/^\uFEFF/, ''))
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

/** "1.234,56", "1234,56", "1234.56", "R$ 12" -> cents; NaN when it is not money. */
export function parseCsvMoney(text: string): number {
  const raw = text.replace(/R\$|\s/g, '');
  let v = commaDecimal(raw) ?? '';
  if (!raw.includes(',') && /^\d{1,3}(\.\d{3})+$/.test(v)) v = v.replace(/\./g, '');
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(v);
  if (!m) return Number.NaN;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** "1,250" / "1.25" / "2" -> number (quantities and measures); NaN otherwise. */
export function parseCsvNumber(text: string): number {
  const v = commaDecimal(text.replace(/\s/g, '')) ?? '';
  return /^\d+(\.\d+)?$/.test(v) ? Number(v) : Number.NaN;
}

const TRUE = new Set(['sim', 's', '1', 'true', 'verdadeiro', 'x', 'ativo', 'yes', 'y']);
const FALSE = new Set(['nao', 'n', '0', 'false', 'falso', 'inativo', 'no']);

function parseBool(text: string): boolean | undefined {
  const v = searchKey(text);
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return undefined;
}

type ParsedCsv = { rows: { line: number; row: Row }[]; ignoredColumns: string[]; fileError?: string };

export function parseProductCsv(text: string): ParsedCsv {
  const { header, rows } = readCsvRecords(text);
  const headers = (header ?? []).map((h): string => {
    const key = normalizeHeader(h);
    return HEADER_ALIASES[key] ?? key;
  });
  const missing = PRODUCT_CSV_REQUIRED.filter((c) => !headers.includes(c));
  if (missing.length)
    return {
      rows: [],
      ignoredColumns: [],
      fileError: `Coluna obrigatória ausente no cabeçalho: ${missing.join(', ')}. Use o modelo de planilha.`,
    };
  const known = new Set<string>([...PRODUCT_CSV_COLUMNS, ...PRODUCT_CSV_FISCAL_COLUMNS]);
  const ignoredColumns = headers.filter((h) => !known.has(h) && h !== '');
  // Line numbers as a spreadsheet shows them: the header is line 1, blank rows count.
  return {
    rows: rows.map(({ line, cells }) => {
      const row: Row = {};
      headers.forEach((column, i) => {
        const value = cells[i];
        const key = column as keyof Row;
        if (value === undefined || !known.has(column) || row[key] !== undefined) return;
        // Undo the formula guard of our own export ("'=..." -> "=...").
        const text = value.trim();
        row[key] = /^'[=+\-@]/.test(text) ? text.slice(1) : text;
      });
      return { line, row };
    }),
    ignoredColumns,
  };
}

type Existing = {
  id: number;
  name: string;
  description: string;
  sku: string | null;
  barcode: string | null;
  productType: string;
  unit: string;
  salePriceCents: number;
  costPriceCents: number;
  categoryId: number | null;
  brandId: number | null;
  active: boolean;
  stockControl: boolean;
  stock: number;
  minStock: number;
  weightKg: number | null;
  heightCm: number | null;
  widthCm: number | null;
  lengthCm: number | null;
  scaleCode: string | null;
};

type Planned = {
  line: number;
  action: 'create' | 'update';
  existing?: Existing;
  input: ProductInputParsed;
  category: string | null;
  brand: string | null;
  /** Which stock-bearing columns the line had (an update only changes what the file sends). */
  sentStock: boolean;
  /** The NFC-e fields the line gives (issue 32); null when it gives none. */
  fiscal: ProductFiscalOverride | null;
};

type ImportPlan = {
  planned: Planned[];
  errors: ImportLineError[];
  totalLines: number;
  invalidLines: number;
  ignoredColumns: string[];
};

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Checks every line (format, rules, duplicates in the file and in the catalog); writes nothing. */
export async function planImport(db: Executor, actor: Actor, parsed: ParsedCsv): Promise<ImportPlan> {
  const clientId = actor.clientId;
  const errors: ImportLineError[] = [];
  const fail = (line: number, column: string | null, message: string) =>
    errors.push({ line, column, message });
  if (parsed.fileError) {
    fail(1, null, parsed.fileError);
    return { planned: [], errors, totalLines: 0, invalidLines: 0, ignoredColumns: [] };
  }

  // Existing products whose SKU the file names: those lines update them.
  const skus = [
    ...new Set(parsed.rows.map((r) => r.row.sku?.toLowerCase()).filter((s): s is string => Boolean(s))),
  ];
  const bySku = new Map<string, Existing>();
  for (const part of chunks(skus, 500)) {
    const rows = await db
      .select({
        id: products.id,
        name: products.name,
        description: products.description,
        sku: products.sku,
        barcode: products.barcode,
        productType: products.productType,
        unit: products.unit,
        salePriceCents: products.salePriceCents,
        costPriceCents: products.costPriceCents,
        categoryId: products.categoryId,
        brandId: products.brandId,
        active: products.active,
        stockControl: products.stockControl,
        stock: products.stock,
        minStock: products.minStock,
        weightKg: products.weightKg,
        heightCm: products.heightCm,
        widthCm: products.widthCm,
        lengthCm: products.lengthCm,
        scaleCode: products.scaleCode,
      })
      .from(products)
      .where(and(eq(products.clientId, clientId), inArray(sql`lower(${products.sku})`, part)));
    for (const r of rows)
      bySku.set((r.sku ?? '').toLowerCase(), { ...r, stock: num(r.stock), minStock: num(r.minStock) });
  }
  // Variant SKUs cannot be products.
  const variantSkus = new Set<string>();
  for (const part of chunks(skus, 500)) {
    const rows = await db
      .select({ sku: productVariants.sku })
      .from(productVariants)
      .where(and(eq(productVariants.clientId, clientId), inArray(sql`lower(${productVariants.sku})`, part)));
    for (const r of rows) if (r.sku) variantSkus.add(r.sku.toLowerCase());
  }
  // Who owns each barcode the file names.
  const barcodes = [
    ...new Set(
      parsed.rows
        .map((r) => r.row.codigo_barras?.replace(/[\s.-]/g, ''))
        .filter((s): s is string => Boolean(s)),
    ),
  ];
  const barcodeOwner = new Map<string, number | 'variant'>();
  for (const part of chunks(barcodes, 500)) {
    const [p, v] = await Promise.all([
      db
        .select({ id: products.id, barcode: products.barcode })
        .from(products)
        .where(and(eq(products.clientId, clientId), inArray(products.barcode, part))),
      db
        .select({ barcode: productVariants.barcode })
        .from(productVariants)
        .where(and(eq(productVariants.clientId, clientId), inArray(productVariants.barcode, part))),
    ]);
    for (const r of p) if (r.barcode) barcodeOwner.set(r.barcode, r.id);
    for (const r of v) if (r.barcode) barcodeOwner.set(r.barcode, 'variant');
  }

  const seenSku = new Map<string, number>();
  const seenBarcode = new Map<string, number>();
  const planned: Planned[] = [];
  const invalid = new Set<number>();

  for (const { line, row } of parsed.rows) {
    const before = errors.length;
    const existing = row.sku ? bySku.get(row.sku.toLowerCase()) : undefined;
    const base = existing;
    const has = (c: ProductCsvColumn | ProductCsvFiscalColumn) => row[c] !== undefined && row[c] !== '';

    const money = (c: ProductCsvColumn, fallback: number | undefined): number | undefined => {
      if (!has(c)) return fallback;
      const cents = parseCsvMoney(row[c] as string);
      if (Number.isNaN(cents)) {
        fail(line, c, `Valor inválido "${row[c]}": use números com vírgula, por exemplo 12,50`);
        return fallback;
      }
      return cents;
    };
    const quantity = (c: ProductCsvColumn, fallback: number | null | undefined) => {
      if (!has(c)) return fallback;
      const n = parseCsvNumber(row[c] as string);
      if (Number.isNaN(n)) {
        fail(line, c, `Número inválido "${row[c]}": use vírgula para decimais, por exemplo 1,5`);
        return fallback;
      }
      return n;
    };
    const bool = (c: ProductCsvColumn, fallback: boolean) => {
      if (!has(c)) return fallback;
      const b = parseBool(row[c] as string);
      if (b === undefined) {
        fail(line, c, `Valor inválido "${row[c]}": use sim ou não`);
        return fallback;
      }
      return b;
    };

    let productType = base?.productType ?? 'simple';
    if (has('tipo')) {
      const t =
        PRODUCT_TYPE_CSV[searchKey(row.tipo as string)] ??
        PRODUCT_TYPE_CSV[(row.tipo as string).toLowerCase()];
      if (t) productType = t;
      else fail(line, 'tipo', `Tipo inválido "${row.tipo}": use simples, grade, servico ou pesavel`);
    }
    let unit = base?.unit ?? (productType === 'weighed' ? 'kg' : 'un');
    if (has('unidade')) {
      const u = (row.unidade as string).toLowerCase().replace('²', '2');
      if ((PRODUCT_UNITS as readonly string[]).includes(u)) unit = u;
      else fail(line, 'unidade', `Unidade inválida "${row.unidade}": use ${PRODUCT_UNITS.join(', ')}`);
    }
    if (!has('preco_venda') && !base) fail(line, 'preco_venda', 'O preço de venda é obrigatório');

    const stockControlDefault = base?.stockControl ?? productType !== 'service';
    const candidate = {
      name: has('nome') ? row.nome : (base?.name ?? ''),
      description: has('descricao') ? row.descricao : (base?.description ?? ''),
      sku: row.sku || null,
      barcode: has('codigo_barras') ? row.codigo_barras : (base?.barcode ?? null),
      productType,
      unit,
      salePriceCents: money('preco_venda', base?.salePriceCents) ?? 0,
      costPriceCents: money('preco_custo', base?.costPriceCents ?? 0),
      categoryId: null,
      brandId: null,
      active: bool('ativo', base?.active ?? true),
      stockControl: bool('controla_estoque', stockControlDefault),
      stock: quantity('estoque', base?.stock ?? 0),
      minStock: quantity('estoque_minimo', base?.minStock ?? 0),
      weightKg: quantity('peso_kg', base?.weightKg ?? null),
      heightCm: quantity('altura_cm', base?.heightCm ?? null),
      widthCm: quantity('largura_cm', base?.widthCm ?? null),
      lengthCm: quantity('comprimento_cm', base?.lengthCm ?? null),
      scaleCode: has('codigo_balanca') ? row.codigo_balanca : (base?.scaleCode ?? null),
    };
    const result = productInputSchema.safeParse(candidate);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = String(issue.path[0] ?? '');
        const column = FIELD_COLUMN[field] ?? null;
        // A money/number column already reported its own format error.
        if (column && errors.slice(before).some((e) => e.column === column)) continue;
        fail(line, column, issue.message);
      }
    }
    const input = result.success ? result.data : null;

    // The NFC-e fields: each filled cell checked as the fiscal form checks it.
    const fiscalCells: Record<string, string> = {};
    const fiscalColumnOf = new Map<string, ProductCsvFiscalColumn>();
    for (const column of FIELD_COLUMNS) {
      if (!has(column)) continue;
      const { field, clean } = FISCAL_COLUMNS[column];
      fiscalCells[field] = clean(row[column] as string);
      fiscalColumnOf.set(field, column);
    }
    let fiscal: ProductFiscalOverride | null = null;
    if (fiscalColumnOf.size > 0) {
      const checked = productFiscalOverrideSchema.safeParse(fiscalCells);
      if (checked.success) fiscal = checked.data;
      else
        for (const issue of checked.error.issues)
          fail(line, fiscalColumnOf.get(String(issue.path[0])) ?? null, issue.message);
    }
    if (has(CST_COLUMN)) {
      const message = cstCellMessage((row[CST_COLUMN] as string).trim(), fiscalCells.cClassTrib);
      if (message) fail(line, CST_COLUMN, message);
    }

    if (input?.sku) {
      const key = input.sku.toLowerCase();
      const first = seenSku.get(key);
      if (first) fail(line, 'sku', `SKU repetido: já aparece na linha ${first}`);
      else seenSku.set(key, line);
      if (variantSkus.has(key)) fail(line, 'sku', SKU_TAKEN);
    }
    if (input?.barcode) {
      const first = seenBarcode.get(input.barcode);
      if (first) fail(line, 'codigo_barras', `Código de barras repetido: já aparece na linha ${first}`);
      else seenBarcode.set(input.barcode, line);
      const owner = barcodeOwner.get(input.barcode);
      if (owner !== undefined && owner !== existing?.id) fail(line, 'codigo_barras', BARCODE_TAKEN);
    }

    if (errors.length > before || !input) {
      invalid.add(line);
      continue;
    }
    if (existing && existing.productType === 'variants' && input.productType !== 'variants')
      fail(line, 'tipo', 'Este produto tem variações: o tipo não pode mudar pela planilha');
    if (errors.length > before) {
      invalid.add(line);
      continue;
    }
    planned.push({
      line,
      action: existing ? 'update' : 'create',
      existing,
      input,
      category: has('categoria') ? (row.categoria as string) : null,
      brand: has('marca') ? (row.marca as string) : null,
      sentStock: has('estoque'),
      fiscal,
    });
  }
  return {
    planned,
    errors,
    totalLines: parsed.rows.length,
    invalidLines: invalid.size,
    ignoredColumns: parsed.ignoredColumns,
  };
}

function previewRows(plan: ImportPlan, limit = 50): ImportPreviewRow[] {
  return plan.planned.slice(0, limit).map((p) => ({
    line: p.line,
    action: p.action,
    name: p.input.name,
    sku: p.input.sku,
    barcode: p.input.barcode,
    salePriceCents: p.input.salePriceCents,
    category: p.category,
    brand: p.brand,
  }));
}

/**
 * Keeps the NFC-e fields an import gives (issue 32): the fiscal module's, handed over at wiring
 * (modules/index.ts) so this module never writes the fiscal tables.
 */
export type ImportedFiscalWriter = (
  tx: Executor,
  clientId: number,
  rows: { productId: number; fields: ProductFiscalOverride }[],
) => Promise<void>;

/**
 * Writes the planned lines in one transaction: all of them or none. New products go in batches;
 * `onProgress` hears after each batch.
 */
export async function applyImport(
  db: Db,
  actor: Actor,
  plan: ImportPlan,
  onProgress: (done: number, total: number) => void = () => {},
  writeFiscal?: ImportedFiscalWriter,
): Promise<{ created: number; updated: number }> {
  const clientId = actor.clientId;
  const total = plan.planned.length;
  return db.transaction(async (tx) => {
    await actInTransaction(tx, actor);
    // Category and brand ids by name, creating the missing ones inside the import's transaction.
    const categoryIds = await categoryService.idsByName(tx, actor, [
      ...new Set(plan.planned.map((p) => p.category).filter((c): c is string => Boolean(c))),
    ]);
    const brandIds = await brandService.idsByName(tx, actor, [
      ...new Set(plan.planned.map((p) => p.brand).filter((c): c is string => Boolean(c))),
    ]);
    const ref = (ids: Map<string, number>, name: string | null, current: number | null | undefined) =>
      name ? (ids.get(name.toLocaleLowerCase('pt-BR')) ?? null) : (current ?? null);

    let done = 0;
    let created = 0;
    let updated = 0;
    for (const batch of chunks(plan.planned, 250)) {
      const inserts = batch.filter((p) => p.action === 'create');
      const fiscal: { productId: number; fields: ProductFiscalOverride }[] = [];
      if (inserts.length) {
        await assertPlanRoom(tx, clientId, 'products', await countProducts(tx, clientId), inserts.length);
        const ids = await tx
          .insert(products)
          .values(
            inserts.map(({ input, category, brand }) => ({
              clientId,
              name: input.name,
              description: input.description,
              sku: input.sku,
              barcode: input.barcode,
              productType: input.productType,
              unit: input.unit,
              salePriceCents: input.salePriceCents,
              costPriceCents: input.costPriceCents,
              categoryId: ref(categoryIds, category, null),
              brandId: ref(brandIds, brand, null),
              active: input.active,
              stockControl: input.stockControl,
              stock: input.stock,
              minStock: input.minStock,
              weightKg: input.weightKg,
              heightCm: input.heightCm,
              widthCm: input.widthCm,
              lengthCm: input.lengthCm,
              scaleCode: input.scaleCode ?? null,
              nameKey: searchKey(input.name),
              searchText: searchKey([input.name, input.sku, input.barcode].filter(Boolean).join(' ')),
            })),
          )
          .returning({ id: products.id });
        // PostgreSQL returns a multi-row VALUES insert's rows in the order given.
        inserts.forEach((p, i) => {
          if (p.fiscal) fiscal.push({ productId: ids[i].id, fields: p.fiscal });
        });
        created += inserts.length;
      }
      for (const p of batch) {
        if (p.action !== 'update' || !p.existing) continue;
        const { input, existing } = p;
        await tx
          .update(products)
          .set({
            name: input.name,
            description: input.description,
            barcode: input.barcode,
            productType: input.productType,
            unit: input.unit,
            salePriceCents: input.salePriceCents,
            costPriceCents: input.costPriceCents,
            categoryId: ref(categoryIds, p.category, existing.categoryId),
            brandId: ref(brandIds, p.brand, existing.brandId),
            active: input.active,
            stockControl: input.stockControl,
            ...(p.sentStock && input.productType !== 'variants' ? { stock: input.stock } : {}),
            minStock: input.minStock,
            weightKg: input.weightKg,
            heightCm: input.heightCm,
            widthCm: input.widthCm,
            lengthCm: input.lengthCm,
            scaleCode: input.scaleCode ?? null,
            nameKey: searchKey(input.name),
            searchText: sql`${searchKey([input.name, input.sku, input.barcode].filter(Boolean).join(' '))} || coalesce((select ' ' || string_agg(lower(coalesce(v.sku, '')) || ' ' || coalesce(v.barcode, ''), ' ') from product_variants v where v.product_id = ${existing.id}), '')`,
            updatedAt: new Date(),
          })
          .where(and(eq(products.clientId, clientId), eq(products.id, existing.id)));
        if (p.fiscal) fiscal.push({ productId: existing.id, fields: p.fiscal });
        updated++;
      }
      if (fiscal.length > 0) await writeFiscal?.(tx, clientId, fiscal);
      done += batch.length;
      onProgress(done, total);
    }
    return { created, updated };
  });
}

export function importResult(
  plan: ImportPlan,
  options: { dryRun: boolean; skipInvalid: boolean },
  written: { created: number; updated: number } = { created: 0, updated: 0 },
): ImportResult {
  return {
    dryRun: options.dryRun,
    totalLines: plan.totalLines,
    validLines: plan.planned.length,
    invalidLines: plan.invalidLines,
    created: written.created,
    updated: written.updated,
    skipped: options.dryRun ? 0 : plan.invalidLines,
    errors: plan.errors,
    preview: previewRows(plan),
    ignoredColumns: plan.ignoredColumns,
  };
}

// ---------------------------------------------------------------- export

const decimal = (value: number | null, places: number) =>
  value === null
    ? ''
    : value
        .toFixed(places)
        .replace(/\.?0+$/, '')
        .replace('.', ',') || '0';
const money = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');

type ExportProduct = ProductListItem & {
  description: string;
  weightKg: number | null;
  heightCm: number | null;
  widthCm: number | null;
  lengthCm: number | null;
  scaleCode: string | null;
};

/**
 * The export's header: PRODUCT_CSV_COLUMNS, then the NFC-e columns (issue 32) when the fiscal module
 * is wired, so an exported file imports back unchanged.
 */
export function csvHeader(fiscal = false): string {
  const columns: string[] = [...PRODUCT_CSV_COLUMNS, ...(fiscal ? PRODUCT_CSV_FISCAL_COLUMNS : [])];
  return `\uFEFF${Papa.unparse([columns], { delimiter: ';' })}\r\n`;
}

/**
 * Reads the products' own NFC-e fields for the export (issue 32): the fiscal module's, handed over at
 * wiring (modules/index.ts) so this module never reads the fiscal tables.
 */
export type ExportedFiscalReader = (
  db: Executor,
  clientId: number,
  productIds: number[],
) => Promise<Map<number, ProductFiscalOverride>>;

/** An exported product with its own NFC-e fields (none: the shop's defaults apply, blank cells). */
type ExportProductWithFiscal = ExportProduct & { fiscal?: ProductFiscalOverride | null };

/** The export's rows with their products' own fiscal fields, read once per 500 products. */
export async function* withFiscalFields<T extends ExportProduct>(
  rows: AsyncIterable<T>,
  read: (productIds: number[]) => Promise<Map<number, ProductFiscalOverride>>,
): AsyncGenerator<T & { fiscal: ProductFiscalOverride | null }> {
  let batch: T[] = [];
  async function* flush() {
    const fields = await read(batch.map((p) => p.id));
    for (const p of batch) yield { ...p, fiscal: fields.get(p.id) ?? null };
    batch = [];
  }
  for await (const row of rows) {
    batch.push(row);
    if (batch.length === 500) yield* flush();
  }
  if (batch.length > 0) yield* flush();
}

/** A product's own value of a fiscal column as the import reads it back (blank: not its own). */
function fiscalCell(fiscal: ProductFiscalOverride | null | undefined, column: ProductCsvFiscalColumn) {
  if (column === CST_COLUMN) return fiscal?.cClassTrib ? cstOfClassTrib(fiscal.cClassTrib) : '';
  const value = fiscal?.[FISCAL_COLUMNS[column].field];
  return value === null || value === undefined ? '' : String(value);
}

/**
 * CSV lines of a batch of products, in PRODUCT_CSV_COLUMNS order, then the NFC-e columns when
 * `fiscal` (the rows carry their fields: `withFiscalFields`).
 */
export function csvLines(items: ExportProductWithFiscal[], fiscal = false): string {
  if (items.length === 0) return '';
  const rows = items.map((p) => [
    p.name,
    p.sku ?? '',
    p.barcode ?? '',
    PRODUCT_TYPE_TO_CSV[p.productType],
    p.unit,
    money(p.salePriceCents),
    money(p.costPriceCents),
    p.category?.name ?? '',
    p.brand?.name ?? '',
    p.active ? 'sim' : 'nao',
    p.stockControl ? 'sim' : 'nao',
    decimal(p.stock, 3),
    decimal(p.minStock, 3),
    decimal(p.weightKg, 3),
    decimal(p.heightCm, 2),
    decimal(p.widthCm, 2),
    decimal(p.lengthCm, 2),
    p.description,
    p.scaleCode ?? '',
    ...(fiscal ? PRODUCT_CSV_FISCAL_COLUMNS.map((column) => fiscalCell(p.fiscal, column)) : []),
  ]);
  return `${Papa.unparse(rows, { delimiter: ';', header: false, escapeFormulae: true })}\r\n`;
}
