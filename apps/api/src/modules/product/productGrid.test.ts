import { BARCODE_TAKEN, type ProductVariant, SKU_TAKEN } from '@balcao/core/product';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeProduct, newEan13 } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const names = (variants: ProductVariant[]) => variants.map((v) => v.name);

async function putVariant(auth: Record<string, string>, v: ProductVariant, changes: Record<string, unknown>) {
  return t.app.inject({
    method: 'PUT',
    url: `/v1/product-grid/${v.id}`,
    headers: auth,
    payload: {
      sku: v.sku,
      barcode: v.barcode,
      priceCents: v.priceCents,
      active: v.active,
      updatedAt: v.updatedAt,
      ...changes,
    },
  });
}

describe('variants grid', () => {
  it('creates one variant per colour x size with SKUs derived from the product SKU', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, {
      name: 'Camiseta Básica',
      sku: 'CAM',
      productType: 'variants',
      salePriceCents: 4990,
      grid: { colors: ['Azul marinho', 'Preto'], sizes: ['P', 'M', 'G'] },
    });
    expect(p.colors.map((c: { name: string }) => c.name)).toEqual(['Azul marinho', 'Preto']);
    expect(p.sizes.map((s: { name: string }) => s.name)).toEqual(['P', 'M', 'G']);
    expect(names(p.variants)).toEqual([
      'Azul marinho / P',
      'Azul marinho / M',
      'Azul marinho / G',
      'Preto / P',
      'Preto / M',
      'Preto / G',
    ]);
    expect(p.variants[0]).toMatchObject({
      sku: 'CAM-AZUL-MARINHO-P',
      barcode: null,
      priceCents: null,
      effectivePriceCents: 4990,
      stock: 0,
      active: true,
    });
    expect(p.variantCount).toBe(6);
  });

  it('edits a variant: price override, barcode (checked and unique), stock sums into the product', async () => {
    const { client, auth } = await createClientWithUsers(t, [6]);
    const p = await makeProduct(t, auth, {
      name: 'Tênis Corrida',
      sku: 'TEN',
      productType: 'variants',
      salePriceCents: 29990,
      grid: { colors: ['Branco'], sizes: ['39', '40'] },
    });
    const [v39, v40] = p.variants;
    const barcode = newEan13();
    const res = await putVariant(auth, v39, { priceCents: 31990, barcode, stock: 4 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ priceCents: 31990, effectivePriceCents: 31990, barcode, stock: 4 });
    await putVariant(auth, v40, { stock: 2.5 });
    const product = (await t.app.inject({ method: 'GET', url: `/v1/product/${p.id}`, headers: auth })).json();
    expect(product.stock).toBe(6.5);

    // The scanner finds the variant with its product.
    const scan = (
      await t.app.inject({ method: 'GET', url: `/v1/product/barcode/${barcode}`, headers: auth })
    ).json();
    expect(scan.product.id).toBe(p.id);
    expect(scan.variant).toMatchObject({ id: v39.id, name: 'Branco / 39', effectivePriceCents: 31990 });
    // And the list search too.
    const listed = await t.app.inject({
      method: 'GET',
      url: `/v1/product/client/${client.id}?q=${barcode}`,
      headers: auth,
    });
    expect(listed.json().items.map((i: { id: number }) => i.id)).toEqual([p.id]);

    const stale = await putVariant(auth, v39, { priceCents: 1 });
    expect(stale.statusCode).toBe(409);
    const fresh = res.json();
    const badEan = await putVariant(auth, fresh, { barcode: '1234567890123' });
    expect(badEan.statusCode).toBe(400);
    // A barcode or SKU of another product or variant of the client is refused.
    const other = await makeProduct(t, auth, { sku: 'OUTRO', barcode: newEan13() });
    const dupBarcode = await putVariant(auth, fresh, { barcode: other.barcode });
    expect(dupBarcode.statusCode).toBe(409);
    expect(dupBarcode.json().message).toBe(BARCODE_TAKEN);
    const dupSku = await putVariant(auth, fresh, { sku: 'outro' });
    expect(dupSku.json().message).toBe(SKU_TAKEN);
    const productWithVariantBarcode = await t.app.inject({
      method: 'POST',
      url: '/v1/product',
      headers: auth,
      payload: { name: 'Copia', salePriceCents: 1, barcode },
    });
    expect(productWithVariantBarcode.statusCode).toBe(409);
  });

  it('regenerates the grid keeping the data of combinations that stay, removing the others', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, {
      name: 'Bermuda',
      sku: 'BER',
      productType: 'variants',
      salePriceCents: 7990,
      grid: { colors: ['Azul', 'Preto'], sizes: ['M', 'G'] },
    });
    const azulM = p.variants.find((v: ProductVariant) => v.name === 'Azul / M');
    const barcode = newEan13();
    await putVariant(auth, azulM, { priceCents: 8990, barcode, stock: 7, sku: 'BER-AZ-M-ESPECIAL' });

    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${p.id}/grid`,
      headers: auth,
      payload: { colors: ['azul', 'Branco'], sizes: ['P', 'M'] },
    });
    expect(res.statusCode).toBe(200);
    const g = res.json();
    expect(g.colors.map((c: { name: string }) => c.name)).toEqual(['azul', 'Branco']);
    expect(names(g.variants)).toEqual(['azul / P', 'azul / M', 'Branco / P', 'Branco / M']);
    const kept = g.variants.find((v: ProductVariant) => v.name === 'azul / M');
    expect(kept).toMatchObject({
      id: azulM.id,
      priceCents: 8990,
      barcode,
      stock: 7,
      sku: 'BER-AZ-M-ESPECIAL',
    });
    expect(g.variants.find((v: ProductVariant) => v.name === 'Branco / P').sku).toBe('BER-BRANCO-P');
    expect(g.stock).toBe(7);
    // Preto variants are gone.
    expect(g.variants.some((v: ProductVariant) => v.color === 'Preto')).toBe(false);

    const empty = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${p.id}/grid`,
      headers: auth,
      payload: { colors: [], sizes: [] },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Informe ao menos uma cor ou um tamanho');
    const repeated = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${p.id}/grid`,
      headers: auth,
      payload: { colors: ['Azul', 'AZUL'], sizes: [] },
    });
    expect(repeated.json().message).toContain('Cores: há nomes repetidos');
  });

  it('grid of sizes only; refuses a grid on a simple product and a type change while variants exist', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, {
      name: 'Anel',
      productType: 'variants',
      grid: { colors: [], sizes: ['16', '18'] },
    });
    expect(names(p.variants)).toEqual(['16', '18']);
    expect(p.variants[0].sku).toBeNull();

    const simple = await makeProduct(t, auth, { name: 'Caneca' });
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${simple.id}/grid`,
      headers: auth,
      payload: { colors: ['Azul'] },
    });
    expect(refused.statusCode).toBe(422);
    const change = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${p.id}`,
      headers: auth,
      payload: { name: 'Anel', salePriceCents: 1000, productType: 'simple', updatedAt: p.updatedAt },
    });
    expect(change.statusCode).toBe(422);
    expect(change.json().message).toBe('Este produto tem variações: exclua a grade antes de mudar o tipo');
    const cleared = await t.app.inject({ method: 'DELETE', url: `/v1/product/${p.id}/grid`, headers: auth });
    expect(cleared.json().variants).toEqual([]);
  });

  it("another client cannot change a product's grid or variants (404)", async () => {
    const a = await createClientWithUsers(t, [1]);
    const b = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, a.auth, {
      name: 'Boné',
      productType: 'variants',
      grid: { colors: ['Preto'] },
    });
    const grid = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${p.id}/grid`,
      headers: b.auth,
      payload: { colors: ['Rosa'] },
    });
    expect(grid.statusCode).toBe(404);
    expect((await putVariant(b.auth, p.variants[0], { priceCents: 1 })).statusCode).toBe(404);
  });
});
