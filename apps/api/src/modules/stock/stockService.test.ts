import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeProduct } from '../../../test/kit.ts';
import { clients } from '../../db/schema.ts';
import { seedCatalog } from '../product/seed.ts';
import { stockSettings } from './schema.ts';
import { seedStock } from './seed.ts';
import { applyStockMovements, moveStock, type StockMovementInput } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Level = { stock: number; ledger: number };

/** The cached level next to the ledger's sum, for a product (all its rows) or a variant. */
async function levels(productId: number, variantId?: number): Promise<Level> {
  const db = t.database.db;
  const res = variantId
    ? await db.execute(
        sql`select (select stock from product_variants where id = ${variantId}) as stock,
          (select coalesce(sum(quantity), 0) from stock_movements where variant_id = ${variantId}) as ledger`,
      )
    : await db.execute(
        sql`select (select stock from products where id = ${productId}) as stock,
          (select coalesce(sum(quantity), 0) from stock_movements where product_id = ${productId}) as ledger`,
      );
  const row = (res as unknown as { rows: { stock: string; ledger: string }[] }).rows[0];
  return { stock: Number(row.stock), ledger: Number(row.ledger) };
}

async function costOf(productId: number): Promise<number> {
  const res = await t.database.db.execute(sql`select cost_price_cents from products where id = ${productId}`);
  return Number((res as unknown as { rows: { cost_price_cents: number }[] }).rows[0].cost_price_cents);
}

