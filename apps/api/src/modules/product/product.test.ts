import { BARCODE_CHECK_MESSAGE, BARCODE_LENGTH_MESSAGE } from '@balcao/core/barcode';
import { BARCODE_TAKEN, SKU_TAKEN } from '@balcao/core/product';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { api, type Headers, makeProduct, newEan13 } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, headers: Headers, payload: Record<string, unknown>) =>
  api(t, headers).post(url, payload);
const get = (url: string, headers: Headers) => api(t, headers).get(url);

describe('product CRUD', () => {
  it('creates a product (201) with category, brand and measures; reads it back with its margin', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const category = (await post('/product-category', auth, { name: 'Bebidas' })).json();
    const brand = (await post('/product-brand', auth, { name: 'Coca-Cola' })).json();
    const barcode = '7894900011517';
    const res = await post('/product', auth, {
      name: 'Coca-Cola 2L',
      description: 'Refrigerante de cola, garrafa PET',
      sku: 'COCA-2L',
      barcode,
      unit: 'un',
      salePriceCents: 1299,
      costPriceCents: 780,
      categoryId: category.id,
      brandId: brand.id,
      minStock: 6,
      stock: 24,
      weightKg: 2.1,
      heightCm: 33.5,
      widthCm: 10,
      lengthCm: 10,
    });
    expect(res.statusCode).toBe(201);
    const p = res.json();
    expect(p).toMatchObject({
      id: expect.any(Number),
      name: 'Coca-Cola 2L',
      sku: 'COCA-2L',
      barcode,
      productType: 'simple',
      salePriceCents: 1299,
      costPriceCents: 780,
      marginPercent: 39.95,
      category: { id: category.id, name: 'Bebidas' },
      brand: { id: brand.id, name: 'Coca-Cola' },
      active: true,
      stockControl: true,
      stock: 24,
      minStock: 6,
      isLowStock: false,
      weightKg: 2.1,
      heightCm: 33.5,
      images: [],
      variants: [],
      additionalGroups: [],
    });
    const read = await get(`/product/${p.id}`, auth);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(p);
    // The category now counts it.
    expect((await get(`/product-category/${category.id}`, auth)).json().productCount).toBe(1);
  });

  it('validates input in Portuguese: required name and price, barcode check digit, weighed unit', async () => {
    const { auth } = await createClientWithUsers(t, [2]);
    const empty = await post('/product', auth, {});
    expect(empty.statusCode).toBe(400);
    const paths = empty.json().issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'salePriceCents']));
    expect(empty.json().issues.find((i: { path: string }) => i.path === 'name').message).toBe(
      'O campo é obrigatório',
    );

    const badEan = await post('/product', auth, {
      name: 'X',
      salePriceCents: 100,
      barcode: '7894900011518',
    });
    expect(badEan.statusCode).toBe(400);
    expect(badEan.json().issues[0]).toEqual({ path: 'barcode', message: BARCODE_CHECK_MESSAGE });
    const shortEan = await post('/product', auth, { name: 'X', salePriceCents: 100, barcode: '12345' });
    expect(shortEan.json().issues[0].message).toBe(BARCODE_LENGTH_MESSAGE);
    for (const ok of ['96385074', '036000291452', '17894900011514']) {
      const res = await post('/product', auth, { name: `Código ${ok}`, salePriceCents: 100, barcode: ok });
      expect(res.statusCode).toBe(201);
    }

    const weighed = await post('/product', auth, {
      name: 'Queijo',
      salePriceCents: 5990,
      productType: 'weighed',
      unit: 'un',
    });
    expect(weighed.statusCode).toBe(400);
    expect(weighed.json().issues[0]).toEqual({
      path: 'unit',
      message: 'Produto pesável deve usar a unidade kg ou g',
    });
    const negative = await post('/product', auth, { name: 'X', salePriceCents: -1 });
    expect(negative.json().issues[0].message).toBe('Preço de venda não pode ser negativo');
    const threeDecimals = await post('/product', auth, { name: 'X', salePriceCents: 1, stock: 1.2345 });
    expect(threeDecimals.json().issues[0].message).toBe('Estoque: use no máximo 3 casas decimais');
  });

  it('refuses a SKU (any case) or barcode already used in the client, not in another client', async () => {
    const a = await createClientWithUsers(t, [1]);
    const b = await createClientWithUsers(t, [1]);
    const barcode = newEan13();
    await makeProduct(t, a.auth, { sku: 'ABC-1', barcode });
    const dupSku = await post('/product', a.auth, { name: 'Outro', salePriceCents: 1, sku: 'abc-1' });
    expect(dupSku.statusCode).toBe(409);
    expect(dupSku.json().message).toBe(SKU_TAKEN);
    const dupBarcode = await post('/product', a.auth, { name: 'Outro', salePriceCents: 1, barcode });
    expect(dupBarcode.statusCode).toBe(409);
    expect(dupBarcode.json().message).toBe(BARCODE_TAKEN);
    await makeProduct(t, b.auth, { sku: 'ABC-1', barcode });
  });

  it('updates with the current updatedAt, refuses a stale one (409); stock changes only when sent', async () => {
    const { auth } = await createClientWithUsers(t, [6]);
    const p = await makeProduct(t, auth, { name: 'Pão de queijo', stock: 10 });
    const body = { name: 'Pão de queijo mineiro', salePriceCents: 850, updatedAt: p.updatedAt };
    const ok = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${p.id}`,
      headers: auth,
      payload: body,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Pão de queijo mineiro', salePriceCents: 850, stock: 10 });
    const stale = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${p.id}`,
      headers: auth,
      payload: body,
    });
    expect(stale.statusCode).toBe(409);
    const withStock = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${p.id}`,
      headers: auth,
      payload: { ...body, stock: 3.5, updatedAt: ok.json().updatedAt },
    });
    expect(withStock.json().stock).toBe(3.5);
  });

  it('deletes a product (then 404)', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/product/${p.id}`, headers: auth })).statusCode,
    ).toBe(200);
    expect((await get(`/product/${p.id}`, auth)).statusCode).toBe(404);
  });
});

