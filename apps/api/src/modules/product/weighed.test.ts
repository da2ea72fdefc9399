import { SCALE_CODE_TAKEN, SCALE_CODE_UNIT_MESSAGE } from '@balcao/core/product';
import { buildScaleLabel, SCALE_LABEL_MESSAGES } from '@balcao/core/scale/weighedLabel';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { api, makeProduct, makeShop } from '../../../test/kit.ts';
import { noScaleProduct, SCALE_LABELS_OFF } from './weighed.ts';

/** Issue 36: the shop's weighed-label layout, products' scale codes and the PDV's label lookup. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const weightTruncate = { enabled: true, codeLength: 5, content: 'weight', rounding: 'truncate' } as const;

describe('scale settings', () => {
  it('are off by default, saved by the Administrador, refused to the others and checked', async () => {
    const shop = await makeShop(t, [1, 4]);
    const admin = api(t, shop.auth);
    expect((await admin.get('/settings/scale')).json()).toEqual({
      enabled: false,
      codeLength: 5,
      content: 'price',
      rounding: 'round',
    });
    const saved = await admin.put('/settings/scale', weightTruncate);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(weightTruncate);
    const cashier = api(t, { authorization: `Bearer ${shop.users[1].token}` });
    expect((await cashier.get('/settings/scale')).json()).toEqual(weightTruncate);
    expect((await cashier.put('/settings/scale', weightTruncate)).statusCode).toBe(403);
    const tooLong = await admin.put('/settings/scale', { ...weightTruncate, codeLength: 7 });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe('O código do produto na etiqueta tem de 4 a 6 dígitos');
  });
});

describe('scale code of a product', () => {
  it('is kept, only for products sold by kg, once per shop, and goes through the CSV both ways', async () => {
    const shop = await makeShop(t);
    const a = api(t, shop.auth);
    const bread = await makeProduct(t, shop.auth, {
      name: 'Pão francês',
      productType: 'weighed',
      unit: 'kg',
      salePriceCents: 1690,
      scaleCode: '00012',
    });
    expect(bread.scaleCode).toBe('12');
    const unit = await a.post('/product', { name: 'Sonho', salePriceCents: 500, scaleCode: '00013' });
    expect(unit.statusCode).toBe(400);
    expect(unit.json().message).toBe(SCALE_CODE_UNIT_MESSAGE);
    const twice = await a.post('/product', {
      name: 'Pão de queijo',
      unit: 'kg',
      productType: 'weighed',
      salePriceCents: 3990,
      scaleCode: '012',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(SCALE_CODE_TAKEN);
    // An edit without the field keeps it.
    const { scaleCode: _s, ...rest } = bread;
    const edited = await a.put(`/product/${bread.id}`, {
      name: 'Pão francês (kg)',
      productType: 'weighed',
      unit: 'kg',
      salePriceCents: rest.salePriceCents,
      updatedAt: rest.updatedAt,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().scaleCode).toBe('12');

    const csv =
      'nome;sku;tipo;unidade;preco_venda;codigo_balanca\r\nMortadela;MORT;pesavel;kg;29,90;00031\r\n';
    const imported = await a.post('/product/import', { csv, dryRun: false });
    expect(imported.statusCode, imported.body).toBe(200);
    const exported = await a.get(`/product/client/${shop.client.id}/export?q=mort`);
    const rows = Papa.parse<Record<string, string>>(exported.body.slice(1), { header: true }).data;
    expect(rows[0]).toMatchObject({ nome: 'Mortadela', codigo_balanca: '31', preco_venda: '29,90' });
  });
});

describe('weighed label at the PDV', () => {
  it('reads a weight label and sells the line at the scale truncated amount, to the cent', async () => {
    const shop = await makeShop(t);
    const a = api(t, shop.auth);
    const ham = await makeProduct(t, shop.auth, {
      name: 'Presunto',
      productType: 'weighed',
      unit: 'kg',
      salePriceCents: 2990,
      scaleCode: '00021',
      stock: 10,
    });
    // 0,347 kg x R$ 29,90 = R$ 10,3753: the scale prints R$ 10,37 (half-up would be R$ 10,38).
    const label = buildScaleLabel('00021', 347, weightTruncate);
    const off = await a.get(`/product/weighed/${label}`);
    expect(off.statusCode).toBe(404);
    expect(off.json().message).toBe(SCALE_LABELS_OFF);

    await a.put('/settings/scale', weightTruncate);
    const read = await a.get(`/product/weighed/${label}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      product: { id: ham.id, name: 'Presunto' },
      scaleCode: '00021',
      quantity: 0.347,
      amountCents: 1037,
      labelAmountCents: null,
      priceMismatch: false,
      truncate: true,
    });
    const sale = await a.post('/sale', {
      items: [{ productId: ham.id, quantity: 0.347 }],
      payments: [{ method: 'pix', amountCents: 1037 }],
    });
    expect(sale.statusCode, sale.body).toBe(201);
    expect(sale.json()).toMatchObject({ totalCents: 1037, finalAmountCents: 1037 });

    const wrong = `${label.slice(0, 12)}${(Number(label[12]) + 1) % 10}`;
    const bad = await a.get(`/product/weighed/${wrong}`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe(SCALE_LABEL_MESSAGES.checkDigit);
    const unknown = await a.get(`/product/weighed/${buildScaleLabel('00099', 500, weightTruncate)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(noScaleProduct('00099'));
  });

  it('reads a price label (4-digit code) into the weight that costs exactly the printed total', async () => {
    const shop = await makeShop(t);
    const a = api(t, shop.auth);
    const layout = { enabled: true, codeLength: 4, content: 'price', rounding: 'round' } as const;
    await a.put('/settings/scale', layout);
    await makeProduct(t, shop.auth, {
      name: 'Queijo prato',
      productType: 'weighed',
      unit: 'kg',
      salePriceCents: 4590,
      scaleCode: '7',
    });
    // 0,250 kg x R$ 45,90 = R$ 11,475 -> R$ 11,48 rounded: the label carries 1148 cents.
    const read = await a.get(`/product/weighed/${buildScaleLabel('0007', 1148, layout)}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      quantity: 0.25,
      amountCents: 1148,
      labelAmountCents: 1148,
      truncate: false,
    });
    // A total no weight gives at R$ 45,90/kg: the scale holds another price; flagged.
    const other = (await a.get(`/product/weighed/${buildScaleLabel('0007', 1000, layout)}`)).json();
    expect(other).toMatchObject({ priceMismatch: true, labelAmountCents: 1000 });
  });
});
