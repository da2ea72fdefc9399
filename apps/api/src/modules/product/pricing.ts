import { variantName } from '@balcao/core/product';
import type { LineSnapshot } from '@balcao/core/sale';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { loaderPer, sameMomentLoader } from '../../lib/batch.ts';
import { activeGroupsSql, findAddOnItems, readGroups } from '../product-additional/pricing.ts';
import { groupIdsOf } from './additionalGroups.ts';
import { productGridColors, productGridSizes, products, productVariants } from './schema.ts';

/**
 * The catalog at the point of sale (the PDV checkout): prices, names and codes of the requested
 * products, variants and add-ons, and the catalog's rules for selling them. Three queries at most
 * for a whole cart (products, variants, add-on items), one after the other (the caller's
 * transaction is one connection).
 */

/** What the till asks for on one line. */
type ItemToPrice = {
  productId: number;
  variantId: number | null;
  quantity: number;
  /** Add-on items of ONE unit, each with its quantity. */
  additionals: readonly { id: number; quantity: number }[];
};

/** One line as the catalog prices it: a snapshot the sale keeps. */
/** A line's snapshot (core LineSnapshot) without its quantity; the price is the variant's when set. */
export type PricedItem = Omit<LineSnapshot, 'productId' | 'quantity'> & {
  productId: number;
  /**
   * Issue 36: a product sold by kg in a shop whose scale truncates: the line's gross is cut down to
   * the cent (core lineTotals), as the scale's label. Read in the products statement (the client's
   * row is a platform table), no statement of its own.
   */
  truncate?: boolean;
};

/** Units sold in fractions (kg, litres, metres): any other needs a whole quantity. */
const FRACTIONAL_UNITS = ['kg', 'g', 'l', 'ml', 'm', 'm2'];

const fail = (message: string, path: string) => new AppError(422, message, [{ path, message }]);

function prepareProducts(tx: Executor) {
  return tx
    .select({
      id: products.id,
      name: products.name,
      sku: products.sku,
      barcode: products.barcode,
      unit: products.unit,
      productType: products.productType,
      salePriceCents: products.salePriceCents,
      active: products.active,
      hasVariants: sql<boolean>`exists (select 1 from product_variants v where v.product_id = "products"."id")`,
      groups: activeGroupsSql(groupIdsOf(sql`"products"."id"`), sql`"products"."client_id"`),
      truncate: sql<boolean>`("products"."unit" = 'kg' and exists (select 1 from clients c where c.id = "products"."client_id" and c.scale_rounding = 'truncate'))`,
    })
    .from(products)
    .where(
      and(
        eq(products.clientId, sql.placeholder('clientId')),
        sql`${products.id} = any(${sql.placeholder('ids')}::int[])`,
      ),
    )
    .prepare('price_products');
}

type ProductRow = Awaited<ReturnType<ReturnType<typeof prepareProducts>['execute']>>[number];

/**
 * The products read of every priced line (a comanda's every tap, every checkout): prepared once per
 * executor (PostgreSQL keeps it as a named statement per connection, parsed and planned once), and
 * the reads made at the same moment share one statement, one per client (lib/batch.ts: 20 waiters
 * tapping at once cost one read). A transaction gets its own (held until the transaction is gone).
 */
const productsLoader = loaderPer((tx: Executor) => {
  const statement = prepareProducts(tx);
  return sameMomentLoader<{ clientId: number; productId: number }, ProductRow | null>(async (keys) => {
    const idsByClient = new Map<number, Set<number>>();
    for (const { clientId, productId } of keys) {
      const ids = idsByClient.get(clientId) ?? new Set();
      idsByClient.set(clientId, ids.add(productId));
    }
    // Per client: a product of one shop never answers another shop's key (tenancy).
    const found = new Map<string, ProductRow>();
    for (const [clientId, ids] of idsByClient) {
      // An int[] literal: both drivers pass text, the statement casts it.
      for (const row of await statement.execute({ clientId, ids: `{${[...ids].join(',')}}` }))
        found.set(`${clientId}:${row.id}`, row);
    }
    return keys.map(({ clientId, productId }) => found.get(`${clientId}:${productId}`) ?? null);
  });
});

/**
 * Prices the items of a sale from the catalog (the client never sends a price). 422 on the item's
 * field (`items.N.productId`, `.variantId`, `.quantity`, `.additionals`) for an unknown or inactive
 * product or variant, a product with variants sold without one, a fraction of a unit sold whole,
 * or add-ons not offered or outside their group's min..max.
 */
