import type { Billing, Invoice } from '@balcao/core/billing';
import { addMonths } from '@balcao/core/billing';
import { addDays } from '@balcao/core/date';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeAsaas, startFakeAsaas } from '../../../test/fakes/asaas.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { asUser, expectStatus, makeProduct, makeSale, makeShop } from '../../../test/kit.ts';
import { asaasClient } from './asaas.ts';
import { pixExpired } from './service.ts';

const WEBHOOK_TOKEN = 'token-do-webhook-de-teste';

let t: TestApp;
let asaas: FakeAsaas;

beforeAll(async () => {
  asaas = await startFakeAsaas();
  t = await createTestApp({
    asaas: { baseUrl: asaas.url, apiKey: asaas.apiKey, webhookToken: WEBHOOK_TOKEN, timeoutMs: 5000 },
  });
});
afterAll(async () => {
  await t.close();
  await asaas.close();
});

const webhook = (body: Record<string, unknown>, token: string | null = WEBHOOK_TOKEN) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/billing/webhook/asaas',
    headers: token === null ? {} : { 'asaas-access-token': token },
    payload: body,
  });

/** Moves a shop's subscription start back (its invoices are issued again from there on the next read). */
async function startedOn(clientId: number, date: string) {
  await t.database.db.execute(
    sql`update billing_subscriptions set started_on = ${date} where client_id = ${clientId}`,
  );
  await t.database.db.execute(sql`delete from billing_invoices where client_id = ${clientId}`);
}

describe('billing page', () => {
  it('shows the plan, usage, current period and the first invoice to an Administrador only', async () => {
    const shop = await asUser(t, [1, 2, 4]);
    await makeProduct(t, shop.auth);
    const billing = expectStatus<Billing>(await shop.api.get('/billing'), 200);
    const today = dateIn(DEFAULT_TIME_ZONE);
    expect(billing.plan).toEqual({
      code: 'profissional',
      name: 'Profissional',
      priceCents: 14990,
      maxUsers: 10,
      maxProducts: 5000,
    });
    expect(billing.usage).toEqual({ users: 3, products: 1 });
    expect(billing.currentPeriod).toEqual({ start: today, end: addDays(addMonths(today, 1), -1) });
    expect(billing.invoices).toEqual([
      expect.objectContaining({
        periodStart: today,
        dueDate: addDays(today, 7),
        amountCents: 14990,
        status: 'pending',
        pix: null,
        boleto: null,
      }),
    ]);
    expect(billing.overdue).toBeNull();
    // Reading twice issues no second invoice for the period.
    expect(expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices).toHaveLength(1);

    const [, manager, cashier] = shop.apis;
    expect((await manager.get('/billing')).statusCode).toBe(403);
    expect((await cashier.get('/billing/status')).statusCode).toBe(403);
    expect(
      (await manager.post(`/billing/invoice/${billing.invoices[0].id}/pay`, { method: 'pix' })).statusCode,
    ).toBe(403);
    expect(
      (await manager.put('/billing/plan', { planCode: 'ilimitado', updatedAt: billing.updatedAt }))
        .statusCode,
    ).toBe(403);
  });

  it('pays by Pix and by boleto through the gateway, creating one customer and one charge', async () => {
    const shop = await asUser(t, [1]);
    const other = await asUser(t, [1]);
    const [invoice] = expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices;
    expect((await other.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' })).statusCode).toBe(
      404,
    );
    const before = asaas.requests.length;

    const pix = expectStatus<Invoice>(
      await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' }),
      200,
    );
    expect(pix.pix?.payload).toMatch(/^000201/);
    expect(pix.pix?.encodedImage).toBeTruthy();
    const again = expectStatus<Invoice>(
      await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' }),
      200,
    );
    expect(again.pix).toEqual(pix.pix);
    const boleto = expectStatus<Invoice>(
      await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'boleto' }),
      200,
    );
    expect(boleto.boleto?.identificationField).toMatch(/^\d{40,}/);
    expect(boleto.boleto?.url).toContain('/b/pdf/');
    expect(boleto.pix).toEqual(pix.pix);

    const calls = asaas.requests
      .slice(before)
      .map((r) => `${r.method} ${r.path.replace(/(cus|pay)_[0-9a-f]+/, ':id')}`);
    // Each create is preceded by a lookup of its externalReference (a lost answer is never created twice).
    expect(calls).toEqual([
      'GET /v3/customers',
      'POST /v3/customers',
      'GET /v3/payments',
      'POST /v3/payments',
      'GET /v3/payments/:id/pixQrCode',
      'GET /v3/payments/:id/identificationField',
    ]);
    const charge = asaas.requests
      .slice(before)
      .find((r) => r.method === 'POST' && r.path === '/v3/payments')?.body;
    expect(charge).toMatchObject({
      billingType: 'UNDEFINED',
      value: 149.9,
      externalReference: `invoice-${invoice.id}`,
    });
  });

  it('answers a gateway outage or refusal in Portuguese and keeps what was created', async () => {
    const shop = await asUser(t, [1]);
    const [invoice] = expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices;
    asaas.failNext(500);
    const down = await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({
      code: 'unavailable',
      message: 'O gateway de pagamento não respondeu. Tente novamente em instantes.',
    });
    asaas.failNext(400);
    // What Asaas said goes to the log; the message is our own words (issue 31 item 1).
    const warn = vi.spyOn(t.app.log, 'warn');
    const refused = await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toBe(
      'O gateway de pagamento recusou a cobrança. Tente novamente ou fale com o suporte do Balcão.',
    );
    expect(refused.body).not.toContain('Operação não permitida');
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({
        service: 'asaas',
        status: 400,
        errors: [{ code: 'invalid_action', description: 'Operação não permitida.' }],
      }),
      'asaas: unexpected answer',
    );
    warn.mockRestore();
    expect((await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' })).statusCode).toBe(
      200,
    );
  });
});

