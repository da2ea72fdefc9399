import type { ComandaMenu } from '@balcao/core/comanda';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { productsInCategory } from '../product/catalogCounts.ts';
import { categoryService } from '../product-category/service.ts';

/**
 * The waiter PDV's menu: the shop's active categories (the touch grid) and its favourites, the
 * products most added to tabs in the last 30 days (12 at most), with their latest price.
 */
export async function comandaMenu(db: Db, actor: Actor): Promise<ComandaMenu> {
  const categories = await categoryService.list(
    db,
    actor,
    { page: 1, pageSize: 100, active: true, sort: 'name' } as Parameters<typeof categoryService.list>[2],
    productsInCategory,
  );
  const favourites = (
    (await db.execute(sql`select l.product_id as "productId", max(l.description) as description,
        (array_agg(l.unit_price_cents order by l.id desc))[1] as "unitPriceCents", count(*)::int as count
      from comanda_lines l
      where l.client_id = ${actor.clientId} and l.product_id is not null and l.status = 'active'
        and l.added_at > now() - interval '30 days'
      group by l.product_id order by count(*) desc, max(l.description) limit 12`)) as unknown as {
      rows: ComandaMenu['favourites'];
    }
  ).rows.map((f) => ({ ...f, unitPriceCents: Number(f.unitPriceCents), count: Number(f.count) }));
  return { categories: categories.items.map((c) => ({ id: c.id, name: c.name })), favourites };
}