export async function priceItems(
  tx: Executor,
  clientId: number,
  items: readonly ItemToPrice[],
  options: {
    /**
     * false: a group's minimum is not asked (a marketplace order: the customer chose in the
     * marketplace's own options, which come as the item's notes, not as the shop's add-ons).
     */
    requiredChoices?: boolean;
  } = {},
): Promise<PricedItem[]> {
  const productIds = [...new Set(items.map((i) => i.productId))];
  const variantIds = [...new Set(items.flatMap((i) => (i.variantId ? [i.variantId] : [])))];
  const additionalIds = [...new Set(items.flatMap((i) => i.additionals.map((a) => a.id)))];
  const productRows = (
    await productsLoader(tx).loadMany(productIds.map((productId) => ({ clientId, productId })))
  ).flatMap((row) => {
    if (row instanceof Error) throw row;
    return row ? [row] : [];
  });
  const variantRows = variantIds.length
    ? await tx
        .select({
          id: productVariants.id,
          productId: productVariants.productId,
          sku: productVariants.sku,
          barcode: productVariants.barcode,
          priceCents: productVariants.priceCents,
          active: productVariants.active,
          color: productGridColors.name,
          size: productGridSizes.name,
        })
        .from(productVariants)
        .leftJoin(productGridColors, eq(productGridColors.id, productVariants.colorId))
        .leftJoin(productGridSizes, eq(productGridSizes.id, productVariants.sizeId))
        .where(and(eq(productVariants.clientId, clientId), inArray(productVariants.id, variantIds)))
    : [];
  const additionalRows = await findAddOnItems(tx, clientId, additionalIds);
  const productsById = new Map(productRows.map((p) => [p.id, p]));
  const variantsById = new Map(variantRows.map((v) => [v.id, v]));
  const additionalsById = new Map(additionalRows.map((a) => [a.id, a]));

  return items.map((item, index) => {
    const path = `items.${index}`;
    const product = productsById.get(item.productId);
    if (!product) throw fail('Produto não encontrado', `${path}.productId`);
    if (!product.active) throw fail(`O produto ${product.name} está inativo`, `${path}.productId`);
    let variant: (typeof variantRows)[number] | null = null;
    if (item.variantId !== null) {
      variant = variantsById.get(item.variantId) ?? null;
      if (!variant || variant.productId !== product.id)
        throw fail('Variação não encontrada', `${path}.variantId`);
      if (!variant.active) throw fail(`Esta variação de ${product.name} está inativa`, `${path}.variantId`);
    } else if (product.hasVariants) {
      throw fail(`Escolha a variação (cor/tamanho) de ${product.name}`, `${path}.variantId`);
    }
    const fractional = product.productType === 'weighed' || FRACTIONAL_UNITS.includes(product.unit);
    if (!fractional && !Number.isInteger(item.quantity)) {
      throw fail(`${product.name} é vendido por unidade: use uma quantidade inteira`, `${path}.quantity`);
    }
    // Add-ons: items of active groups linked to this product, each group within its min..max.
    const groups = readGroups(product.groups);
    const chosen: PricedItem['additionals'] = [];
    const perGroup = new Map<number, number>();
    for (const a of item.additionals) {
      const additional = additionalsById.get(a.id);
      const group = additional && groups.find((g) => g.groupId === additional.groupId);
      if (!additional || !group || !additional.active) {
        throw fail(`Adicional indisponível para ${product.name}`, `${path}.additionals`);
      }
      perGroup.set(group.groupId, (perGroup.get(group.groupId) ?? 0) + a.quantity);
      chosen.push({
        id: additional.id,
        name: additional.name,
        priceCents: additional.priceCents,
        quantity: a.quantity,
      });
    }
    for (const g of groups) {
      const n = perGroup.get(g.groupId) ?? 0;
      if ((options.requiredChoices !== false && n < g.minQuantity) || n > g.maxQuantity) {
        const range =
          g.minQuantity === g.maxQuantity ? `${g.minQuantity}` : `${g.minQuantity} a ${g.maxQuantity}`;
        throw fail(
          `Escolha ${range} ${g.maxQuantity === 1 ? 'item' : 'itens'} em ${g.name} (${product.name})`,
          `${path}.additionals`,
        );
      }
    }
    return {
      productId: product.id,
      variantId: variant?.id ?? null,
      description: product.name,
      variantName: variant ? variantName(variant.color, variant.size) || null : null,
      sku: variant?.sku ?? product.sku,
      barcode: variant?.barcode ?? product.barcode,
      unit: product.unit,
      unitPriceCents: variant?.priceCents ?? product.salePriceCents,
      additionals: chosen,
      ...(product.truncate ? { truncate: true } : {}),
    };
  });
}