describe('applyStockMovements', () => {
  it('writes the ledger, keeps the cached level equal to its sum and updates the average cost', async () => {
    const { client, users, auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Café 500 g', stock: 10, costPriceCents: 1500 });
    expect(await levels(p.id)).toEqual({ stock: 10, ledger: 10 });
    const ctx = { clientId: client.id, userId: users[0].user.id };
    const result = await moveStock(t.database.db, ctx, [
      { productId: p.id, type: 'entry', quantity: '10', unitCostCents: 1700 },
      { productId: p.id, type: 'exit', quantity: 2.5, reason: 'loss' },
    ]);
    expect(result.movements.map((m) => [m.type, m.quantity])).toEqual([
      ['entry', 10],
      ['exit', -2.5],
    ]);
    expect(await levels(p.id)).toEqual({ stock: 17.5, ledger: 17.5 });
    expect(await costOf(p.id)).toBe(1600);
  });

  it('refuses to go negative with 409 and writes nothing; allows it when the option says so', async () => {
    const { client, users, auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Leite integral', stock: 1 });
    const ctx = { clientId: client.id, userId: users[0].user.id };
    const take: StockMovementInput[] = [{ productId: p.id, type: 'sale', quantity: 2 }];
    await expect(moveStock(t.database.db, ctx, take)).rejects.toMatchObject({
      statusCode: 409,
      message: 'Estoque insuficiente para Leite integral (disponível: 1)',
    });
    expect(await levels(p.id)).toEqual({ stock: 1, ledger: 1 });
    await moveStock(t.database.db, ctx, take, { allowNegative: true });
    expect(await levels(p.id)).toEqual({ stock: -1, ledger: -1 });
  });

  it("follows the client's allowNegativeStock setting", async () => {
    const { client, users, auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Pão francês', stock: 0 });
    const ctx = { clientId: client.id, userId: users[0].user.id };
    await t.database.db.insert(stockSettings).values({ clientId: client.id, allowNegativeStock: true });
    await moveStock(t.database.db, ctx, [{ productId: p.id, type: 'exit', quantity: '0.5' }]);
    expect(await levels(p.id)).toEqual({ stock: -0.5, ledger: -0.5 });
  });

  it('moves a variant and its product together; a variants product needs the variant', async () => {
    const { client, users, auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, {
      name: 'Camiseta',
      productType: 'variants',
      grid: { colors: ['Azul'], sizes: ['P', 'M'] },
    });
    const [vp, vm] = p.variants;
    const ctx = { clientId: client.id, userId: users[0].user.id };
    await moveStock(t.database.db, ctx, [
      { productId: p.id, variantId: vp.id, type: 'entry', quantity: 3, unitCostCents: 2000 },
      { productId: p.id, variantId: vm.id, type: 'entry', quantity: 2, unitCostCents: 2000 },
    ]);
    expect(await levels(p.id)).toEqual({ stock: 5, ledger: 5 });
    expect(await levels(p.id, vp.id)).toEqual({ stock: 3, ledger: 3 });
    await expect(
      moveStock(t.database.db, ctx, [{ productId: p.id, variantId: vm.id, type: 'exit', quantity: 3 }]),
    ).rejects.toMatchObject({
      statusCode: 409,
      message: 'Estoque insuficiente para Camiseta (Azul / M) (disponível: 2)',
    });
    await expect(
      moveStock(t.database.db, ctx, [{ productId: p.id, type: 'exit', quantity: 1 }]),
    ).rejects.toMatchObject({ statusCode: 422 });
  });

  it('writes several products and variants in one call: levels, costs, updatedAt, low stock, no trigger rows', async () => {
    const { client, users, auth } = await createClientWithUsers(t, [1]);
    const a = await makeProduct(t, auth, { name: 'Arroz 5 kg', stock: 10, costPriceCents: 2000 });
    const b = await makeProduct(t, auth, {
      name: 'Feijão 1 kg',
      stock: 6,
      minStock: 5,
      costPriceCents: 800,
    });
    const c = await makeProduct(t, auth, {
      name: 'Bermuda',
      productType: 'variants',
      grid: { colors: ['Preta'], sizes: ['P', 'G'] },
    });
    const [cp, cg] = c.variants;
    const ctx = { clientId: client.id, userId: users[0].user.id };
    await moveStock(t.database.db, ctx, [
      { productId: c.id, variantId: cp.id, type: 'entry', quantity: 4, unitCostCents: 3000 },
      { productId: c.id, variantId: cg.id, type: 'entry', quantity: 2, unitCostCents: 3000 },
    ]);
    const stamps = async () => {
      const res = await t.database.db.execute(
        sql`select id, updated_at::text as stamp from products where id in (${a.id}, ${b.id}, ${c.id})`,
      );
      return new Map(
        (res as unknown as { rows: { id: number; stamp: string }[] }).rows.map((r) => [r.id, r.stamp]),
      );
    };
    const before = await stamps();
    const result = await moveStock(t.database.db, ctx, [
      { productId: b.id, type: 'sale', quantity: '1.5' },
      { productId: a.id, type: 'entry', quantity: 10, unitCostCents: 3000 },
      { productId: c.id, variantId: cg.id, type: 'sale', quantity: 1 },
      { productId: c.id, variantId: cp.id, type: 'sale', quantity: 3 },
    ]);
    expect(result.movements.map((m) => [m.productId, m.variantId, m.quantity])).toEqual([
      [b.id, null, -1.5],
      [a.id, null, 10],
      [c.id, cg.id, -1],
      [c.id, cp.id, -3],
    ]);
    expect(result.lowStock).toEqual([
      { productId: b.id, name: 'Feijão 1 kg', unit: 'un', stock: 4.5, minStock: 5 },
    ]);
    expect(await levels(a.id)).toEqual({ stock: 20, ledger: 20 });
    expect(await levels(b.id)).toEqual({ stock: 4.5, ledger: 4.5 });
    expect(await levels(c.id)).toEqual({ stock: 2, ledger: 2 });
    expect(await levels(c.id, cp.id)).toEqual({ stock: 1, ledger: 1 });
    expect(await levels(c.id, cg.id)).toEqual({ stock: 1, ledger: 1 });
    expect(await costOf(a.id)).toBe(2500);
    expect(await costOf(b.id)).toBe(800);
    // Only the product whose average cost changed gets a new updatedAt.
    const after = await stamps();
    expect(after.get(a.id)).not.toBe(before.get(a.id));
    expect(after.get(b.id)).toBe(before.get(b.id));
    expect(after.get(c.id)).toBe(before.get(c.id));
    // The service's own writes add no trigger adjustment.
    const adjustments = await t.database.db.execute(
      sql`select count(*)::int as n from stock_movements where client_id = ${client.id} and reason = 'product-form'`,
    );
    expect((adjustments as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
  });

  it("answers 404 for another client's product and 422 when stock management is off", async () => {
    const mine = await createClientWithUsers(t, [1]);
    const other = await createClientWithUsers(t, [1]);
    const theirs = await makeProduct(t, other.auth, { name: 'Deles' });
    const ctx = { clientId: mine.client.id, userId: mine.users[0].user.id };
    await expect(
      moveStock(t.database.db, ctx, [{ productId: theirs.id, type: 'entry', quantity: 1, unitCostCents: 1 }]),
    ).rejects.toMatchObject({ statusCode: 404 });
    const p = await makeProduct(t, mine.auth, { name: 'Meu', stock: 1 });
    await t.database.db.update(clients).set({ stockManagement: false }).where(eq(clients.id, mine.client.id));
    await expect(
      moveStock(t.database.db, ctx, [{ productId: p.id, type: 'entry', quantity: 1, unitCostCents: 1 }]),
    ).rejects.toMatchObject({ statusCode: 422, message: 'O controle de estoque está desativado' });
    // Sales are still recorded, never refused.
    await t.database.db.transaction((tx) =>
      applyStockMovements(tx, ctx, [{ productId: p.id, type: 'sale', quantity: 3 }]),
    );
    expect(await levels(p.id)).toEqual({ stock: -2, ledger: -2 });
  });
});

describe('demo stock seed', () => {
  it('adds a pack, an entry, a breakage and a fractioning; cache = ledger for every product', async () => {
    const { client } = await createClientWithUsers(t, [1, 6]);
    await seedCatalog(t.database.db, client.id);
    await seedStock(t.database.db, client.id);
    const rows = (
      (await t.database.db.execute(sql`
        select p.sku, p.stock, coalesce((select sum(m.quantity) from stock_movements m where m.product_id = p.id), 0) as ledger
        from products p where p.client_id = ${client.id}`)) as unknown as {
        rows: { sku: string; stock: string; ledger: string }[];
      }
    ).rows;
    expect(rows.filter((r) => Number(r.stock) !== Number(r.ledger))).toEqual([]);
    const stock = new Map(rows.map((r) => [r.sku, Number(r.stock)]));
    expect(stock.get('BEB-001-FD12')).toBe(5);
    expect(stock.get('BEB-001')).toBe(108);
    const ratios = (
      (await t.database.db.execute(
        sql`select source_quantity, target_quantity from stock_fraction_ratios where client_id = ${client.id}`,
      )) as unknown as { rows: { source_quantity: string; target_quantity: string }[] }
    ).rows;
    expect(ratios.map((r) => [Number(r.source_quantity), Number(r.target_quantity)])).toEqual([[1, 12]]);
  });
});
