import type { DiscountKind, LineAdditional, LineSnapshot, SaleLineTotals } from '@balcao/core/sale';
import { sql } from 'drizzle-orm';
import { integer, jsonb, numeric, text } from 'drizzle-orm/pg-core';

/**
 * A line's snapshot (core `LineSnapshot`: product, variant, names, codes, unit, quantity, price,
 * add-ons) has the same columns in sale_items, budget_items and comanda_lines: declared once here,
 * read by one mapper. The product and variant ids stay in each table (their foreign keys differ:
 * a comanda line has none) and so do the columns only some tables have.
 */

/** numeric(14,3) read as a number: quantities and stock levels (up to 3 decimals, kg). */
export const quantityColumn = (name: string) => numeric(name, { precision: 14, scale: 3, mode: 'number' });

/**
 * The snapshot's columns (names as the tables have them). `unitDefault`: the unit column defaults
 * to 'un' (sale and comanda lines; a budget line always writes it).
 */
export function lineSnapshotColumns(options: { unitDefault: boolean }) {
  const unit = text('unit').notNull();
  return {
    description: text('description').notNull(),
    variantName: text('variant_name'),
    sku: text('sku'),
    barcode: text('barcode'),
    unit: options.unitDefault ? unit.default('un') : unit,
    quantity: quantityColumn('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    /** [{id, name, priceCents, quantity}] of one unit. */
    additionals: jsonb('additionals').$type<LineAdditional[]>().notNull().default(sql`'[]'::jsonb`),
    notes: text('notes'),
  };
}

/** A sale's or a budget's line discount (as typed) and its totals (core lineTotals), stored with it. */
export function lineTotalsColumns() {
  return {
    /** fixed_amount | percentage */
    discountType: text('discount_type').notNull().default('fixed_amount'),
    /** Cents or hundredths of a percent, as typed. */
    discountValue: integer('discount_value').notNull().default(0),
    unitTotalCents: integer('unit_total_cents').notNull(),
    grossCents: integer('gross_cents').notNull(),
    discountCents: integer('discount_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull(),
  };
}

type SnapshotRow = {
  productId: number | null;
  variantId: number | null;
  description: string;
  variantName: string | null;
  sku: string | null;
  barcode: string | null;
  unit: string;
  quantity: number | string;
  unitPriceCents: number;
  additionals: unknown;
};

/** THE mapper of a stored line to its snapshot (sale items, budget items, comanda lines). */
export function lineSnapshotOf(row: SnapshotRow): LineSnapshot {
  return {
    productId: row.productId,
    variantId: row.variantId,
    description: row.description,
    variantName: row.variantName,
    sku: row.sku,
    barcode: row.barcode,
    unit: row.unit,
    quantity: Number(row.quantity),
    unitPriceCents: row.unitPriceCents,
    additionals: row.additionals as LineAdditional[],
  };
}

type PricedLineRow = SnapshotRow & {
  discountType: string;
  discountValue: number;
  unitTotalCents: number;
  grossCents: number;
  discountCents: number;
  totalCents: number;
  notes: string | null;
};

/** A stored sale or budget line as answered (core SaleItem without its id). */
export function pricedLineOf(row: PricedLineRow) {
  return {
    ...lineSnapshotOf(row),
    unitTotalCents: row.unitTotalCents,
    grossCents: row.grossCents,
    discountType: row.discountType as DiscountKind,
    discountValue: row.discountValue,
    discountCents: row.discountCents,
    totalCents: row.totalCents,
    notes: row.notes,
  };
}

/** The columns a sale or budget line is written with: its snapshot, discount and totals. */
export function pricedLineValues(
  line: LineSnapshot & { discountType: DiscountKind; discountValue: number; notes: string | null },
  totals: Pick<SaleLineTotals, 'unitTotalCents' | 'grossCents' | 'discountCents' | 'totalCents'>,
) {
  return {
    productId: line.productId,
    variantId: line.variantId,
    description: line.description,
    variantName: line.variantName,
    sku: line.sku,
    barcode: line.barcode,
    unit: line.unit,
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
    additionals: line.additionals,
    discountType: line.discountType,
    discountValue: line.discountValue,
    notes: line.notes,
    unitTotalCents: totals.unitTotalCents,
    grossCents: totals.grossCents,
    discountCents: totals.discountCents,
    totalCents: totals.totalCents,
  };
}