describe('product list: search, filters, sort, pages', () => {
  it('finds by part of the name (ignoring accents and case), by SKU and by barcode', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const barcode = newEan13();
    await makeProduct(t, auth, { name: 'Pão Francês', sku: 'PAO-FR' });
    await makeProduct(t, auth, { name: 'Camiseta Básica Algodão', sku: 'CAM-001', barcode });
    await makeProduct(t, auth, { name: 'Suco de Laranja 1L', sku: 'SUCO-LAR' });
    const names = async (q: string) =>
      (await get(`/product/client/${client.id}?q=${encodeURIComponent(q)}`, auth))
        .json()
        .items.map((p: { name: string }) => p.name);
    expect(await names('pao')).toEqual(['Pão Francês']);
    expect(await names('BÁSICA')).toEqual(['Camiseta Básica Algodão']);
    expect(await names('camis algod')).toEqual(['Camiseta Básica Algodão']);
    expect(await names('cam-0')).toEqual(['Camiseta Básica Algodão']);
    expect(await names(barcode)).toEqual(['Camiseta Básica Algodão']);
    expect(await names('laranja')).toEqual(['Suco de Laranja 1L']);
    expect(await names('100%_')).toEqual([]);
  });

  it('filters by category, brand, active and low stock; sorts; paginates with the total', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const cat = (await post('/product-category', auth, { name: 'Lanches' })).json();
    const brand = (await post('/product-brand', auth, { name: 'Casa' })).json();
    await makeProduct(t, auth, {
      name: 'X-Burger',
      salePriceCents: 2500,
      categoryId: cat.id,
      brandId: brand.id,
    });
    await makeProduct(t, auth, {
      name: 'X-Salada',
      salePriceCents: 2800,
      categoryId: cat.id,
      stock: 1,
      minStock: 5,
    });
    await makeProduct(t, auth, { name: 'Água', salePriceCents: 400, active: false });
    await makeProduct(t, auth, { name: 'Batata', salePriceCents: 1500, stock: 50, minStock: 5 });
    const list = async (qs: string) => (await get(`/product/client/${client.id}?${qs}`, auth)).json();

    expect((await list('')).items.map((p: { name: string }) => p.name)).toEqual([
      'Água',
      'Batata',
      'X-Burger',
      'X-Salada',
    ]);
    expect((await list(`categoryId=${cat.id}`)).total).toBe(2);
    expect((await list(`brandId=${brand.id}`)).items.map((p: { name: string }) => p.name)).toEqual([
      'X-Burger',
    ]);
    expect((await list('active=false')).items.map((p: { name: string }) => p.name)).toEqual(['Água']);
    const low = await list('lowStock=true');
    expect(low.items.map((p: { name: string; isLowStock: boolean }) => [p.name, p.isLowStock])).toEqual([
      ['X-Salada', true],
    ]);
    expect((await list('sort=-salePriceCents')).items[0].name).toBe('X-Salada');
    const page2 = await list('pageSize=3&page=2');
    expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(page2.items.map((p: { name: string }) => p.name)).toEqual(['X-Salada']);
    // Narrow filters sort and count their matches; a page past the end still tells the total.
    expect(
      (await list(`categoryId=${cat.id}&sort=-salePriceCents`)).items.map((p: { name: string }) => p.name),
    ).toEqual(['X-Salada', 'X-Burger']);
    expect(await list('q=x-&page=3&pageSize=1')).toMatchObject({ items: [], total: 2, page: 3 });
    // The unfiltered total comes from the per-client counter: it follows inserts and deletes.
    const water = (await list('q=agua')).items[0];
    await t.app.inject({ method: 'DELETE', url: `/v1/product/${water.id}`, headers: auth });
    expect((await list('')).total).toBe(3);
    expect((await get(`/product/client/${client.id}?pageSize=101`, auth)).statusCode).toBe(400);
    expect((await get(`/product/client/${client.id}?sort=password`, auth)).statusCode).toBe(400);
    expect((await get(`/product/client/${client.id}?lowStock=talvez`, auth)).statusCode).toBe(400);
  });
});

