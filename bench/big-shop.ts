/**
 * A big generated shop in a PGlite data folder (issue 37's benches: bench/backup-large.ts,
 * bench/shop-export-large.ts): the demo shop plus `products` products and `sales` finished sales (1-5
 * lines each, one pix payment) spread over two years, written with SQL with triggers off (as
 * bench/move-to-postgres.ts), the products' stock high enough that no sale is refused (or low, for a
 * copy that only reads it).
 */
import type { PGlite } from '@electric-sql/pglite';
import { type Database, fromPglite, migrateDatabase, openPglite } from '../apps/api/src/db/client.ts';
import { seedDemo } from '../apps/api/src/seed.ts';

export type BigShop = { client: PGlite; database: Database; clientId: number; userId: number };

/** Opens (creates) `dataDir/pglite` (the server's layout), migrates, seeds the demo shop and fills it; left open. */
export async function generateShop(
  dataDir: string,
  size: {
    sales: number;
    products: number /** 'low': 0-49 per product (bench/move-to-postgres.ts) */;
    stock?: 'high' | 'low';
  },
): Promise<BigShop> {
  const { sales: SALES, products: PRODUCTS } = size;
  const stock = size.stock === 'low' ? '(g % 50)::numeric' : '1000000';
  const client = await openPglite(dataDir); // dataDir/pglite, as the server opens it
  const database = fromPglite(client);
  await migrateDatabase(database);
  const { clientId } = await seedDemo(database.db);
  const [{ id: userId }] = (
    await client.query<{ id: number }>(`select id from users where email = 'administrador@demo.com.br'`)
  ).rows;
  await client.exec('set session_replication_role = replica');
  await client.exec(`
    begin;
    insert into products (client_id, name, name_key, search_text, sku, sale_price_cents, stock)
      select ${clientId}, 'Produto bench ' || g, 'produto bench ' || lpad(g::text, 7, '0'),
        'produto bench ' || g, 'BENCH-' || g, 500 + (g * 137) % 20000, ${stock}
      from generate_series(1, ${PRODUCTS}) g;
    create temp table gen_items as
      with p as (select array_agg(id order by id) as ids, array_agg(sale_price_cents order by id) as prices
                 from products where client_id = ${clientId} and name like 'Produto bench %')
      select k, pos, p.ids[1 + ((k::bigint * 7919 + pos * 104729) % array_length(p.ids, 1))::int] as product_id,
        p.prices[1 + ((k::bigint * 7919 + pos * 104729) % array_length(p.ids, 1))::int] as price
      from generate_series(1, ${SALES}) k
      cross join lateral generate_series(1, 1 + ((k % 1000) * 7919) % 5) pos cross join p;
    create temp table gen_sales as
      select k, count(*)::int as items, sum(price)::int as amount,
        now() - ((${SALES} - k) * (interval '730 days' / ${SALES})) as at
      from gen_items group by k;
    insert into sales (client_id, number, user_id, status, total_items, total_quantity, total_cents,
        final_amount_cents, finished_at, created_at, updated_at)
      select ${clientId}, 1000000 + k, ${userId}, 'finished', items, items, amount, amount, at, at, at
      from gen_sales order by k;
    insert into sale_items (sale_id, client_id, position, product_id, description, unit, quantity,
        unit_price_cents, unit_total_cents, gross_cents, total_cents)
      select s.id, ${clientId}, i.pos, i.product_id, 'Produto bench', 'un', 1, i.price, i.price, i.price, i.price
      from gen_items i join sales s on s.client_id = ${clientId} and s.number = 1000000 + i.k order by i.k, i.pos;
    insert into sale_payments (sale_id, client_id, position, method, amount_cents)
      select s.id, ${clientId}, 1, 'pix', s.final_amount_cents from sales s
      where s.client_id = ${clientId} and s.number > 1000000;
    drop table gen_items;
    drop table gen_sales;
    commit;`);
  await client.exec('set session_replication_role = origin');
  await client.exec('checkpoint');
  return { client, database, clientId, userId };
}
