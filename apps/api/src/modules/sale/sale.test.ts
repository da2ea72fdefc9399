import { addDays } from '@balcao/core/date';
import type { Sale } from '@balcao/core/sale';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/helper.ts';
import {
  type Api,
  makeCoupon,
  makeCustomer,
  makeProduct,
  makeSale,
  makeShop,
  openRegister,
} from '../../../test/kit.ts';
import { clients } from '../../db/schema.ts';
import { coupons, couponUses } from '../coupon/schema.ts';
import { receivables } from '../receivable/schema.ts';
import { stockMovements } from '../stock/schema.ts';
import { purgeIdempotencyKeys } from './idempotency.ts';
import { sales } from './schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);

async function stockOf(api: Api, productId: number): Promise<number> {
  return (await api.get(`/product/${productId}`)).json().stock;
}

describe('checkout totals', () => {
  it('rounds quantity x price half-up to the cent, applies line, sale and coupon discounts and records everything', async () => {
    const { auth, api } = await makeShop(t);
    const cheese = await makeProduct(t, auth, {
      name: 'Queijo minas',
      productType: 'weighed',
      unit: 'kg',
      salePriceCents: 4590,
      stock: 100,
    });
    const bread = await makeProduct(t, auth, { name: 'Pão francês', salePriceCents: 99, stock: 100 });
    const c = await makeCoupon(t, auth, { discountValue: 5 });
    // 0,750 kg x 45,90 = 34,425 -> 34,43 (-1,00 line) = 33,43; 3 x 0,99 = 2,97 (-10% = 0,30) = 2,67
    // subtotal 36,10; 2% sale discount = 0,722 -> 0,72; coupon 5% of 36,10 = 1,805 -> 1,81; final 33,57
    const sale = await makeSale(t, auth, {
      items: [
        { productId: cheese.id, quantity: 0.75, discountValue: 100 },
        { productId: bread.id, quantity: 3, discountType: 'percentage', discountValue: 1000 },
      ],
      discountType: 'percentage',
      discountValue: 200,
      couponCode: c.code.toLowerCase(),
      payments: [{ method: 'pix', amountCents: 3357 }],
    });
    expect(
      sale.items.map((i) => [i.description, i.quantity, i.grossCents, i.discountCents, i.totalCents]),
    ).toEqual([
      ['Queijo minas', 0.75, 3443, 100, 3343],
      ['Pão francês', 3, 297, 30, 267],
    ]);
    expect(sale).toMatchObject({
      number: 1,
      status: 'finished',
      totalItems: 2,
      totalQuantity: 3.75,
      itemsDiscountCents: 130,
      totalCents: 3610,
      discountCents: 72,
      couponDiscountCents: 181,
      coupon: { id: c.id, code: c.code },
      finalAmountCents: 3357,
      changeCents: 0,
      payments: [{ method: 'pix', amountCents: 3357, numberInstallments: 1 }],
    });
    expect(sale.finishedAt).not.toBeNull();
    // GET answers the same sale.
    const read = (await api.get(`/sale/${sale.id}`)).json();
    expect(read).toEqual({ ...sale, warnings: undefined });
  });

  it('takes prices from the catalog: variants, add-ons with group limits, whole quantities for units', async () => {
    const { auth, api } = await makeShop(t);
    const shirt = await makeProduct(t, auth, {
      name: 'Camiseta',
      productType: 'variants',
      salePriceCents: 5000,
      grid: { colors: ['Azul'], sizes: ['P', 'M'] },
      stock: 100,
    });
    const medium = shirt.variants.find((v: { name: string }) => v.name === 'Azul / M');
    await api.put(`/product-grid/${medium.id}`, {
      sku: medium.sku,
      barcode: medium.barcode,
      priceCents: 5500,
      active: true,
      stock: 5,
      updatedAt: medium.updatedAt,
    });
    const group = await api.post('/product-additional', {
      name: 'Adicionais',
      minQuantity: 0,
      maxQuantity: 2,
      items: [
        { name: 'Bacon', priceCents: 350 },
        { name: 'Cheddar', priceCents: 200 },
      ],
    });
    expect(group.statusCode, group.body).toBe(201);
    const [bacon, cheddar] = group.json().items;
    const burger = await makeProduct(t, auth, {
      name: 'X-Burger',
      salePriceCents: 2000,
      additionalGroupIds: [group.json().id],
      stock: 100,
    });

    const noVariant = await api.post('/sale', {
      items: [{ productId: shirt.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 5000 }],
    });
    expect(noVariant.statusCode).toBe(422);
    expect(noVariant.json().message).toBe('Escolha a variação (cor/tamanho) de Camiseta');
    const half = await api.post('/sale', {
      items: [{ productId: burger.id, quantity: 1.5 }],
      payments: [{ method: 'pix', amountCents: 3000 }],
    });
    expect(half.statusCode).toBe(422);
    expect(half.json().message).toBe('X-Burger é vendido por unidade: use uma quantidade inteira');
    const tooMany = await api.post('/sale', {
      items: [
        {
          productId: burger.id,
          quantity: 1,
          additionals: [{ id: bacon.id, quantity: 2 }, { id: cheddar.id }],
        },
      ],
      payments: [{ method: 'pix', amountCents: 2900 }],
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().message).toBe('Escolha 0 a 2 itens em Adicionais (X-Burger)');

    const sale = await makeSale(t, auth, {
      items: [
        { productId: shirt.id, variantId: medium.id, quantity: 1 },
        { productId: burger.id, quantity: 2, additionals: [{ id: bacon.id }, { id: cheddar.id }] },
      ],
      payments: [{ method: 'debitCard', amountCents: 5500 + 2 * 2550 }],
    });
    expect(sale.items[0]).toMatchObject({ variantName: 'Azul / M', unitPriceCents: 5500, totalCents: 5500 });
    expect(sale.items[1]).toMatchObject({ unitPriceCents: 2000, unitTotalCents: 2550, grossCents: 5100 });
    expect((await api.get(`/sale/${sale.id}`)).json()).toEqual({ ...sale, warnings: undefined });
    expect(sale.items[1].additionals.map((a) => a.name)).toEqual(['Bacon', 'Cheddar']);
    expect(sale.finalAmountCents).toBe(10600);
  });

  it('checks every add-on group a product offers, in its order; inactive groups are not offered', async () => {
    const { auth, api } = await makeShop(t);
    const group = async (payload: Record<string, unknown>) => {
      const res = await api.post('/product-additional', payload);
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    };
    const molhos = await group({
      name: 'Molhos',
      minQuantity: 1,
      maxQuantity: 1,
      items: [{ name: 'Barbecue' }],
    });
    const ponto = await group({
      name: 'Ponto',
      minQuantity: 1,
      maxQuantity: 1,
      items: [{ name: 'Mal passado' }],
    });
    const extras = await group({
      name: 'Extras',
      minQuantity: 0,
      maxQuantity: 1,
      active: false,
      items: [{ name: 'Ovo', priceCents: 200 }],
    });
    const burger = await makeProduct(t, auth, {
      name: 'X-Salada',
      salePriceCents: 2000,
      additionalGroupIds: [ponto.id, molhos.id, extras.id],
      stock: 100,
    });
    const line = (additionals: { id: number }[]) => ({
      items: [{ productId: burger.id, quantity: 1, additionals }],
      payments: [{ method: 'pix', amountCents: 2000 }],
    });
    const none = await api.post('/sale', line([]));
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe('Escolha 1 item em Ponto (X-Salada)');
    const noSauce = await api.post('/sale', line([{ id: ponto.items[0].id }]));
    expect(noSauce.json().message).toBe('Escolha 1 item em Molhos (X-Salada)');
    const inactive = await api.post(
      '/sale',
      line([{ id: ponto.items[0].id }, { id: molhos.items[0].id }, { id: extras.items[0].id }]),
    );
    expect(inactive.json().message).toBe('Adicional indisponível para X-Salada');
    const sale = await makeSale(t, auth, line([{ id: ponto.items[0].id }, { id: molhos.items[0].id }]));
    expect(sale.items[0].additionals.map((a) => a.name)).toEqual(['Mal passado', 'Barbecue']);
  });

  it('refuses discounts above the total and unknown or inactive products with Portuguese messages', async () => {
    const { auth, api } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 1000, stock: 100 });
    const off = await makeProduct(t, auth, {
      salePriceCents: 1000,
      active: false,
      name: 'Fora de linha',
      stock: 100,
    });
    const big = await api.post('/sale', { items: [{ productId: p.id, quantity: 1 }], discountValue: 1001 });
    expect(big.statusCode).toBe(422);
    expect(big.json().message).toBe('O desconto não pode ser maior que o total dos itens');
    const inactive = await api.post('/sale', {
      items: [{ productId: off.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    expect(inactive.json().message).toBe('O produto Fora de linha está inativo');
    const unknown = await api.post('/sale', { items: [{ productId: 999999, quantity: 1 }] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe('Produto não encontrado');
    const empty = await api.post('/sale', { items: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/Adicione ao menos um item à venda/);
  });
});

describe('payments', () => {
  it('split payments must add up; money over the total gives change; card installments are kept', async () => {
    const { auth, api } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 3750, stock: 100 });
    const short = await api.post('/sale', {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [
        { method: 'debitCard', amountCents: 1000 },
        { method: 'pix', amountCents: 2000 },
      ],
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().message).toBe(
      'Os pagamentos somam R$ 30,00: faltam R$ 7,50 para o total de R$ 37,50',
    );
    expect(await stockOf(api, p.id)).toBe(100); // nothing was written
    const sale = await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [
        { method: 'creditCard', amountCents: 1000, numberInstallments: 3 },
        { method: 'money', amountCents: 5000 },
      ],
    });
    expect(sale.changeCents).toBe(2250);
    expect(sale.cashDepositAmountCents).toBe(5000);
    expect(sale.payments.map((x) => [x.method, x.amountCents, x.numberInstallments])).toEqual([
      ['creditCard', 1000, 3],
      ['money', 2750, 1],
    ]);
    const withDeposit = await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'money', amountCents: 3750 }],
      cashDepositAmountCents: 10000,
    });
    expect(withDeposit.changeCents).toBe(6250);
    const debitInstallments = await api.post('/sale', {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'debitCard', amountCents: 3750, numberInstallments: 2 }],
    });
    expect(debitInstallments.json().message).toBe(
      'Parcelamento só no cartão de crédito, crediário ou boleto',
    );
  });

  it('crediário: one receivable per installment with monthly due dates, pending until all are settled', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 10000, stock: 100 });
    const maria = await makeCustomer(t, auth);
    const noCustomer = await api.post('/sale', {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'creditShop', amountCents: 10000 }],
    });
    expect(noCustomer.json().message).toBe('Informe o cliente para vender no crediário');
    const sale = await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: maria.id,
      payments: [
        { method: 'money', amountCents: 1000 },
        { method: 'creditShop', amountCents: 9000, numberInstallments: 3 },
      ],
    });
    expect(sale.status).toBe('pending');
    expect(sale.finishedAt).toBeNull();
    // The answer (built from the values written) is what GET reads back.
    expect((await api.get(`/sale/${sale.id}`)).json()).toEqual({ ...sale, warnings: undefined });
    expect(
      sale.receivables.map((r) => [r.installment, r.amountCents, r.dueDate, r.status, r.method]),
    ).toEqual([
      [1, 3000, addDays(today, 1), 'pending', 'creditShop'],
      [2, 3000, addDaysMonths(addDays(today, 1), 1), 'pending', 'creditShop'],
      [3, 3000, addDaysMonths(addDays(today, 1), 2), 'pending', 'creditShop'],
    ]);
    const pending = (await api.get(`/sale/client/${client.id}?status=pending`)).json();
    expect(pending.items.map((s: Sale) => s.id)).toEqual([sale.id]);

    // Settling: each receipt goes to the register (money); the sale finishes with the last one.
    for (const [i, r] of sale.receivables.entries()) {
      const res = await api.post(`/sale/${sale.id}/receivable/${r.id}/settle`, {
        paymentMethod: i === 0 ? 'pix' : 'money',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe(i < 2 ? 'pending' : 'finished');
    }
    const again = await api.post(`/sale/${sale.id}/receivable/${sale.receivables[0].id}/settle`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Esta parcela já foi paga');
    const register = (await api.get('/cash-register/current')).json().cashRegister;
    expect(register.money.receiptsCents).toBe(6000);
    expect(register.methods.find((m: { method: string }) => m.method === 'pix').receiptsCents).toBe(3000);
    expect(register.money.expectedCents).toBe(10000 + 1000 + 6000);
  });

  it('warns (never refuses) on a delinquent customer and over the credit limit; the pre-check says the same', async () => {
    const { auth, api } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 20000, stock: 100 });
    const joao = await makeCustomer(t, auth, { name: 'João Devedor', creditLimitCents: 30000 });
    const first = await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: joao.id,
      payments: [{ method: 'creditShop', amountCents: 20000 }],
    });
    expect(first.warnings).toEqual([]);
    // The installment is overdue: João becomes delinquent.
    await t.database.db
      .update(receivables)
      .set({ dueDate: addDays(today, -3) })
      .where(eq(receivables.saleId, first.id));
    const credit = (await api.get(`/sale/customer-credit/${joao.id}?creditShopCents=20000`)).json();
    expect(credit).toMatchObject({
      isDelinquent: true,
      overdueCents: 20000,
      pendingCents: 20000,
      creditLimitCents: 30000,
      availableCents: 10000,
    });
    expect(credit.warnings.map((w: { code: string }) => w.code)).toEqual(['delinquent', 'over_credit_limit']);
    expect((await api.get(`/customer/${joao.id}`)).json().isDelinquent).toBe(true);
    const second = await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: joao.id,
      payments: [{ method: 'creditShop', amountCents: 20000 }],
    });
    expect(second.warnings?.map((w) => w.code)).toEqual(['delinquent', 'over_credit_limit']);
    expect(second.warnings?.[0].message).toBe('Cliente inadimplente: R$ 200,00 em parcelas vencidas');
  });
});

function addDaysMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

describe('coupon and stock', () => {
  it('a single-use coupon is counted by the sale and freed by its cancel', async () => {
    const { auth, api } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 10000, stock: 100 });
    const c = await makeCoupon(t, auth, {
      isSingleUse: true,
      discountType: 'FIXED_AMOUNT',
      discountValue: 10,
    });
    const body = {
      items: [{ productId: p.id, quantity: 1 }],
      couponCode: c.code,
      payments: [{ method: 'pix', amountCents: 9000 }],
    };
    const first = await makeSale(t, auth, body);
    expect(first.couponDiscountCents).toBe(1000);
    const second = await api.post('/sale', body);
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('Este cupom é de uso único e já foi utilizado');
    const validate = await api.post('/coupon/validate', { code: c.code, subtotalCents: 10000 });
    expect(validate.statusCode).toBe(422);
    const canceled = await api.post(`/sale/${first.id}/cancel`, { reason: 'Cliente desistiu' });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toMatchObject({ status: 'canceled', cancelReason: 'Cliente desistiu' });
    const third = await makeSale(t, auth, body);
    expect(third.coupon?.code).toBe(c.code);
    const expired = await makeCoupon(t, auth, { startDate: addDays(today, 1), endDate: addDays(today, 5) });
    const notYet = await api.post('/sale', { ...body, couponCode: expired.code });
    expect(notYet.statusCode).toBe(422);
    expect(notYet.json().message).toMatch(/ainda não está válido/);
  });

  it('parallel sales racing for a single-use coupon: one sells, the others get 409 and leave no trace', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 10000, stock: 100 });
    const c = await makeCoupon(t, auth, {
      isSingleUse: true,
      discountType: 'FIXED_AMOUNT',
      discountValue: 10,
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.post('/sale', {
          items: [{ productId: p.id, quantity: 1 }],
          couponCode: c.code,
          payments: [{ method: 'pix', amountCents: 9000 }],
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => r.statusCode)).toEqual(Array(7).fill(409));
    expect(refused[0].json().message).toBe('Este cupom é de uso único e já foi utilizado');
    expect(await stockOf(api, p.id)).toBe(99);
    const numbers = await t.database.db
      .select({ number: sales.number })
      .from(sales)
      .where(eq(sales.clientId, client.id));
    expect(numbers).toEqual([{ number: 1 }]);
  });

  it('a coupon limited per customer: parallel sales for one customer use it once, another customer still may', async () => {
    const { auth, api } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 10000, stock: 100 });
    const c = await makeCoupon(t, auth, {
      maxUsesPerUser: 1,
      discountType: 'FIXED_AMOUNT',
      discountValue: 10,
    });
    const ana = await makeCustomer(t, auth, { name: 'Ana' });
    const bia = await makeCustomer(t, auth, { name: 'Bia' });
    const body = (customerId: number) => ({
      items: [{ productId: p.id, quantity: 1 }],
      customerId,
      couponCode: c.code,
      payments: [{ method: 'pix', amountCents: 9000 }],
    });
    const noCustomer = await api.post('/sale', { ...body(ana.id), customerId: null });
    expect(noCustomer.statusCode).toBe(422);
    expect(noCustomer.json().message).toBe(
      'Este cupom tem limite de usos por cliente: informe o cliente da venda',
    );
    const race = await Promise.all(Array.from({ length: 6 }, () => api.post('/sale', body(ana.id))));
    expect(race.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const refused of race.filter((r) => r.statusCode !== 201)) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('Este cliente já usou este cupom o máximo permitido (1 vez)');
    }
    expect((await api.post('/sale', body(bia.id))).statusCode).toBe(201);
    expect(await stockOf(api, p.id)).toBe(98);
  });

  it('a coupon without use limits is not locked: parallel sales all use it and every use is counted', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 10000, stock: 100 });
    const c = await makeCoupon(t, auth, { discountType: 'PERCENTAGE', discountValue: 10 });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.post('/sale', {
          items: [{ productId: p.id, quantity: 1 }],
          couponCode: c.code,
          payments: [{ method: 'pix', amountCents: 9000 }],
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const uses = await t.database.db
      .select({ saleId: couponUses.saleId, discountCents: couponUses.discountCents })
      .from(couponUses)
      .where(and(eq(couponUses.clientId, client.id), eq(couponUses.couponId, c.id)));
    expect(uses.map((u) => u.saleId).sort()).toEqual(results.map((r) => r.json().id).sort());
    expect(uses.every((u) => u.discountCents === 1000)).toBe(true);
    expect(await stockOf(api, p.id)).toBe(92);
  });

  it('stock goes down with the sale (ledger rows) and comes back on cancel; insufficient stock is 409', async () => {
    const { auth, api } = await makeShop(t);
    const p = await makeProduct(t, auth, { name: 'Refrigerante', salePriceCents: 500, stock: 10 });
    const sale = await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 3 }],
      payments: [{ method: 'money', amountCents: 1500 }],
    });
    expect(await stockOf(api, p.id)).toBe(7);
    const tooMany = await api.post('/sale', {
      items: [{ productId: p.id, quantity: 8 }],
      payments: [{ method: 'money', amountCents: 4000 }],
    });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().message).toMatch(/Estoque insuficiente para Refrigerante/);
    const cancel = await api.post(`/sale/${sale.id}/cancel`, { reason: 'Devolução' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await stockOf(api, p.id)).toBe(10);
    const rows = await t.database.db
      .select({ type: stockMovements.type, quantity: stockMovements.quantity })
      .from(stockMovements)
      .where(eq(stockMovements.saleId, sale.id))
      .orderBy(asc(stockMovements.id));
    expect(rows.map((r) => [r.type, Number(r.quantity)])).toEqual([
      ['sale', -3],
      ['sale-cancel', 3],
    ]);
    const twice = await api.post(`/sale/${sale.id}/cancel`, { reason: 'De novo' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Esta venda já está cancelada');
  });

  it('with stockManagement off the sale does not touch stock', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 500, stock: 1 });
    const { clients } = await import('../../db/schema.ts');
    await t.database.db.update(clients).set({ stockManagement: false }).where(eq(clients.id, client.id));
    await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 5 }],
      payments: [{ method: 'pix', amountCents: 2500 }],
    });
    expect(await stockOf(api, p.id)).toBe(1);
  });

  it('50 parallel checkouts for the last 5 units: exactly 5 succeed, numbers without gaps or repeats', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { name: 'Última peça', salePriceCents: 1000, stock: 5 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        api.post('/sale', {
          items: [{ productId: p.id, quantity: 1 }],
          payments: [{ method: 'pix', amountCents: 1000 }],
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(45);
    expect(await stockOf(api, p.id)).toBe(0);
    const numbers = results
      .filter((r) => r.statusCode === 201)
      .map((r) => r.json().number)
      .sort((a: number, b: number) => a - b);
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
    // More parallel sales afterwards keep counting without gaps.
    const q = await makeProduct(t, auth, { salePriceCents: 100, stock: 1000 });
    const more = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.post('/sale', {
          items: [{ productId: q.id, quantity: 1 }],
          payments: [{ method: 'money', amountCents: 100 }],
        }),
      ),
    );
    expect(more.every((r) => r.statusCode === 201)).toBe(true);
    const all = await t.database.db
      .select({ number: sales.number })
      .from(sales)
      .where(eq(sales.clientId, client.id))
      .orderBy(asc(sales.number));
    expect(all.map((s) => s.number)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });
});

