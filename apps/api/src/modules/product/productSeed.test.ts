import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { seedCatalog } from './seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo catalog', () => {
  it('seeds a lanchonete: burgers with add-ons, drinks with barcodes (some low), a T-shirt grid', async () => {
    const { client, auth } = await createClientWithUsers(t, [1], { clientTypeId: 7 });
    await seedCatalog(t.database.db, client.id);
    const list = async (qs: string) =>
      (
        await t.app.inject({ method: 'GET', url: `/v1/product/client/${client.id}?${qs}`, headers: auth })
      ).json();
    expect((await list('pageSize=100')).total).toBe(25);
    const burger = (await list('q=x-bacon')).items[0];
    const detail = (
      await t.app.inject({ method: 'GET', url: `/v1/product/${burger.id}`, headers: auth })
    ).json();
    expect(detail.additionalGroups.map((g: { name: string }) => g.name)).toEqual([
      'Adicionais',
      'Ponto da carne',
      'Molhos',
    ]);
    expect((await list('lowStock=true')).items.map((p: { name: string }) => p.name)).toEqual([
      'Água Mineral sem Gás 500 ml',
      'Coca-Cola Zero Lata 350 ml',
    ]);
    const shirt = (await list('q=camiseta')).items[0];
    expect(shirt).toMatchObject({ variantCount: 8, stock: 40 });
    const shirtDetail = (
      await t.app.inject({ method: 'GET', url: `/v1/product/${shirt.id}`, headers: auth })
    ).json();
    const gg = shirtDetail.variants.find((v: { name: string }) => v.name === 'Preto / GG');
    const scan = (
      await t.app.inject({ method: 'GET', url: `/v1/product/barcode/${gg.barcode}`, headers: auth })
    ).json();
    expect(scan.variant).toMatchObject({ name: 'Preto / GG', effectivePriceCents: 5490 });
  });
});