describe('the gateway webhook', () => {
  async function pendingPayment() {
    const shop = await asUser(t, [1]);
    const [invoice] = expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices;
    expectStatus(await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' }), 200);
    const paymentId = [...asaas.payments.values()].find(
      (p) => p.externalReference === `invoice-${invoice.id}`,
    )?.id;
    return { shop, invoice, paymentId: paymentId as string };
  }

  it('refuses a missing or wrong token and changes nothing', async () => {
    const { shop, paymentId } = await pendingPayment();
    const event = asaas.webhookEvent('PAYMENT_RECEIVED', paymentId);
    expect((await webhook(event, null)).statusCode).toBe(401);
    const wrong = await webhook(event, 'outro-token');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Token do webhook inválido');
    expect(expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices[0].status).toBe('pending');
    // The refused event was not recorded: the real delivery still acts.
    expect(expectStatus(await webhook(event), 200)).toEqual({ received: true, processed: true });
  });

  it('marks the invoice paid exactly once under retries', async () => {
    const { shop, invoice, paymentId } = await pendingPayment();
    const event = asaas.webhookEvent('PAYMENT_RECEIVED', paymentId);
    const answers = await Promise.all([webhook(event), webhook(event), webhook(event)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.json().processed)).toHaveLength(1);
    const paid = expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices[0];
    expect(paid).toMatchObject({ id: invoice.id, status: 'paid' });
    expect(paid.paidAt).not.toBeNull();

    // A later retry, and the CONFIRMED event of the same payment, change nothing.
    expect(expectStatus(await webhook(event), 200)).toEqual({ received: true, processed: false });
    const confirmed = asaas.webhookEvent('PAYMENT_CONFIRMED', paymentId);
    expect(expectStatus(await webhook(confirmed), 200)).toEqual({ received: true, processed: false });
    const overdueLate = asaas.webhookEvent('PAYMENT_OVERDUE', paymentId);
    expect(expectStatus(await webhook(overdueLate), 200)).toEqual({ received: true, processed: false });
    const after = expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices[0];
    expect(after.paidAt).toBe(paid.paidAt);
    expect(after.status).toBe('paid');
    const pay = await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' });
    expect(pay.statusCode).toBe(409);
    expect(pay.json().message).toBe('Esta fatura já está paga');
  });

  it('marks an invoice overdue on PAYMENT_OVERDUE and acknowledges unknown payments', async () => {
    const { shop, paymentId } = await pendingPayment();
    expect(expectStatus(await webhook(asaas.webhookEvent('PAYMENT_OVERDUE', paymentId)), 200).processed).toBe(
      true,
    );
    expect(expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices[0].status).toBe('overdue');
    expect(
      expectStatus(await webhook(asaas.webhookEvent('PAYMENT_RECEIVED', 'pay_desconhecido')), 200),
    ).toEqual({
      received: true,
      processed: false,
    });
  });
});

describe('Asaas: lost answers, refunds and chargebacks, expired Pix codes (issue 31 item 13)', () => {
  /** An app whose gateway calls give up after 300 ms, to lose the answer of a create that succeeded. */
  let quick: TestApp;
  beforeAll(async () => {
    quick = await createTestApp({
      asaas: { baseUrl: asaas.url, apiKey: asaas.apiKey, webhookToken: WEBHOOK_TOKEN, timeoutMs: 300 },
    });
  });
  afterAll(() => quick.close());

  const chargesOf = (invoiceId: number) =>
    [...asaas.payments.values()].filter((p) => p.externalReference === `invoice-${invoiceId}`);

  it('a create that timed out after Asaas accepted it is found by externalReference, never made twice', async () => {
    const shop = await asUser(quick, [1]);
    const [invoice] = expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices;
    const unreachable = 'O gateway de pagamento não respondeu. Tente novamente em instantes.';

    // The customer is created at Asaas, its answer comes too late: 503, our row rolled back.
    asaas.stallNext(1500, 'POST /v3/customers');
    const lostCustomer = await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' });
    expect(lostCustomer.statusCode).toBe(503);
    expect(lostCustomer.json().message).toBe(unreachable);
    // The same for the charge.
    asaas.stallNext(1500, 'POST /v3/payments');
    const lostCharge = await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' });
    expect(lostCharge.statusCode).toBe(503);
    expect(chargesOf(invoice.id)).toHaveLength(1);

    const paid = expectStatus<Invoice>(
      await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' }),
      200,
    );
    expect(paid.pix?.payload).toContain(chargesOf(invoice.id)[0].id);
    expect(chargesOf(invoice.id)).toHaveLength(1);
    const customers = [...asaas.customers.values()].filter(
      (c) => c.externalReference === `client-${shop.client.id}`,
    );
    expect(customers).toHaveLength(1);
  });

  it('a refund or a chargeback makes the invoice unpaid; paying again makes a new charge', async () => {
    const shop = await asUser(t, [1]);
    const [invoice] = expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices;
    expectStatus(await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' }), 200);
    const first = chargesOf(invoice.id)[0].id;
    const current = async () => expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices[0];

    expect(expectStatus(await webhook(asaas.webhookEvent('PAYMENT_RECEIVED', first)), 200).processed).toBe(
      true,
    );
    expect((await current()).status).toBe('paid');
    expect(expectStatus(await webhook(asaas.webhookEvent('PAYMENT_REFUNDED', first)), 200).processed).toBe(
      true,
    );
    const refunded = await current();
    expect(refunded).toMatchObject({ status: 'pending', paidAt: null, pix: null, boleto: null });

    // Paying again: the refunded charge is over, a new one is made for the same invoice.
    const again = expectStatus<Invoice>(
      await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' }),
      200,
    );
    const charges = chargesOf(invoice.id);
    expect(charges.map((c) => c.status)).toEqual(['REFUNDED', 'PENDING']);
    expect(again.pix?.payload).toContain(charges[1].id);
    const second = charges[1].id;

    // A chargeback on the new charge: unpaid again; the dispute won (received again): paid.
    expect(expectStatus(await webhook(asaas.webhookEvent('PAYMENT_CONFIRMED', second)), 200).processed).toBe(
      true,
    );
    expect(
      expectStatus(await webhook(asaas.webhookEvent('PAYMENT_CHARGEBACK_REQUESTED', second)), 200).processed,
    ).toBe(true);
    expect((await current()).status).toBe('pending');
    expect(expectStatus(await webhook(asaas.webhookEvent('PAYMENT_RECEIVED', second)), 200).processed).toBe(
      true,
    );
    expect((await current()).status).toBe('paid');
  });

  it('fetches a cached Pix code again once its expirationDate (Brasília time) has passed', async () => {
    const shop = await asUser(t, [1]);
    const [invoice] = expectStatus<Billing>(await shop.api.get('/billing'), 200).invoices;
    const qrCalls = () => asaas.requests.filter((r) => r.path.endsWith('/pixQrCode')).length;
    asaas.setPixExpiration(() => '2020-01-01 23:59:59');
    try {
      const before = qrCalls();
      const first = expectStatus<Invoice>(
        await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' }),
        200,
      );
      expect(first.pix?.expirationDate).toBe('2020-01-01 23:59:59');
      asaas.setPixExpiration((p) => `${p.dueDate} 23:59:59`);
      const fresh = expectStatus<Invoice>(
        await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' }),
        200,
      );
      expect(fresh.pix?.expirationDate).toBe(`${invoice.dueDate} 23:59:59`);
      expect(qrCalls()).toBe(before + 2);
      // Still valid: the cached code is answered, no call.
      expectStatus(await shop.api.post(`/billing/invoice/${invoice.id}/pay`, { method: 'pix' }), 200);
      expect(qrCalls()).toBe(before + 2);
    } finally {
      asaas.setPixExpiration((p) => `${p.dueDate} 23:59:59`);
    }
    // The expiration is Brasília's wall clock: 23:59:59 of the 26th there is 02:59:59 UTC on the 27th.
    expect(pixExpired('2026-11-26 23:59:59', new Date('2026-11-27T02:30:00Z'))).toBe(false);
    expect(pixExpired('2026-11-26 23:59:59', new Date('2026-11-27T03:00:00Z'))).toBe(true);
    expect(pixExpired(null)).toBe(true);
  });

  it("the fake checks due dates against Brasília's date, as Asaas does", async () => {
    const gateway = asaasClient({ baseUrl: asaas.url, apiKey: asaas.apiKey, timeoutMs: 2000 });
    // 22:30 of the 26th in Brasília is already the 27th in UTC.
    asaas.setNow(() => new Date('2026-11-27T01:30:00Z'));
    try {
      const customer = await gateway.createCustomer({
        name: 'Loja Teste',
        cpfCnpj: '11222333000181',
        externalReference: 'client-fuso',
      });
      const base = {
        customer: customer.id,
        billingType: 'UNDEFINED' as const,
        value: 10,
        description: 'Teste',
        externalReference: 'invoice-fuso',
      };
      const today = await gateway.createPayment({ ...base, dueDate: '2026-11-26' });
      expect(today.dueDate).toBe('2026-11-26');
      await expect(gateway.createPayment({ ...base, dueDate: '2026-11-25' })).rejects.toMatchObject({
        statusCode: 502,
        message:
          'O gateway de pagamento recusou o vencimento da cobrança. Tente novamente em instantes ou fale com o suporte do Balcão.',
      });
    } finally {
      asaas.setNow(() => new Date());
    }
  });
});

describe('overdue banner', () => {
  it('shows the oldest unpaid invoice after the grace period, and selling goes on', async () => {
    const shop = await makeShop(t, [1, 4]);
    expectStatus(await shop.api.get('/billing'), 200);
    const today = dateIn(DEFAULT_TIME_ZONE);
    // Started 2 months ago: the first invoice was due 7 days after, more than the 5 days of grace.
    const start = addMonths(today, -2);
    await startedOn(shop.client.id, start);
    const billing = expectStatus<Billing>(await shop.api.get('/billing'), 200);
    expect(billing.invoices.map((i) => i.periodStart)).toEqual([
      addMonths(start, 2),
      addMonths(start, 1),
      start,
    ]);
    expect(billing.invoices.at(-1)?.status).toBe('overdue');
    expect(billing.overdue).toMatchObject({
      invoiceId: billing.invoices.at(-1)?.id,
      dueDate: addDays(start, 7),
    });
    expect(billing.overdue?.daysOverdue).toBeGreaterThan(5);
    expect(expectStatus(await shop.api.get('/billing/status'), 200)).toEqual({ overdue: billing.overdue });

    // Never blocks selling.
    const product = await makeProduct(t, shop.auth, { salePriceCents: 500, stock: 5 });
    const sale = await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 500 }],
    });
    expect(sale.status).not.toBe('canceled');
  });

  it('has no banner inside the grace period', async () => {
    const shop = await asUser(t, [1]);
    expectStatus(await shop.api.get('/billing'), 200);
    // Due 3 days ago (started 10 days ago): overdue, but inside the 5 days of grace.
    await startedOn(shop.client.id, addDays(dateIn(DEFAULT_TIME_ZONE), -10));
    const billing = expectStatus<Billing>(await shop.api.get('/billing'), 200);
    expect(billing.invoices[0].status).toBe('overdue');
    expect(billing.overdue).toBeNull();
  });
});