describe('idempotency', () => {
  it('a retried request returns the first sale, also when the retries race', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 1000, stock: 10 });
    const body = {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    };
    const key = { 'idempotency-key': `venda-${Date.now()}` };
    const first = await api.post('/sale', body, key);
    expect(first.statusCode).toBe(201);
    const retry = await api.post('/sale', body, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().id).toBe(first.json().id);
    const reused = await api.post('/sale', { ...body, items: [{ productId: p.id, quantity: 2 }] }, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toMatch(/Idempotency-Key já foi usada/);

    const raceKey = { 'idempotency-key': `corrida-${Date.now()}` };
    const race = await Promise.all(Array.from({ length: 8 }, () => api.post('/sale', body, raceKey)));
    const ids = new Set(race.map((r) => r.json().id));
    expect(ids.size).toBe(1);
    expect(race.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(await stockOf(api, p.id)).toBe(8);
    const count = await t.database.db
      .select({ id: sales.id })
      .from(sales)
      .where(eq(sales.clientId, client.id));
    expect(count).toHaveLength(2);
    // A failed attempt does not burn the key: fixing the payment with the same key sells.
    const failKey = { 'idempotency-key': `falha-${Date.now()}` };
    expect((await api.post('/sale', { ...body, payments: [] }, failKey)).statusCode).toBe(422);
    const bad = await api.post('/sale', body, { 'idempotency-key': 'com espaço' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('quick sale, list, cancel rights and tenancy', () => {
  it('forgets Idempotency-Keys after a week: the sale stays, the key can start a new sale', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 1000, stock: 10 });
    const body = {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    };
    const key = { 'idempotency-key': `semana-${Date.now()}` };
    const first = await api.post('/sale', body, key);
    expect(first.statusCode).toBe(201);
    // A retry after the register was closed still answers the first sale.
    const closed = await api.post('/cash-register/close', { counted: [] });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await api.post('/sale', body, key)).statusCode).toBe(200);
    const otherKey = { 'idempotency-key': `sem-caixa-${Date.now()}` };
    const noRegister = await api.post('/sale', body, otherKey);
    expect(noRegister.statusCode).toBe(422);
    expect(noRegister.json().message).toBe('Abra o caixa para vender');
    expect((await api.post('/cash-register/open', { openingAmountCents: 0 })).statusCode).toBe(201);
    // The refused attempt left no key behind: the same key now sells.
    expect((await api.post('/sale', body, otherKey)).statusCode).toBe(201);
    const inSixDays = new Date(Date.now() + 6 * 86_400_000);
    await purgeIdempotencyKeys(t.database.db, inSixDays);
    expect((await api.post('/sale', body, key)).statusCode).toBe(200);
    const inEightDays = new Date(Date.now() + 8 * 86_400_000);
    expect(await purgeIdempotencyKeys(t.database.db, inEightDays)).toBeGreaterThanOrEqual(1);
    expect((await api.get(`/sale/${first.json().id}`)).statusCode).toBe(200);
    const again = await api.post('/sale', body, key);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).not.toBe(first.json().id);
    const numbers = await t.database.db
      .select({ number: sales.number })
      .from(sales)
      .where(eq(sales.clientId, client.id))
      .orderBy(asc(sales.number));
    expect(numbers).toEqual([{ number: 1 }, { number: 2 }, { number: 3 }]);
  });

  it('quick sale: a description and a value', async () => {
    const { api } = await makeShop(t);
    const res = await api.post('/sale/simple', {
      description: 'Conserto de bolsa',
      valueCents: 4500,
      payments: [{ method: 'money', amountCents: 5000 }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      isSimple: true,
      finalAmountCents: 4500,
      changeCents: 500,
      items: [{ productId: null, description: 'Conserto de bolsa', quantity: 1, totalCents: 4500 }],
    });
  });

  it('lists with filters and totals of the filtered set, and exports CSV', async () => {
    const { users, client, auth: admin, api } = await makeShop(t, [1, 3]);
    const seller = bearer(users[1].token);
    await openRegister(t, seller, 0);
    const p = await makeProduct(t, admin, { salePriceCents: 1000, stock: 100 });
    const maria = await makeCustomer(t, admin, { name: 'Maria Filtro' });
    const a = await makeSale(t, admin, {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    const b = await makeSale(t, seller, {
      items: [{ productId: p.id, quantity: 2 }],
      customerId: maria.id,
      payments: [{ method: 'money', amountCents: 2000 }],
    });
    const c = await makeSale(t, admin, {
      items: [{ productId: p.id, quantity: 3 }],
      sellerId: users[1].user.id,
      payments: [
        { method: 'pix', amountCents: 1000 },
        { method: 'debitCard', amountCents: 2000 },
      ],
    });
    await api.post(`/sale/${a.id}/cancel`, { reason: 'Teste' });
    const base = `/sale/client/${client.id}`;
    const all = (await api.get(`${base}?from=${today}&to=${today}`)).json();
    expect(all.total).toBe(3);
    expect(all.items.map((s: Sale) => s.id)).toEqual([c.id, b.id, a.id]);
    expect(all.totals).toMatchObject({
      count: 3,
      activeCount: 2,
      activeAmountCents: 5000,
      byStatus: { canceled: { count: 1, amountCents: 1000 }, finished: { count: 2, amountCents: 5000 } },
      byPaymentMethod: { money: 2000, pix: 1000, debitCard: 2000 },
    });
    const bySeller = (await api.get(`${base}?sellerId=${users[1].user.id}`)).json();
    expect(bySeller.items.map((s: Sale) => s.id)).toEqual([c.id, b.id]);
    const byMethod = (await api.get(`${base}?paymentMethod=pix&status=finished`)).json();
    expect(byMethod.items.map((s: Sale) => s.id)).toEqual([c.id]);
    expect(byMethod.totals.count).toBe(1);
    const byCustomer = (await api.get(`${base}?customerId=${maria.id}`)).json();
    expect(byCustomer.items.map((s: Sale) => s.id)).toEqual([b.id]);
    const byName = (await api.get(`${base}?q=filtro`)).json();
    expect(byName.items.map((s: Sale) => s.id)).toEqual([b.id]);
    const byNumber = (await api.get(`${base}?q=${c.number}`)).json();
    expect(byNumber.items.map((s: Sale) => s.id)).toEqual([c.id]);
    const yesterday = (await api.get(`${base}?to=${addDays(today, -1)}`)).json();
    expect(yesterday.total).toBe(0);
    const badPeriod = await api.get(`${base}?from=${today}&to=${addDays(today, -1)}`);
    expect(badPeriod.statusCode).toBe(400);
    const csv = await api.get(`${base}/export?status=finished`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'numero;data;status;tipo;origem;cliente;vendedor;operador;itens;desconto;cupom;frete;total;pagamentos',
    );
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('Maria Filtro');
    expect(lines[1]).toContain(';30,00;');
  });

  it('CSV export guards against spreadsheet formulas in names', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 1000, stock: 100 });
    const evil = await makeCustomer(t, auth, { name: '=HYPERLINK("http://x")' });
    await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: evil.id,
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    const csv = await api.get(`/sale/client/${client.id}/export`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(`"'=HYPERLINK(""http://x"")"`);
  });

  it('cancel: 403 for a cashier without approval, allowed with a manager password; others cannot sell', async () => {
    const { users, auth: cashier, api, apis } = await makeShop(t, [4, 2, 6]);
    const p = await makeProduct(t, bearer(users[1].token), { salePriceCents: 1000, stock: 100 });
    const sale = await makeSale(t, cashier, {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    const denied = await api.post(`/sale/${sale.id}/cancel`, { reason: 'Erro de digitação' });
    expect(denied.statusCode).toBe(403);
    const approved = await api.post(`/sale/${sale.id}/cancel`, {
      reason: 'Erro de digitação',
      approval: { email: users[1].email, password: TEST_PASSWORD },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().canceledBy.id).toBe(users[0].user.id);
    expect(approved.json().cancelApprovedBy).toEqual({ id: users[1].user.id, name: users[1].user.name });
    expect((await apis[0].get(`/sale/${approved.json().id}`)).json().cancelApprovedBy).toEqual(
      approved.json().cancelApprovedBy,
    );
    const stockist = apis[2];
    expect((await stockist.post('/sale', { items: [{ productId: p.id, quantity: 1 }] })).statusCode).toBe(
      403,
    );
  });

  it('another client never sees or touches a sale (404), nor sells its products', async () => {
    const mine = await makeShop(t);
    const other = await makeShop(t);
    const p = await makeProduct(t, mine.auth, { salePriceCents: 1000, stock: 100 });
    const sale = await makeSale(t, mine.auth, {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    expect((await other.api.get(`/sale/${sale.id}`)).statusCode).toBe(404);
    expect((await other.api.get(`/sale/client/${mine.client.id}`)).statusCode).toBe(404);
    expect((await other.api.get(`/sale/client/${mine.client.id}/export`)).statusCode).toBe(404);
    expect((await other.api.post(`/sale/${sale.id}/cancel`, { reason: 'Invasão' })).statusCode).toBe(404);
    const stolen = await other.api.post('/sale', {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().message).toBe('Produto não encontrado');
    const maria = await makeCustomer(t, mine.auth);
    const q = await makeProduct(t, other.auth, { salePriceCents: 1000, stock: 100 });
    const foreignCustomer = await other.api.post('/sale', {
      items: [{ productId: q.id, quantity: 1 }],
      customerId: maria.id,
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    expect(foreignCustomer.statusCode).toBe(422);
    expect(foreignCustomer.json().message).toBe('Cliente não encontrado');
    expect((await other.api.get(`/sale/customer-credit/${maria.id}`)).statusCode).toBe(404);
    const own = await t.database.db
      .select({ id: sales.id })
      .from(sales)
      .where(and(eq(sales.clientId, other.client.id)));
    expect(own).toHaveLength(0);
  });

  it('delivery without a customer or an address: refused in Portuguese, nothing recorded (issue 30 item 4)', async () => {
    const { auth, api } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 3000, stock: 5 });
    const ana = await makeCustomer(t, auth, { name: 'Ana Sem Endereço' });
    for (const who of [{ customerId: null }, { customerId: ana.id }]) {
      const res = await api.post('/sale', {
        items: [{ productId: p.id, quantity: 1 }],
        typeOfSale: 'delivery',
        ...who,
        deliveryAddressId: null,
        freightCents: 0,
        payments: [{ method: 'paymentOnDelivery', amountCents: 3000 }],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe('Informe o cliente e o endereço de entrega');
    }
    expect((await api.get(`/product/${p.id}`)).json().stock).toBe(5);
  });

  it('delivery: the customer address is kept on the sale with the freight', async () => {
    const { auth, api } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 3000, stock: 100 });
    const ana = await makeCustomer(t, auth, {
      name: 'Ana Entrega',
      addresses: [
        {
          zipCode: '01001000',
          street: 'Praça da Sé',
          number: '100',
          neighborhood: 'Sé',
          city: 'São Paulo',
          state: 'SP',
        },
      ],
    });
    const sale = await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      typeOfSale: 'delivery',
      customerId: ana.id,
      deliveryAddressId: ana.addresses[0].id,
      freightCents: 800,
      payments: [{ method: 'paymentOnDelivery', amountCents: 3800 }],
    });
    expect(sale).toMatchObject({
      typeOfSale: 'delivery',
      freightCents: 800,
      finalAmountCents: 3800,
      deliveryAddress: { street: 'Praça da Sé', number: '100', city: 'São Paulo' },
    });
    expect((await api.get(`/sale/${sale.id}`)).json()).toEqual({ ...sale, warnings: undefined });
  });
});

describe("checkout in the shop's time zone (issue 14)", () => {
  it("judges the coupon, the installments' due dates and what is overdue by the shop's date", async () => {
    // At any instant one of these zones is on another date than São Paulo (UTC+14 from 07:00 in
    // São Paulo on, UTC-11 before 08:00): the shop lives there.
    const zone = dateIn('Pacific/Kiritimati') !== today ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const shopDate = dateIn(zone);
    expect(shopDate).not.toBe(today);
    const { auth, api, client } = await makeShop(t);
    await t.database.db.update(clients).set({ timeZone: zone }).where(eq(clients.id, client.id));
    const p = await makeProduct(t, auth, { salePriceCents: 10000, stock: 100 });
    const ana = await makeCustomer(t, auth, { name: 'Ana do Fuso' });
    // A coupon valid only on the shop's date.
    const c = await makeCoupon(t, auth, { discountValue: 10 });
    await t.database.db
      .update(coupons)
      .set({ startDate: shopDate, endDate: shopDate })
      .where(eq(coupons.id, c.id));
    const sale = await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: ana.id,
      couponCode: c.code,
      payments: [{ method: 'creditShop', amountCents: 9000 }],
    });
    expect(sale.couponDiscountCents).toBe(1000);
    expect(sale.receivables.map((r) => r.dueDate)).toEqual([addDays(shopDate, 1)]);

    // Due on the earlier of the two dates: overdue only when the shop's date is the later one.
    const due = shopDate < today ? shopDate : today;
    const overdue = shopDate > today;
    await t.database.db.update(receivables).set({ dueDate: due }).where(eq(receivables.saleId, sale.id));
    expect((await api.get(`/sale/${sale.id}`)).json().receivables[0].isOverdue).toBe(overdue);
    const credit = (await api.get(`/sale/customer-credit/${ana.id}`)).json();
    expect(credit).toMatchObject({ isDelinquent: overdue, overdueCents: overdue ? 9000 : 0 });
    const detail = (await api.get(`/customer/${ana.id}`)).json();
    expect(detail).toMatchObject({ isDelinquent: overdue, overdueCents: overdue ? 9000 : 0 });
    const delinquents = (await api.get(`/customer/client/${client.id}?delinquent=true`)).json();
    expect(delinquents.items.map((x: { id: number }) => x.id)).toEqual(overdue ? [ana.id] : []);

    // The list's period is the shop's days; the CSV shows the shop's clock.
    const base = `/sale/client/${client.id}`;
    const onShopDate = (await api.get(`${base}?from=${shopDate}&to=${shopDate}`)).json();
    expect(onShopDate.items.map((x: Sale) => x.id)).toEqual([sale.id]);
    expect((await api.get(`${base}?from=${today}&to=${today}`)).json().items).toEqual([]);
    const [y, m, d] = shopDate.split('-');
    const csv = await api.get(`${base}/export`);
    expect(csv.body.split('\r\n')[1]).toContain(`;${d}/${m}/${y} `);
  });
});
