import { LABEL_ITEMS_MESSAGE } from '@balcao/core/labels/printerLabels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { api, asUser, makeProduct } from '../../../test/kit.ts';

/** Issue 36: price and barcode labels as an A4 PDF and as ZPL/EPL commands. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('labels', () => {
  it('prints the chosen products as ZPL, EPL and an A4 PDF; refuses a bad choice', async () => {
    const shop = await asUser(t, [1, 7]);
    const a = api(t, shop.auth);
    const shirt = await makeProduct(t, shop.auth, {
      name: 'Camiseta Básica',
      salePriceCents: 4990,
      barcode: '7891234567895',
    });
    const bread = await makeProduct(t, shop.auth, {
      name: 'Pão de mel',
      salePriceCents: 650,
      sku: 'PAO-MEL',
    });

    const zpl = await a.get(`/label/commands?items=${shirt.id}x3,${bread.id}x1&language=zpl`);
    expect(zpl.statusCode, zpl.body).toBe(200);
    expect(zpl.headers['content-disposition']).toBe('attachment; filename="etiquetas.zpl"');
    expect(zpl.body.match(/\^XA/g)).toHaveLength(2);
    expect(zpl.body).toContain('^FDCamiseta Básica^FS');
    expect(zpl.body).toContain('^FD789123456789^FS');
    expect(zpl.body).toContain('^PQ3');
    expect(zpl.body).toContain('^FDPAO-MEL^FS');

    const epl = await a.get(`/label/commands?items=${bread.id}x2&language=epl`);
    expect(epl.body).toContain('"Pao de mel"');
    expect(epl.body).toContain('P2');

    const pdf = await a.get(`/label/pdf?items=${shirt.id}x30,${bread.id}x1`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // 31 labels at 24 a sheet: two pages.
    expect(pdf.rawPayload.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);

    const bad = await a.get('/label/pdf?items=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(LABEL_ITEMS_MESSAGE);
    const missing = await a.get('/label/pdf?items=999999x1');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe('Produto não encontrado');
    // Another shop's product is not found either (tenancy).
    const other = await asUser(t, [1]);
    expect((await api(t, other.auth).get(`/label/pdf?items=${shirt.id}x1`)).statusCode).toBe(422);
  });
});
