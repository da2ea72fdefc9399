import { maskDocument } from '@balcao/core/document';
import { cnpjCheckDigits } from '@balcao/core/fiscal';
import type { NfeReviewItem } from '@balcao/core/payable';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, makeCnpj, type TestApp } from '../../../test/helper.ts';
import { asUser, expectStatus, makeProduct, newEan13 } from '../../../test/kit.ts';
import { supplierNfe } from '../../../test/supplierNfe.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function multipart(filename: string, contentType: string, data: Buffer) {
  const boundary = `----balcao${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function send(token: string, xml: string | Buffer, query = '') {
  const body = multipart('nota.xml', 'text/xml', Buffer.isBuffer(xml) ? xml : Buffer.from(xml));
  return t.app.inject({
    method: 'POST',
    url: `/v1/payable/nfe${query}`,
    headers: { ...bearer(token), 'content-type': body.contentType },
    payload: body.payload,
  });
}

/** A supplier's nfeProc (NF-e 4.00, model 55, schema-valid and signed) for the shop `recipient`. */
function nfeProc(o: {
  cnpj: string;
  recipient: string;
  number: string;
  vNF: string;
  vLiq?: string;
  dups: [string, string, string][];
}) {
  return supplierNfe({
    issuerCnpj: o.cnpj,
    recipientCnpj: o.recipient,
    number: o.number,
    items: [{ code: 'A1', ean: null, name: 'Arroz 5 kg', quantity: '1', unitPrice: o.vNF }],
    dups: o.dups,
    invoice: o.vLiq,
  });
}

describe("a supplier's NF-e XML as its bills", () => {
  it('finds or creates the supplier by CNPJ, makes each duplicata a payable on its date, checks the total and imports once', async () => {
    const { users, client } = await asUser(t, [7, 3]);
    const recipient = client.document;
    const [financial, seller] = users.map((u) => u.token);
    const cnpj = makeCnpj('778899000001');
    const xml = nfeProc({
      cnpj,
      recipient,
      number: '1234',
      vNF: '1000.01',
      dups: [
        ['001', '2026-12-20', '333.34'],
        ['002', '2027-01-19', '333.34'],
        ['003', '2027-02-18', '333.33'],
      ],
    });
    const imported = expectStatus(await send(financial, xml), 201);
    expect(imported).toMatchObject({
      supplier: { name: 'Distribuidora Paulista de Alimentos Ltda', created: true },
      number: '1234',
      totalCents: 100001,
    });
    expect(
      imported.items.map((p: { dueDate: string; amountCents: number; documentNumber: string }) => [
        p.dueDate,
        p.amountCents,
        p.documentNumber,
      ]),
    ).toEqual([
      ['2026-12-20', 33334, '1234/001'],
      ['2027-01-19', 33334, '1234/002'],
      ['2027-02-18', 33333, '1234/003'],
    ]);
    expect(imported.items[0]).toMatchObject({
      description: 'NF-e 1234 - Distribuidora Paulista de Alimentos Ltda',
      competenceMonth: '2026-11',
      category: { name: 'Compra de mercadorias', group: 'cmv' },
      series: { kind: 'installments', index: 1, count: 3 },
    });

    const again = await send(financial, xml);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A NF-e 1234 deste fornecedor já foi importada');

    // Another note of the same supplier, paid on the spot (no duplicatas): one bill on its issue date.
    const cash = expectStatus(
      await send(financial, nfeProc({ cnpj, recipient, number: '1235', vNF: '89.90', dups: [] })),
      201,
    );
    expect(cash.supplier).toMatchObject({ id: imported.supplier.id, created: false });
    expect(cash.items).toMatchObject([{ amountCents: 8990, dueDate: '2026-11-20', series: { count: 1 } }]);

    const wrong = await send(
      financial,
      nfeProc({
        cnpj,
        recipient,
        number: '1236',
        vNF: '500.00',
        vLiq: '500.00',
        dups: [['001', '2026-12-01', '200.00']],
      }),
    );
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe(
      'As duplicatas somam R$ 200,00, mas a fatura da NF-e é de R$ 500,00: confira o XML com o fornecedor',
    );
    const notNfe = await send(financial, '<?xml version="1.0"?><pedido><numero>1</numero></pedido>');
    expect(notNfe.statusCode).toBe(422);
    expect(notNfe.json().message).toBe(
      'Este XML não é uma NF-e: envie o nfeProc (o XML da nota) que o fornecedor mandou',
    );
    const pdf = await send(financial, Buffer.from('%PDF-1.4\n'));
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().message).toBe('Envie o arquivo XML da NF-e (nfeProc) que o fornecedor mandou');
    expect((await send(seller, xml)).statusCode).toBe(403);
    // Nothing of the refused notes was written.
    const list = expectStatus(
      await t.app.inject({ method: 'GET', url: '/v1/payable?pageSize=50', headers: bearer(financial) }),
      200,
    );
    expect(list.total).toBe(4);
  });

  it('takes a note from a supplier with an alphanumeric CNPJ (letters in its key) and keeps its CNPJ', async () => {
    const { users, client, apis } = await asUser(t, [7]);
    const cnpj = `12ABC3450001${cnpjCheckDigits('12ABC3450001')}`;
    const imported = expectStatus(
      await send(
        users[0].token,
        nfeProc({ cnpj, recipient: client.document, number: '77', vNF: '150.00', dups: [] }),
      ),
      201,
    );
    expect(imported).toMatchObject({ number: '77', totalCents: 15000, supplier: { created: true } });
    const supplier = expectStatus(await apis[0].get(`/supplier/${imported.supplier.id}`), 200);
    expect(supplier.document).toBe(cnpj);
  });
});

function review(token: string, xml: string) {
  const body = multipart('nota.xml', 'text/xml', Buffer.from(xml));
  return t.app.inject({
    method: 'POST',
    url: '/v1/payable/nfe/review',
    headers: { ...bearer(token), 'content-type': body.contentType },
    payload: body.payload,
  });
}

describe("a supplier's NF-e XML as a stock entry", () => {
  it('matches items by barcode or by the remembered supplier code, creates the new ones, updates the average cost and makes the bills, once', async () => {
    const shop = await asUser(t, [2, 7, 3]);
    const [manager, financial, seller] = shop.users.map((u) => u.token);
    const api = shop.apis[0];
    const cnpj = makeCnpj('778899000077');
    const ean = newEan13();
    const arroz = await makeProduct(t, bearer(manager), {
      name: 'Arroz Tio João 5 kg',
      barcode: ean,
      costPriceCents: 2000,
      stock: 10,
    });
    const acucar = await makeProduct(t, bearer(manager), { name: 'Açúcar União 1 kg', stock: 0 });
    const graos = expectStatus(await api.post('/product-category', { name: 'Grãos' }), 201);
    const note = (number: string, recipient = shop.client.document) =>
      supplierNfe({
        issuerCnpj: cnpj,
        recipientCnpj: recipient,
        number,
        items: [
          { code: 'A1', ean, name: 'ARROZ TIO JOAO 5KG', quantity: '10', unitPrice: '25.90' },
          {
            code: 'B2',
            ean: null,
            name: 'FEIJAO CARIOCA 1KG',
            quantity: '3.5',
            unitPrice: '8.99',
            discount: '1.00',
          },
          { code: 'C3', ean: null, name: 'ACUCAR CRISTAL 1KG', quantity: '12', unitPrice: '4.10' },
        ],
        dups: [
          ['001', '2026-12-20', '200.00'],
          ['002', '2027-01-19', '138.67'],
        ],
      });
    const xml = note('5501');

    const seen = expectStatus(await review(financial, xml), 200);
    expect(seen).toMatchObject({
      number: '5501',
      totalCents: 33867,
      supplier: { id: null, name: 'Distribuidora Paulista de Alimentos Ltda', document: cnpj },
      bills: [
        { number: '001', dueDate: '2026-12-20', amountCents: 20000 },
        { number: '002', dueDate: '2027-01-19', amountCents: 13867 },
      ],
    });
    expect(
      seen.items.map((i: NfeReviewItem) => [
        i.index,
        i.code,
        i.quantity,
        i.unitCostCents,
        i.totalCents,
        i.match,
      ]),
    ).toEqual([
      [
        1,
        'A1',
        10,
        2590,
        25900,
        { productId: arroz.id, variantId: null, name: 'Arroz Tio João 5 kg', by: 'barcode' },
      ],
      [2, 'B2', 3.5, 871, 3047, null],
      [3, 'C3', 12, 410, 4920, null],
    ]);

    // An item left without a decision: refused, nothing written.
    const undecided = await api.post('/payable/nfe/entry', {
      xml,
      items: [{ index: 3, productId: acucar.id }],
    });
    expect(undecided.statusCode).toBe(422);
    expect(undecided.json().message).toBe(
      'Diga o que fazer com o item 2 da nota: vincular a um produto ou cadastrar',
    );
    // Financeiro pays bills but does not move stock.
    const byFinancial = await t.app.inject({
      method: 'POST',
      url: '/v1/payable/nfe/entry',
      headers: bearer(financial),
      payload: { xml, items: [] },
    });
    expect(byFinancial.statusCode).toBe(403);
    expect((await review(seller, xml)).statusCode).toBe(403);

    const done = expectStatus(
      await api.post('/payable/nfe/entry', {
        xml,
        items: [
          {
            index: 2,
            newProduct: { name: 'Feijão Carioca 1 kg', categoryId: graos.id, salePriceCents: 1099 },
          },
          { index: 3, productId: acucar.id },
        ],
      }),
      201,
    );
    expect(done).toMatchObject({
      supplier: { created: true },
      number: '5501',
      totalCents: 33867,
      movements: 3,
      productsCreated: 1,
    });
    expect(
      done.items.map((p: { amountCents: number; dueDate: string }) => [p.dueDate, p.amountCents]),
    ).toEqual([
      ['2026-12-20', 20000],
      ['2027-01-19', 13867],
    ]);
    // Weighted average: 10 at R$ 20,00 and 10 at R$ 25,90 -> R$ 22,95.
    expect(expectStatus(await api.get(`/product/${arroz.id}`), 200)).toMatchObject({
      stock: 20,
      costPriceCents: 2295,
    });
    expect(expectStatus(await api.get(`/product/${acucar.id}`), 200)).toMatchObject({
      stock: 12,
      costPriceCents: 410,
    });
    const created = expectStatus(
      await api.get(`/product/client/${shop.client.id}?q=Feij%C3%A3o%20Carioca`),
      200,
    ).items;
    expect(created).toHaveLength(1);
    expect(expectStatus(await api.get(`/product/${created[0].id}`), 200)).toMatchObject({
      stock: 3.5,
      costPriceCents: 871,
      salePriceCents: 1099,
      category: { id: graos.id, name: 'Grãos' },
    });

    // The same XML again: 409 at the review and at the entry, nothing moved.
    const again = await review(financial, xml);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A NF-e 5501 deste fornecedor já foi importada');
    const twice = await api.post('/payable/nfe/entry', {
      xml,
      items: [
        { index: 2, productId: created[0].id },
        { index: 3, productId: acucar.id },
      ],
    });
    expect(twice.statusCode).toBe(409);
    expect(expectStatus(await api.get(`/product/${arroz.id}`), 200)).toMatchObject({ stock: 20 });

    // The next note of this supplier: its codes are remembered.
    const next = expectStatus(await review(financial, note('5502')), 200);
    expect(next.supplier.id).toBe(done.supplier.id);
    expect(next.items.map((i: NfeReviewItem) => i.match && [i.match.productId, i.match.by])).toEqual([
      [arroz.id, 'supplierCode'],
      [created[0].id, 'supplierCode'],
      [acucar.id, 'supplierCode'],
    ]);
  });

  it('refuses a note for another CNPJ or out of the official layout before writing anything', async () => {
    const shop = await asUser(t, [2]);
    const cnpj = makeCnpj('778899000088');
    const other = makeCnpj('112233000099');
    const items = [{ code: 'X', ean: null, name: 'CAFE 500G', quantity: '2', unitPrice: '15.00' }];
    const notOurs = await review(
      shop.token,
      supplierNfe({ issuerCnpj: cnpj, recipientCnpj: other, number: '77', items }),
    );
    expect(notOurs.statusCode).toBe(422);
    expect(notOurs.json().message).toBe(
      `Esta NF-e foi emitida para o CNPJ/CPF ${maskDocument(other)}, não para esta loja: nada foi importado`,
    );
    const good = supplierNfe({ issuerCnpj: cnpj, recipientCnpj: shop.client.document, number: '78', items });
    const broken = good.replace('<NCM>10063021</NCM>', '');
    const entry = await shop.api.post('/payable/nfe/entry', { xml: broken, items: [] });
    expect(entry.statusCode).toBe(422);
    expect(entry.json().message).toBe(
      'O XML da NF-e não segue o leiaute oficial (NF-e 4.00) no campo CFOP: peça ao fornecedor o XML autorizado',
    );
    const list = expectStatus(await shop.api.get('/payable?pageSize=50'), 200);
    expect(list.total).toBe(0);
    expect(expectStatus(await shop.api.get('/supplier'), 200).total).toBe(0);
  });
});

describe("a supplier's NF-e item as a product variant (size/colour)", () => {
  it("matches a variant by its barcode, takes one chosen by hand, puts the entry in the variant's stock and remembers the code with the variant", async () => {
    const shop = await asUser(t, [2]);
    const api = shop.api;
    const cnpj = makeCnpj('778899000111');
    const shirt = await makeProduct(t, bearer(shop.token), {
      name: 'Camiseta Básica',
      productType: 'variants',
      grid: { colors: ['Preto'], sizes: ['P', 'M'] },
    });
    const [small, medium] = shirt.variants;
    const ean = newEan13();
    expectStatus(
      await api.put(`/product-grid/${small.id}`, {
        sku: null,
        barcode: ean,
        priceCents: null,
        active: true,
        updatedAt: small.updatedAt,
      }),
      200,
    );
    const note = (number: string) =>
      supplierNfe({
        issuerCnpj: cnpj,
        recipientCnpj: shop.client.document,
        number,
        items: [
          { code: 'CAM-P', ean, name: 'CAMISETA BASICA PRETA P', quantity: '4', unitPrice: '30.00' },
          { code: 'CAM-M', ean: null, name: 'CAMISETA BASICA PRETA M', quantity: '2', unitPrice: '31.00' },
        ],
      });
    const xml = note('901');
    const seen = expectStatus(await review(shop.token, xml), 200);
    expect(seen.items.map((i: NfeReviewItem) => i.match)).toEqual([
      { productId: shirt.id, variantId: small.id, name: 'Camiseta Básica - Preto / P', by: 'barcode' },
      null,
    ]);

    // The product without its variant: refused (the stock needs the size/colour), nothing written.
    const noVariant = await api.post('/payable/nfe/entry', {
      xml,
      items: [{ index: 2, productId: shirt.id }],
    });
    expect(noVariant.statusCode).toBe(422);
    expect(noVariant.json().message).toBe('Escolha a variação (cor/tamanho) de Camiseta Básica');
    expect(expectStatus(await api.get('/payable?pageSize=50'), 200).total).toBe(0);

    expectStatus(
      await api.post('/payable/nfe/entry', {
        xml,
        items: [{ index: 2, productId: shirt.id, variantId: medium.id }],
      }),
      201,
    );
    const after = expectStatus(await api.get(`/product/${shirt.id}`), 200);
    expect(after.stock).toBe(6);
    expect(after.variants.map((v: { id: number; stock: number }) => [v.id, v.stock])).toEqual([
      [small.id, 4],
      [medium.id, 2],
    ]);
    // The product's weighted average cost: (4 x 30,00 + 2 x 31,00) / 6 = 30,33.
    expect(after.costPriceCents).toBe(3033);
    const history = expectStatus(await api.get(`/stock-movement/product/${shirt.id}`), 200);
    expect(
      history.items
        .map((m: { variant: { id: number } | null; quantity: number; unitCostCents: number }) => [
          m.variant?.id,
          m.quantity,
          m.unitCostCents,
        ])
        .sort(),
    ).toEqual(
      [
        [small.id, 4, 3000],
        [medium.id, 2, 3100],
      ].sort(),
    );

    // The next note: both codes remembered with their variants.
    const next = expectStatus(await review(shop.token, note('902')), 200);
    expect(next.items.map((i: NfeReviewItem) => i.match)).toEqual([
      { productId: shirt.id, variantId: small.id, name: 'Camiseta Básica - Preto / P', by: 'supplierCode' },
      { productId: shirt.id, variantId: medium.id, name: 'Camiseta Básica - Preto / M', by: 'supplierCode' },
    ]);
  });
});

describe("a supplier's NF-e line converted to the product's units", () => {
  it('offers qTrib/qCom, takes a factor by hand, enters quantity x factor at total / (qCom x factor) to the cent and remembers the factor', async () => {
    const shop = await asUser(t, [2]);
    const api = shop.api;
    const cnpj = makeCnpj('778899000222');
    const ean = newEan13();
    const beer = await makeProduct(t, bearer(shop.token), { name: 'Cerveja Lata 350 ml', barcode: ean });
    const biscuit = await makeProduct(t, bearer(shop.token), { name: 'Biscoito Maizena 200 g' });
    const note = (number: string) =>
      supplierNfe({
        issuerCnpj: cnpj,
        recipientCnpj: shop.client.document,
        number,
        items: [
          // 2 boxes of 12, taxed by the unit: 24 UN.
          {
            code: 'CERV-CX',
            ean,
            name: 'CERVEJA LATA 350ML CX12',
            unit: 'CX',
            quantity: '2',
            unitPrice: '49.90',
            taxUnit: 'UN',
            taxQuantity: '24',
          },
          // A fardo of 6 the note does not convert: the shop says 6.
          {
            code: 'BISC-FD',
            ean: null,
            name: 'BISCOITO MAIZENA FD6',
            unit: 'FD',
            quantity: '3',
            unitPrice: '35.50',
            discount: '1.00',
          },
          {
            code: 'AGUA-PCT',
            ean: null,
            name: 'AGUA MINERAL 500ML PCT6',
            unit: 'PCT',
            quantity: '5',
            unitPrice: '9.00',
            taxUnit: 'UN',
            taxQuantity: '30',
          },
        ],
      });
    const xml = note('3301');
    const seen = expectStatus(await review(shop.token, xml), 200);
    expect(
      seen.items.map((i: NfeReviewItem) => [
        i.unit,
        i.quantity,
        i.unitCostCents,
        i.totalCents,
        i.taxUnit,
        i.taxQuantity,
        i.factor,
        i.factorFrom,
      ]),
    ).toEqual([
      ['CX', 2, 4990, 9980, 'UN', 24, 12, 'taxUnit'],
      ['FD', 3, 3517, 10550, 'FD', 3, 1, null],
      ['PCT', 5, 900, 4500, 'UN', 30, 6, 'taxUnit'],
    ]);

    const bad = await api.post('/payable/nfe/entry', {
      xml,
      items: [{ index: 2, productId: biscuit.id, factor: 0 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain(
      'As unidades por unidade da nota devem ser maiores que zero',
    );

    const done = expectStatus(
      await api.post('/payable/nfe/entry', {
        xml,
        items: [
          { index: 2, productId: biscuit.id, factor: 6 },
          {
            index: 3,
            newProduct: { name: 'Água Mineral 500 ml', categoryId: null, salePriceCents: 300 },
          },
        ],
      }),
      201,
    );
    expect(done).toMatchObject({ totalCents: 25030, movements: 3, productsCreated: 1 });
    // 2 CX x 12 = 24 at 99,80 / 24 = 4,158 -> R$ 4,16.
    expect(expectStatus(await api.get(`/product/${beer.id}`), 200)).toMatchObject({
      stock: 24,
      costPriceCents: 416,
    });
    // 3 FD x 6 = 18 at (106,50 - 1,00) / 18 = 5,861 -> R$ 5,86.
    expect(expectStatus(await api.get(`/product/${biscuit.id}`), 200)).toMatchObject({
      stock: 18,
      costPriceCents: 586,
    });
    const water = expectStatus(
      await api.get(`/product/client/${shop.client.id}?q=%C3%81gua%20Mineral`),
      200,
    ).items;
    expect(water).toHaveLength(1);
    expect(water[0]).toMatchObject({ stock: 30, costPriceCents: 150, unit: 'un' });
    const history = expectStatus(await api.get(`/stock-movement/product/${biscuit.id}`), 200);
    expect(history.items[0]).toMatchObject({ quantity: 18, unitCostCents: 586 });

    // The next note: each code's factor remembered with its product.
    const next = expectStatus(await review(shop.token, note('3302')), 200);
    expect(next.items.map((i: NfeReviewItem) => [i.match?.productId, i.factor, i.factorFrom])).toEqual([
      [beer.id, 12, 'remembered'],
      [biscuit.id, 6, 'remembered'],
      [water[0].id, 6, 'remembered'],
    ]);
  });
});

describe("a supplier's NF-e signature (XMLDSig)", () => {
  it('refuses a note changed after signing, an unsigned one and one signed by another company, writing nothing', async () => {
    const shop = await asUser(t, [2]);
    const cnpj = makeCnpj('778899000333');
    const note = (o: { number: string; signerCnpj?: string }) =>
      supplierNfe({
        issuerCnpj: cnpj,
        recipientCnpj: shop.client.document,
        items: [{ code: 'CAFE', ean: null, name: 'CAFE 500G', quantity: '2', unitPrice: '15.00' }],
        ...o,
      });
    const good = note({ number: '4401' });
    expect(good).toContain('<vNF>30.00</vNF>');
    // The total lowered after signing: the XML stays in the layout, the bill would be R$ 3,00.
    const tampered = good.replace('<vNF>30.00</vNF>', '<vNF>3.00</vNF>');
    const message =
      'A assinatura digital da NF-e não confere: o XML foi alterado depois de assinado. Peça ao fornecedor o XML original; nada foi importado';
    for (const res of [
      await review(shop.token, tampered),
      await shop.api.post('/payable/nfe/entry', { xml: tampered, items: [] }),
      await send(shop.token, tampered),
    ]) {
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(message);
    }
    // An item's code changed: the same.
    const recoded = await review(shop.token, good.replace('<cProd>CAFE</cProd>', '<cProd>CAFE2</cProd>'));
    expect(recoded.json().message).toBe(message);

    const unsigned = good.replace(
      /<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">[\s\S]*<\/Signature>/,
      '',
    );
    expect(unsigned).not.toContain('Signature');
    const noSignature = await review(shop.token, unsigned);
    expect(noSignature.statusCode).toBe(422);
    expect(noSignature.json().message).toBe(
      'Esta NF-e não tem a assinatura digital do fornecedor: peça a ele o XML autorizado (nfeProc); nada foi importado',
    );

    const byOther = await review(shop.token, note({ number: '4402', signerCnpj: makeCnpj('556677000111') }));
    expect(byOther.statusCode).toBe(422);
    expect(byOther.json().message).toBe(
      `A NF-e foi assinada com o certificado digital de outra empresa, não do emitente (${maskDocument(cnpj)}): nada foi importado`,
    );

    expect(expectStatus(await shop.api.get('/payable?pageSize=50'), 200).total).toBe(0);
    expect(expectStatus(await shop.api.get('/supplier'), 200).total).toBe(0);
    // The untouched note goes in.
    expect((await review(shop.token, good)).statusCode).toBe(200);
    expectStatus(await send(shop.token, good), 201);
  });
});

describe("a supplier's NF-e item matched to a product with a grid but no variant", () => {
  it('says the review must ask for the variant', async () => {
    const shop = await asUser(t, [2]);
    const ean = newEan13();
    const jeans = await makeProduct(t, bearer(shop.token), {
      name: 'Calça Jeans',
      barcode: ean,
      productType: 'variants',
      grid: { colors: [], sizes: ['38', '40'] },
    });
    const xml = supplierNfe({
      issuerCnpj: makeCnpj('778899000444'),
      recipientCnpj: shop.client.document,
      number: '5501',
      items: [{ code: 'JEANS', ean, name: 'CALCA JEANS', quantity: '3', unitPrice: '80.00' }],
    });
    const seen = expectStatus(await review(shop.token, xml), 200);
    expect(seen.items[0].match).toEqual({
      productId: jeans.id,
      variantId: null,
      name: 'Calça Jeans',
      by: 'barcode',
      needsVariant: true,
    });
    expectStatus(
      await shop.api.post('/payable/nfe/entry', {
        xml,
        items: [{ index: 1, productId: jeans.id, variantId: jeans.variants[1].id }],
      }),
      201,
    );
    const after = expectStatus(await shop.api.get(`/product/${jeans.id}`), 200);
    expect(after.variants.map((v: { stock: number }) => v.stock)).toEqual([0, 3]);
  });
});
