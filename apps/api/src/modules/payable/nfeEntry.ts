import {
  NFE_ENTRY_MESSAGES as M,
  NFE_FACTOR_MAX,
  NFE_IMPORT_MESSAGES,
  type NfeEntryCreated,
  type NfeEntryInput,
  type NfeReview,
  type NfeReviewItem,
  nfeEntryInputSchema,
  nfeStockFigures,
} from '@balcao/core/payable';
import { formatQuantity, productInputSchema } from '@balcao/core/product';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, conflict } from '../../errors.ts';
import { type Actor, actInTransaction } from '../../lib/actor.ts';
import { mapUnique } from '../../lib/pg.ts';
import { type ProductRef, productRefs, productsByBarcodes, productsWithGrid } from '../product/find.ts';
import { UNIQUE as PRODUCT_UNIQUE } from '../product/rules.ts';
import { insertProduct } from '../product/service.ts';
import { applyStockMovements, notifyLowStock } from '../stock/service.ts';
import { billsOf, checkedNfe, type NfeBill, type NfeItem } from './nfe.ts';
import { insertNfeBills, supplierOfNfe } from './purchase.ts';
import { payableSeries, supplierProductCodes, suppliers } from './schema.ts';
import { listByIds } from './service.ts';

/*
 * A supplier's NF-e as a STOCK ENTRY (issue 34). Two steps:
 *  - review (nothing written): the note checked (schema, recipient, not imported before), each item
 *    matched to a product by the supplier's code remembered from an earlier note, else by its barcode;
 *  - entry: what the review decided (a product for each item, or a new product), in ONE transaction:
 *    supplier, the bills (payables), new products, the supplier's codes remembered, and the stock
 *    entry through the stock service (levels and weighted average cost).
 */

async function alreadyImported(db: Executor, actor: Actor, nfe: NfeBill) {
  const [row] = await db
    .select({ id: payableSeries.id })
    .from(payableSeries)
    .where(and(eq(payableSeries.clientId, actor.clientId), eq(payableSeries.nfeKey, nfe.key)));
  if (row) throw conflict(NFE_IMPORT_MESSAGES.alreadyImported(nfe.number));
}

/** What the review offers for an item: its product, and how many product units one supplier unit holds. */
type ItemOffer = {
  match: NfeReviewItem['match'];
  factor: number;
  factorFrom: NfeReviewItem['factorFrom'];
};

/**
 * The units of the product in one supplier unit when the note says it: uTrib differs from uCom (a box
 * of 12 sold as CX, taxed as 24 UN for 2 CX) and both quantities are there: qTrib / qCom, 4 decimals.
 */
function taxUnitFactor(item: NfeItem): number | null {
  if (!item.taxUnit || item.taxUnit.trim().toUpperCase() === item.unit.trim().toUpperCase()) return null;
  if (!(item.quantity > 0) || !(item.taxQuantity > 0)) return null;
  const factor = Math.round((item.taxQuantity / item.quantity) * 10_000) / 10_000;
  return factor > 0 && factor <= NFE_FACTOR_MAX && factor !== 1 ? factor : null;
}

/**
 * Each item's product: the supplier's remembered code first (the shop's own choice), then the barcode;
 * and its unit factor: the one remembered with the code, else the taxable unit's (qTrib / qCom), else 1.
 */
async function matchItems(
  db: Executor,
  actor: Actor,
  supplierId: number | null,
  items: NfeItem[],
): Promise<Map<number, ItemOffer>> {
  const remembered = new Map<string, { productId: number; variantId: number | null; factor: number }>();
  if (supplierId !== null) {
    const codes = [...new Set(items.map((i) => i.code).filter(Boolean))];
    if (codes.length)
      for (const r of await db
        .select({
          code: supplierProductCodes.code,
          productId: supplierProductCodes.productId,
          variantId: supplierProductCodes.variantId,
          factor: supplierProductCodes.factor,
        })
        .from(supplierProductCodes)
        .where(
          and(
            eq(supplierProductCodes.clientId, actor.clientId),
            eq(supplierProductCodes.supplierId, supplierId),
            inArray(supplierProductCodes.code, codes),
          ),
        ))
        remembered.set(r.code, { productId: r.productId, variantId: r.variantId, factor: Number(r.factor) });
  }
  const named = await productRefs(db, actor.clientId, [...remembered.values()]);
  const byBarcode = await productsByBarcodes(db, actor.clientId, [
    ...new Set(items.flatMap((i) => (i.barcode ? [i.barcode] : []))),
  ]);
  const out = new Map<number, ItemOffer>();
  for (const item of items) {
    const code = remembered.get(item.code);
    const ref = code ? named.get(`${code.productId}:${code.variantId ?? ''}`) : undefined;
    const fromTax = taxUnitFactor(item);
    const factor =
      ref && code
        ? { factor: code.factor, factorFrom: 'remembered' as const }
        : fromTax
          ? { factor: fromTax, factorFrom: 'taxUnit' as const }
          : { factor: 1, factorFrom: null };
    if (ref) out.set(item.index, { match: { ...ref, by: 'supplierCode' }, ...factor });
    else {
      const found = item.barcode ? byBarcode.get(item.barcode) : undefined;
      out.set(item.index, { match: found ? { ...found, by: 'barcode' } : null, ...factor });
    }
  }
  return out;
}

