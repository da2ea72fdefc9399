import { BARCODE_TAKEN, SCALE_CODE_TAKEN, SKU_TAKEN, searchKey } from '@balcao/core/product';
import { and, eq, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError, duplicate } from '../../errors.ts';
import { num } from '../../lib/pg.ts';
import { products, productVariants } from './schema.ts';

/** Rules every product write keeps (create, update, grid, variant). */

/** Unique constraints and their messages (a race the service checks did not catch). */
export const UNIQUE = {
  products_client_sku_uq: SKU_TAKEN,
  products_client_barcode_uq: BARCODE_TAKEN,
  products_client_scale_code_uq: SCALE_CODE_TAKEN,
  product_variants_client_sku_uq: SKU_TAKEN,
  product_variants_client_barcode_uq: BARCODE_TAKEN,
};

/** 422 on one field of the product form. */
export const invalidField = (path: string, message: string) =>
  new AppError(422, message, [{ path, message }]);

type Codes = { sku: string | null; barcode: string | null };
type Except = { productId?: number; variantId?: number };

/** SKU and barcode are unique per client across products and variants (a scan finds one thing). */
export async function assertCodesFree(tx: Executor, clientId: number, codes: Codes, except: Except = {}) {
  const { sku, barcode } = codes;
  if (!sku && !barcode) return;
  const productHit = await tx
    .select({ sku: products.sku, barcode: products.barcode })
    .from(products)
    .where(
      and(
        eq(products.clientId, clientId),
        except.productId ? ne(products.id, except.productId) : undefined,
        or(
          sku ? eq(sql`lower(${products.sku})`, sku.toLowerCase()) : undefined,
          barcode ? eq(products.barcode, barcode) : undefined,
        ),
      ),
    )
    .limit(2);
  const variantHit = await tx
    .select({ sku: productVariants.sku, barcode: productVariants.barcode })
    .from(productVariants)
    .where(
      and(
        eq(productVariants.clientId, clientId),
        except.variantId ? ne(productVariants.id, except.variantId) : undefined,
        or(
          sku ? eq(sql`lower(${productVariants.sku})`, sku.toLowerCase()) : undefined,
          barcode ? eq(productVariants.barcode, barcode) : undefined,
        ),
      ),
    )
    .limit(2);
  const hits = [...productHit, ...variantHit];
  if (sku && hits.some((h) => h.sku?.toLowerCase() === sku.toLowerCase()))
    throw duplicate(SKU_TAKEN, [{ path: 'sku', message: SKU_TAKEN }]);
  if (barcode && hits.some((h) => h.barcode === barcode))
    throw duplicate(BARCODE_TAKEN, [{ path: 'barcode', message: BARCODE_TAKEN }]);
}

/**
 * Recomputes what depends on the variants: the search text (name, SKU and barcode of the product
 * and of its variants) and, for a product with variants, its stock as the sum of theirs.
 */
export async function refreshDerived(tx: Executor, productId: number) {
  const [p] = await tx
    .select({
      name: products.name,
      sku: products.sku,
      barcode: products.barcode,
      productType: products.productType,
    })
    .from(products)
    .where(eq(products.id, productId));
  const variants = await tx
    .select({ sku: productVariants.sku, barcode: productVariants.barcode, stock: productVariants.stock })
    .from(productVariants)
    .where(eq(productVariants.productId, productId));
  const parts = [p.name, p.sku, p.barcode, ...variants.flatMap((v) => [v.sku, v.barcode])].filter(
    Boolean,
  ) as string[];
  const set: Partial<typeof products.$inferInsert> = {
    nameKey: searchKey(p.name),
    searchText: searchKey(parts.join(' ')),
  };
  if (p.productType === 'variants' && variants.length > 0) {
    // Sum in thousandths: exact for numeric(14,3).
    set.stock = variants.reduce((sum, v) => sum + Math.round(num(v.stock) * 1000), 0) / 1000;
  }
  await tx.update(products).set(set).where(eq(products.id, productId));
}