describe('plan limits', () => {
  it('refuses a user past the plan with a clear message, and a plan the shop does not fit', async () => {
    const shop = await asUser(t, [1, 2, 3, 4]);
    const billing = expectStatus<Billing>(await shop.api.get('/billing'), 200);
    const small = await shop.api.put('/billing/plan', {
      planCode: 'essencial',
      updatedAt: billing.updatedAt,
    });
    expect(small.statusCode).toBe(422);
    expect(small.json().message).toBe('O plano Essencial permite até 3 usuários e a loja tem 4.');

    const bigger = expectStatus<Billing>(
      await shop.api.put('/billing/plan', { planCode: 'ilimitado', updatedAt: billing.updatedAt }),
      200,
    );
    expect(bigger.plan.name).toBe('Ilimitado');
    expect(bigger.updatedBy?.id).toBe(shop.users[0].user.id);
    const stale = await shop.api.put('/billing/plan', {
      planCode: 'profissional',
      updatedAt: billing.updatedAt,
    });
    expect(stale.statusCode).toBe(409);

    const three = await asUser(t, [1, 2]);
    const b3 = expectStatus<Billing>(await three.api.get('/billing'), 200);
    expectStatus(
      await three.api.put('/billing/plan', { planCode: 'essencial', updatedAt: b3.updatedAt }),
      200,
    );
    const newUser = (n: number) => ({
      name: `Caixa ${n}`,
      email: `caixa${n}-${Date.now()}@teste.com.br`,
      userTypeId: 4,
      password: 'senhaforte1',
      passwordConfirmation: 'senhaforte1',
    });
    expect((await three.api.post('/user', newUser(1))).statusCode).toBe(201);
    const fourth = await three.api.post('/user', newUser(2));
    expect(fourth.statusCode).toBe(422);
    expect(fourth.json().message).toBe(
      'Seu plano Essencial permite até 3 usuários. Para cadastrar mais, mude de plano em Configurações > Assinatura.',
    );
    // An inactive user takes no seat; reactivating one past the limit is refused the same way.
    const inactive = expectStatus(await three.api.post('/user', { ...newUser(3), active: false }), 201);
    const reactivate = await three.api.put(`/user/${inactive.id}`, {
      name: inactive.name,
      email: inactive.email,
      userTypeId: 4,
      active: true,
      updatedAt: inactive.updatedAt,
    });
    expect(reactivate.statusCode).toBe(422);
    expect(reactivate.json().message).toBe(fourth.json().message);
  });

  it('refuses a product past the plan with a clear message', async () => {
    const shop = await asUser(t, [1]);
    const billing = expectStatus<Billing>(await shop.api.get('/billing'), 200);
    expectStatus(
      await shop.api.put('/billing/plan', { planCode: 'essencial', updatedAt: billing.updatedAt }),
      200,
    );
    await t.database.db.execute(sql`
      insert into products (client_id, name, sale_price_cents, name_key, search_text)
      select ${shop.client.id}, 'Produto ' || n, 100, 'produto ' || n, 'produto ' || n from generate_series(1, 499) n`);
    await makeProduct(t, shop.auth);
    const past = await shop.api.post('/product', { name: 'Produto 501', salePriceCents: 100 });
    expect(past.statusCode).toBe(422);
    expect(past.json().message).toBe(
      'Seu plano Essencial permite até 500 produtos. Para cadastrar mais, mude de plano em Configurações > Assinatura.',
    );
    expect(expectStatus<Billing>(await shop.api.get('/billing'), 200).usage.products).toBe(500);
  });
});
