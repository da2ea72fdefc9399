import { addMonths } from '@balcao/core/payable';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeCnpj, type TestApp } from '../../../test/helper.ts';
import { asUser, expectStatus, makeProduct } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);

describe('a payable from a stock entry', () => {
  it('enters the stock, updates the average cost and creates the instalments in one transaction, exact to the cent', async () => {
    const { api: a, apis, auth } = await asUser(t, [1, 7, 6]);
    const coffee = await makeProduct(t, auth, { name: 'Café 500 g', stock: 10, costPriceCents: 1500 });
    const cheese = await makeProduct(t, auth, { name: 'Queijo', unit: 'kg', productType: 'weighed' });
    const supplier = expectStatus(
      await a.post('/supplier', { name: 'Laticínios Serra', document: makeCnpj('556677880001') }),
      201,
    );
    const entry = {
      document: '4521',
      items: [
        { productId: coffee.id, quantity: 30, unitCostCents: 1700 },
        // 1,235 kg x R$ 39,99 = R$ 49,387... -> R$ 49,39
        { productId: cheese.id, quantity: 1.235, unitCostCents: 3999 },
      ],
    };
    const res = expectStatus(
      await a.post('/payable/purchase', {
        entry,
        bill: { supplierId: supplier.id, dueDate: addMonths(today, 1), installments: 3 },
      }),
      201,
    );
    // 510,00 + 49,39 = 559,39 in 3: 186,47 + 186,46 + 186,46
    expect(res.movements).toBe(2);
    expect(res.items.map((p: { amountCents: number }) => p.amountCents)).toEqual([18647, 18646, 18646]);
    expect(res.items[0]).toMatchObject({
      description: 'Compra - NF 4521',
      documentNumber: '4521',
      supplier: { id: supplier.id, name: 'Laticínios Serra' },
      category: { name: 'Compra de mercadorias', group: 'cmv' },
      dueDate: addMonths(today, 1),
      series: { kind: 'installments', index: 1, count: 3 },
    });
    expect(res.items[2].dueDate).toBe(addMonths(today, 3));
    // (10 x 15,00 + 30 x 17,00) / 40 = 16,50
    expect(expectStatus(await a.get(`/product/${coffee.id}`), 200)).toMatchObject({
      stock: 40,
      costPriceCents: 1650,
    });

    // A supplier of another shop: 404, and the stock did not move.
    const other = await asUser(t, [1]);
    const foreign = expectStatus(await other.api.post('/supplier', { name: 'Outro' }), 201);
    const refused = await a.post('/payable/purchase', {
      entry,
      bill: { supplierId: foreign.id, dueDate: today },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('Fornecedor não encontrado');
    expect(expectStatus(await a.get(`/product/${coffee.id}`), 200).stock).toBe(40);

    // The Financeiro does not move stock, the Estoquista does not write bills.
    for (const who of [apis[1], apis[2]]) {
      const res = await who.post('/payable/purchase', {
        entry,
        bill: { supplierId: supplier.id, dueDate: today },
      });
      expect(res.statusCode).toBe(403);
    }
  });
});