async function supplierIdOf(db: Executor, actor: Actor, nfe: NfeBill) {
  const [row] = await db
    .select({ id: suppliers.id })
    .from(suppliers)
    .where(and(eq(suppliers.clientId, actor.clientId), eq(suppliers.document, nfe.issuer.document)));
  return row?.id ?? null;
}

/** POST /v1/payable/nfe/review: the note read, checked and its items matched; nothing written. */
export async function reviewNfe(db: Db, actor: Actor, xml: string): Promise<NfeReview> {
  const nfe = await checkedNfe(db, actor, xml);
  const bills = billsOf(nfe);
  await alreadyImported(db, actor, nfe);
  const supplierId = await supplierIdOf(db, actor, nfe);
  const matches = await matchItems(db, actor, supplierId, nfe.items);
  // A product with a grid matched without its variant (its own barcode, a code remembered before the
  // grid): the review must ask for the size/colour.
  const withGrid = await productsWithGrid(
    db,
    actor.clientId,
    [...matches.values()].flatMap((o) => (o.match && o.match.variantId === null ? [o.match.productId] : [])),
  );
  for (const offer of matches.values())
    if (offer.match && offer.match.variantId === null && withGrid.has(offer.match.productId))
      offer.match = { ...offer.match, needsVariant: true };
  return {
    key: nfe.key,
    number: nfe.number,
    issuedOn: nfe.issuedOn,
    supplier: { id: supplierId, name: nfe.issuer.name, document: nfe.issuer.document },
    totalCents: nfe.totalCents,
    bills,
    items: nfe.items.map((item) => ({
      ...item,
      quantity: Number.isNaN(item.quantity) ? 0 : item.quantity,
      match: null,
      factor: 1,
      factorFrom: null,
      ...matches.get(item.index),
    })),
  };
}

/** The unit a new product takes from the note's uCom (KG, L, M...), "un" otherwise. */
function unitOf(uCom: string) {
  const u = uCom.trim().toLowerCase();
  if (u === 'kg' || u === 'g' || u === 'l' || u === 'ml' || u === 'm')
    return u as 'kg' | 'g' | 'l' | 'ml' | 'm';
  return 'un' as const;
}

/**
 * POST /v1/payable/nfe/entry: the reviewed note as the stock entry and its bills, one transaction.
 * An item the review left without a decision takes its automatic match; without one, 422.
 */