describe('barcode lookup (PDV scanner)', () => {
  it('answers the product of a barcode, or of a SKU typed instead, and 404 for an unknown code', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const barcode = newEan13();
    const p = await makeProduct(t, auth, { name: 'Guaraná Lata', sku: 'GUA-350', barcode });
    const hit = await get(`/product/barcode/${barcode}`, auth);
    expect(hit.statusCode).toBe(200);
    expect(hit.json()).toMatchObject({ product: { id: p.id, name: 'Guaraná Lata' }, variant: null });
    expect((await get('/product/barcode/gua-350', auth)).json().product.id).toBe(p.id);
    const miss = await get(`/product/barcode/${newEan13()}`, auth);
    expect(miss.statusCode).toBe(404);
    expect(miss.json().message).toBe('Nenhum produto com este código de barras');
  });
});

describe('tenancy and roles', () => {
  it("never reads, lists, finds by barcode or changes another client's products (404)", async () => {
    const a = await createClientWithUsers(t, [1]);
    const b = await createClientWithUsers(t, [1]);
    const barcode = newEan13();
    const mine = await makeProduct(t, a.auth, { name: 'Segredo', barcode });
    const bCategory = (await post('/product-category', b.auth, { name: 'Da loja B' })).json();
    expect((await get(`/product/client/${a.client.id}`, b.auth)).statusCode).toBe(404);
    expect((await get(`/product/${mine.id}`, b.auth)).statusCode).toBe(404);
    expect((await get(`/product/barcode/${barcode}`, b.auth)).statusCode).toBe(404);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${mine.id}`,
      headers: b.auth,
      payload: { name: 'Hack', salePriceCents: 1, updatedAt: mine.updatedAt },
    });
    expect(put.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/product/${mine.id}`, headers: b.auth })).statusCode,
    ).toBe(404);
    expect((await get(`/product/client/${b.client.id}?q=segredo`, b.auth)).json().total).toBe(0);
    // Another client's category cannot be used.
    const foreign = await post('/product', a.auth, {
      name: 'X',
      salePriceCents: 1,
      categoryId: bCategory.id,
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().message).toBe('Categoria não encontrada');
    expect((await get(`/product/${mine.id}`, a.auth)).json().name).toBe('Segredo');
  });

  it('lets Vendedor and Garçom read and scan, only catalog roles write, drivers nothing', async () => {
    const { client, users } = await createClientWithUsers(t, [1, 3, 5, 6, 10]);
    const [admin, vendedor, garcom, estoquista, driver] = users.map((u) => bearer(u.token));
    const barcode = newEan13();
    const p = await makeProduct(t, admin, { barcode });
    expect((await get(`/product/client/${client.id}`, vendedor)).statusCode).toBe(200);
    expect((await get(`/product/barcode/${barcode}`, garcom)).statusCode).toBe(200);
    expect((await get(`/product/${p.id}`, driver)).statusCode).toBe(403);
    expect((await post('/product', vendedor, { name: 'X', salePriceCents: 1 })).statusCode).toBe(403);
    expect((await post('/product', estoquista, { name: 'X', salePriceCents: 1 })).statusCode).toBe(201);
  });
});
