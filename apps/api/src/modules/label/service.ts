import type { LabelItem } from '@balcao/core/labels/printerLabels';
import type { Executor } from '../../db/client.ts';
import { unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { findProduct } from '../product/find.ts';

/**
 * What each chosen product's label shows (issue 36): name, variant, the price that applies, and the
 * code (the variant's or the product's barcode, else its SKU, else "P<id>"), read through the
 * product module's service.
 */
export async function labelItems(
  db: Executor,
  actor: Actor,
  chosen: readonly { productId: number; variantId: number | null; copies: number }[],
): Promise<LabelItem[]> {
  const items: LabelItem[] = [];
  for (const [index, c] of chosen.entries()) {
    const product = await findProduct(db, actor, c.productId).catch(() => {
      throw unprocessable('Produto não encontrado', [
        { path: `items.${index}`, message: 'Produto não encontrado' },
      ]);
    });
    const variant = c.variantId === null ? null : product.variants.find((v) => v.id === c.variantId);
    if (c.variantId !== null && !variant)
      throw unprocessable('Variação não encontrada', [
        { path: `items.${index}`, message: 'Variação não encontrada' },
      ]);
    items.push({
      name: product.name,
      variantName: variant?.name ?? null,
      priceCents: variant?.effectivePriceCents ?? product.salePriceCents,
      code: variant?.barcode ?? variant?.sku ?? product.barcode ?? product.sku ?? `P${product.id}`,
      copies: c.copies,
    });
  }
  return items;
}