export async function importNfeEntry(
  db: Db,
  notify: AppContext['notify'],
  actor: Actor,
  raw: NfeEntryInput,
): Promise<NfeEntryCreated> {
  const input = nfeEntryInputSchema.parse(raw);
  const nfe = await checkedNfe(db, actor, input.xml);
  const bills = billsOf(nfe);
  const decided = new Map(input.items.map((d) => [d.index, d]));
  for (const d of input.items)
    if (!nfe.items.some((i) => i.index === d.index)) throw new AppError(422, M.itemUnknown(d.index));
  for (const item of nfe.items) if (!(item.quantity > 0)) throw new AppError(422, M.badQuantity(item.index));
  const automatic = await matchItems(db, actor, await supplierIdOf(db, actor, nfe), nfe.items);

  const result = await mapUnique(
    () =>
      db.transaction(async (tx) => {
        await actInTransaction(tx, actor);
        const supplier = await supplierOfNfe(tx, actor, nfe);
        const billIds = await insertNfeBills(tx, actor, nfe, bills, supplier, input.categoryId);
        // Each item's product: chosen, created, or the review's automatic match.
        const chosen = input.items.flatMap((d) =>
          'productId' in d ? [{ productId: d.productId, variantId: d.variantId }] : [],
        );
        const known = await productRefs(tx, actor.clientId, chosen);
        let productsCreated = 0;
        const lines: {
          item: NfeItem;
          ref: Pick<ProductRef, 'productId' | 'variantId'>;
          factor: number;
        }[] = [];
        for (const item of nfe.items) {
          const d = decided.get(item.index);
          const offer = automatic.get(item.index);
          const factor = d?.factor ?? offer?.factor ?? 1;
          if (nfeStockFigures(item.quantity, item.totalCents, factor).quantity <= 0)
            throw new AppError(422, M.tinyQuantity(item.index));
          if (d && 'productId' in d) {
            if (!known.has(`${d.productId}:${d.variantId ?? ''}`))
              throw new AppError(404, M.productNotFound(item.index));
            lines.push({ item, ref: { productId: d.productId, variantId: d.variantId }, factor });
          } else if (d && 'newProduct' in d) {
            const taken = item.barcode ? await productsByBarcodes(tx, actor.clientId, [item.barcode]) : null;
            const productId = await insertProduct(
              tx,
              actor,
              productInputSchema.parse({
                name: d.newProduct.name,
                categoryId: d.newProduct.categoryId,
                salePriceCents: d.newProduct.salePriceCents,
                barcode: item.barcode && !taken?.size ? item.barcode : null,
                // Converted (a box of 12): the product counts the taxable unit when the note has one.
                unit: unitOf(factor === 1 ? item.unit : item.taxUnit || 'UN'),
              }),
            );
            productsCreated++;
            lines.push({ item, ref: { productId, variantId: null }, factor });
          } else {
            const match = offer?.match;
            if (!match) throw new AppError(422, M.itemMissing(item.index));
            lines.push({ item, ref: match, factor });
          }
        }
        // The supplier's codes remembered for its next note (the latest choice wins).
        const codes = new Map<string, (typeof lines)[number]['ref'] & { factor: number }>();
        for (const { item, ref, factor } of lines) if (item.code) codes.set(item.code, { ...ref, factor });
        if (codes.size)
          await tx
            .insert(supplierProductCodes)
            .values(
              [...codes].map(([code, ref]) => ({
                clientId: actor.clientId,
                supplierId: supplier.id,
                code,
                productId: ref.productId,
                variantId: ref.variantId,
                factor: ref.factor,
              })),
            )
            .onConflictDoUpdate({
              target: [
                supplierProductCodes.clientId,
                supplierProductCodes.supplierId,
                supplierProductCodes.code,
              ],
              set: {
                productId: sql`excluded.product_id`,
                variantId: sql`excluded.variant_id`,
                factor: sql`excluded.factor`,
                updatedAt: new Date(),
              },
            });
        const stock = await applyStockMovements(
          tx,
          { clientId: actor.clientId, userId: actor.userId },
          lines.map(({ item, ref, factor }) => {
            // In the product's units: quantity x factor, the cost over the converted quantity (core rule).
            const figures = nfeStockFigures(item.quantity, item.totalCents, factor);
            const converted =
              factor === 1
                ? ''
                : ` (${formatQuantity(item.quantity)} ${item.unit} x ${formatQuantity(factor)})`;
            return {
              productId: ref.productId,
              variantId: ref.variantId,
              type: 'entry' as const,
              quantity: figures.quantity.toFixed(3),
              unitCostCents: figures.unitCostCents,
              document: `NF-e ${nfe.number}`.slice(0, 60),
              note: `${supplier.name} - item ${item.index}: ${item.description}${converted}`.slice(0, 500),
            };
          }),
        );
        return { supplier, billIds, productsCreated, stock };
      }),
    PRODUCT_UNIQUE,
  );
  notifyLowStock(notify, actor.clientId, result.stock.lowStock);
  return {
    supplier: result.supplier,
    number: nfe.number,
    totalCents: bills.reduce((s, b) => s + b.amountCents, 0),
    items: await listByIds(db, actor, result.billIds),
    movements: result.stock.movements.length,
    productsCreated: result.productsCreated,
  };
}
