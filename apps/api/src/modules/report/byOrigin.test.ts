import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import {
  asUser,
  expectStatus,
  makeCustomer,
  makeProduct,
  makeSale,
  openRegister,
  SE_ADDRESS,
} from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);
let keySeq = 0;
const key = (prefix: string) => ({ 'idempotency-key': `origem-${prefix}-${process.pid}-${++keySeq}` });

/**
 * Issue 34, "by origin (PDV, comanda, delivery, budget)": one sale of each origin in the period, built
 * the way the shop makes it (the PDV, a comanda's close, a phone delivery order, a budget's conversion).
 */
describe('sales report by origin', () => {
  it('shows a PDV sale, a comanda close, a delivery and a budget conversion, each with its figures to the cent', async () => {
    // A restaurant (comandas on) that also sells at the counter, delivers and quotes.
    const shop = await asUser(t, [1], { clientTypeId: 6 });
    const a = shop.api;
    await openRegister(t, shop.auth);
    const product = await makeProduct(t, shop.auth, { name: 'X-Burger', salePriceCents: 1000, stock: 100 });

    // PDV: 2 x R$ 10,00 less R$ 1,00 = R$ 19,00 in cash; one unit comes back (R$ 9,50 of it).
    const pdv = await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 2 }],
      discountType: 'fixed_amount',
      discountValue: 100,
      payments: [{ method: 'money', amountCents: 1900 }],
    });
    expect(pdv.originSale).toBe('pdv');
    expectStatus(
      await a.post(
        `/sale/${pdv.id}/return`,
        { lines: [{ saleItemId: pdv.items[0].id, quantity: 1 }], refund: 'original', reason: 'Frio' },
        key('devolucao'),
      ),
      201,
    );

    // Comanda: 2 x R$ 10,00 + 10% service = R$ 22,00, paid in cash, closed.
    const tab = expectStatus(await a.post('/comanda', { people: 2 }), 201);
    expectStatus(
      await a.post(`/comanda/${tab.id}/line`, { productId: product.id, quantity: 2 }, key('linha')),
      201,
    );
    expectStatus(
      await a.post(`/comanda/${tab.id}/payment`, { kind: 'amount', method: 'money', amountCents: 2200 }),
      201,
    );
    const comanda = expectStatus(await a.post(`/comanda/${tab.id}/close`, {}, key('fechar')), 201);
    expect(comanda).toMatchObject({ originSale: 'command', finalAmountCents: 2200 });

    // Delivery by phone: 1 x R$ 10,00 + R$ 8,00 freight, paid on delivery.
    const customer = await makeCustomer(t, shop.auth, {
      name: 'Ana Entrega',
      phone: '11987651234',
      addresses: [SE_ADDRESS],
    });
    const delivery = expectStatus(
      await a.post('/delivery/orders', {
        items: [{ productId: product.id, quantity: 1 }],
        customerId: customer.id,
        deliveryAddressId: customer.addresses[0].id,
        freightCents: 800,
        payments: [{ method: 'paymentOnDelivery', amountCents: 1800 }],
        delivery: { onDeliveryMethod: 'debitCard' },
      }),
      201,
    );
    expect(delivery).toMatchObject({ originSale: 'delivery', finalAmountCents: 1800 });

    // Budget: 3 x R$ 10,00 converted into a sale paid by Pix.
    const budget = expectStatus(
      await a.post('/budget', { items: [{ productId: product.id, quantity: 3 }] }),
      201,
    );
    const converted = expectStatus(
      await a.post(`/budget/${budget.id}/convert`, { payments: [{ method: 'pix', amountCents: 3000 }] }),
      201,
    );
    expect(converted.originSale).toBe('budget');

    const report = expectStatus(await a.get(`/report/sales?from=${today}&to=${today}`), 200);
    expect(report.byOrigin).toEqual([
      { origin: 'budget', label: 'Orçamento', salesCount: 1, netCents: 3000, previousNetCents: 0 },
      { origin: 'command', label: 'Comanda', salesCount: 1, netCents: 2200, previousNetCents: 0 },
      { origin: 'delivery', label: 'Delivery', salesCount: 1, netCents: 1800, previousNetCents: 0 },
      // R$ 19,00 less the R$ 9,50 returned.
      { origin: 'pdv', label: 'PDV', salesCount: 1, netCents: 950, previousNetCents: 0 },
    ]);
    expect(report.summary).toMatchObject({ salesCount: 4, netCents: 3000 + 2200 + 1800 + 950 });

    // Exported whole, as on screen.
    const csv = await a.get(`/report/sales/csv?from=${today}&to=${today}&section=origin`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\r\n')).toEqual([
      'Origem;Vendas;Valor líquido;Período anterior',
      'Orçamento;1;30,00;0,00',
      'Comanda;1;22,00;0,00',
      'Delivery;1;18,00;0,00',
      'PDV;1;9,50;0,00',
    ]);
  });
});
