import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { expectStatus, makeShop, makeSimpleSale } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);

/** Issue 34, "a payable paid in cash at the till appears in the register's close". */
describe("a bill paid from the till in the register's close", () => {
  it('is a withdrawal with its description and amount in the closing report, the expected cash net of it', async () => {
    // R$ 100,00 opening, a R$ 25,00 cash sale.
    const shop = await makeShop(t, [1]);
    const a = shop.api;
    await makeSimpleSale(t, shop.auth, {
      valueCents: 2500,
      payments: [{ method: 'money', amountCents: 2500 }],
    });
    const category = expectStatus(await a.get('/payable/category'), 200).find(
      (c: { name: string }) => c.name === 'Energia elétrica',
    );
    const bill = async (description: string, amountCents: number) =>
      expectStatus(
        await a.post('/payable', { categoryId: category.id, description, amountCents, dueDate: today }),
        201,
      ).items[0];
    const light = await bill('Conta de luz', 8000);
    const water = await bill('Conta de água', 3000);
    // R$ 80,00 + R$ 1,50 of interest out of the drawer.
    const paid = expectStatus(
      await a.post(`/payable/${light.id}/pay`, {
        paidOn: today,
        amountCents: 8000,
        interestCents: 150,
        method: 'money',
        source: 'register',
      }),
      200,
    );
    // Paid from the bank: not the till's money.
    expectStatus(
      await a.post(`/payable/${water.id}/pay`, {
        paidOn: today,
        amountCents: 3000,
        method: 'pix',
        source: 'bank',
      }),
      200,
    );
    const registerId = paid.payments[0].cashRegisterId;

    // The close counts the drawer: 100,00 + 25,00 - 81,50 = 43,50.
    const closing = expectStatus(
      await a.post('/cash-register/close', { counted: [{ method: 'money', amountCents: 4350 }] }),
      200,
    );
    // The report the close screen shows, and the same register read again from the history.
    const reread = expectStatus(await a.get(`/cash-register/${registerId}`), 200);
    for (const report of [closing, reread]) {
      expect(report).toMatchObject({ id: registerId, status: 'closed', closedAt: expect.any(String) });
      expect(report.movements).toEqual([
        expect.objectContaining({
          type: 'withdrawal',
          paymentMethod: 'money',
          amountCents: 8150,
          reason: 'Conta a pagar: Conta de luz',
        }),
      ]);
      expect(report.money).toMatchObject({
        openingCents: 10000,
        salesCents: 2500,
        withdrawalsCents: 8150,
        expectedCents: 4350,
      });
      expect(report.totals).toEqual({ expectedCents: 4350, countedCents: 4350, differenceCents: 0 });
    }

    // Closed, the withdrawal stays: reversing the payment is refused and the report does not change.
    const reverse = await a.post(`/payable/${light.id}/payment/${paid.payments[0].id}/reverse`);
    expect(reverse.statusCode).toBe(422);
    expect(reverse.json().message).toBe(
      'O caixa deste pagamento já foi fechado: o estorno não pode voltar ao caixa. Registre um suprimento se o dinheiro voltou.',
    );
    expect(expectStatus(await a.get(`/cash-register/${registerId}`), 200).money.withdrawalsCents).toBe(8150);
    expect(expectStatus(await a.get(`/payable/${light.id}`), 200)).toMatchObject({ status: 'paid' });
  });
});
