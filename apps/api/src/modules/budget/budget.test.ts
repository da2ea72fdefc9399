import { addDays } from '@balcao/core/date';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import type { FakeEvolution } from '../../../test/fakes/evolution.ts';
import { bearer, createClientWithUsers, type TestApp } from '../../../test/helper.ts';
import {
  api,
  collectMessages,
  expectStatus,
  type Headers,
  joinChannel,
  makeCustomer,
  makeProduct,
  makeShop,
  type SocketClients,
  useTestApp,
} from '../../../test/kit.ts';
import { pdfText } from '../../../test/pdf.ts';
import { sales } from '../sale/schema.ts';
import { stockReservations } from '../stock/schema.ts';
import { budgetLinks, budgets } from './schema.ts';

const API_KEY = 'chave-orcamento';
/** The server's configured public address (PUBLIC_URL): every approval link starts with it. */
const APP_URL = 'http://loja.test';
let t: TestApp;
let sockets: SocketClients;
let evolution: FakeEvolution;
useTestApp(
  { config: { apiKey: API_KEY, publicUrl: APP_URL }, sockets: true, evolution: true },
  (app) => ({ t, sockets, evolution } = app),
);

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

const brDate = (iso: string) => iso.split('-').reverse().join('/');

async function shopToday(clientId: number): Promise<string> {
  const [row] = rowsOf<{ today: string }>(
    await t.database.db.execute(
      sql`select (now() at time zone c.time_zone)::date::text as today from clients c where c.id = ${clientId}`,
    ),
  );
  return row.today;
}

async function makeBudget(auth: Headers, body: Record<string, unknown>) {
  return expectStatus(await api(t, auth).post('/budget', body), 201, 'budget');
}

/** Moves a budget's validity (and its reservation) into the past: the clock, controlled by dates. */
async function expire(budgetId: number) {
  await t.database.db.update(budgets).set({ validUntil: '2020-01-31' }).where(eq(budgets.id, budgetId));
  await t.database.db
    .update(stockReservations)
    .set({ expiresAt: new Date('2020-02-01T03:00:00Z') })
    .where(and(eq(stockReservations.holderKind, 'budget'), eq(stockReservations.holderId, budgetId)));
}

async function sendLink(auth: Headers, id: number) {
  return expectStatus(await api(t, auth).post(`/budget/${id}/send`, { channel: 'link' }), 200, 'send');
}

const tokenOf = (url: string) => url.split('/orcamento/')[1];
const publicApi = (token: string) => ({
  get: () => t.app.inject({ method: 'GET', url: `/v1/public/budget/${token}`, remoteAddress: '10.9.0.1' }),
  pdf: () =>
    t.app.inject({ method: 'GET', url: `/v1/public/budget/${token}/pdf`, remoteAddress: '10.9.0.1' }),
  answer: (payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/public/budget/${token}/answer`,
      payload,
      remoteAddress: '10.9.0.1',
    }),
});

describe('budget PDV', () => {
  it('saves a budget priced by the catalog without a register, moving no stock or money', async () => {
    const { auth, client } = await createClientWithUsers(t, [1]);
    const cheese = await makeProduct(t, auth, { name: 'Pão de queijo', salePriceCents: 750, stock: 10 });
    const coffee = await makeProduct(t, auth, { name: 'Café coado', salePriceCents: 500, stock: 10 });
    const customer = await makeCustomer(t, auth, { name: 'João Conceição', phone: '11987654321' });
    const today = await shopToday(client.id);
    const budget = await makeBudget(auth, {
      items: [
        { productId: cheese.id, quantity: 2, discountType: 'fixed_amount', discountValue: 100 },
        { productId: coffee.id, quantity: 3 },
      ],
      customerId: customer.id,
      discountType: 'percentage',
      discountValue: 1000,
      notes: 'Entregar pela manhã',
      paymentConditions: 'Pix à vista ou 2x no cartão',
    });
    // 2 x 7,50 - 1,00 = 14,00; 3 x 5,00 = 15,00; 29,00 - 10% = 26,10.
    expect(budget).toMatchObject({
      number: 1,
      status: 'pending',
      viewStatus: 'pending',
      customer: { id: customer.id, name: 'João Conceição' },
      itemsGrossCents: 3000,
      itemsDiscountCents: 100,
      totalCents: 2900,
      discountCents: 290,
      finalAmountCents: 2610,
      validUntil: addDays(today, 7),
      reserveStock: false,
      answer: null,
      sale: null,
    });
    expect(budget.items.map((i: { currentUnitPriceCents: number }) => i.currentUnitPriceCents)).toEqual([
      750, 500,
    ]);
    const second = await makeBudget(auth, { items: [{ productId: coffee.id, quantity: 1 }] });
    expect(second.number).toBe(2);
    // No stock moved.
    const product = expectStatus(await api(t, auth).get(`/product/${cheese.id}`), 200);
    expect(Number(product.stock)).toBe(10);
  });

  it('refuses a discount above the user limit, a validity in the past and a reservation without stock control', async () => {
    const { users, client } = await createClientWithUsers(t, [1, 3]);
    const seller = bearer(users[1].token);
    const p = await makeProduct(t, bearer(users[0].token), { salePriceCents: 1000 });
    const over = await api(t, seller).post('/budget', {
      items: [{ productId: p.id, quantity: 1, discountType: 'percentage', discountValue: 1500 }],
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe('Desconto acima do seu limite (10% por item)');
    const past = await api(t, seller).post('/budget', {
      items: [{ productId: p.id, quantity: 1 }],
      validUntil: '2020-01-01',
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().issues).toEqual([
      { path: 'validUntil', message: 'A validade não pode ser anterior a hoje' },
    ]);
    await t.database.db.execute(sql`update clients set stock_management = false where id = ${client.id}`);
    const reserve = await api(t, seller).post('/budget', {
      items: [{ productId: p.id, quantity: 1 }],
      reserveStock: true,
    });
    expect(reserve.statusCode).toBe(422);
    expect(reserve.json().message).toBe('A reserva de estoque precisa do controle de estoque ligado');
  });

  it('keeps budgets inside their client and their roles', async () => {
    const { auth, users } = await createClientWithUsers(t, [1, 5, 9, 10]);
    const other = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { salePriceCents: 1000 });
    const budget = await makeBudget(auth, { items: [{ productId: p.id, quantity: 1 }] });
    expect((await api(t, other.auth).get(`/budget/${budget.id}`)).statusCode).toBe(404);
    expect((await api(t, other.auth).get(`/budget/${budget.id}/pdf`)).statusCode).toBe(404);
    expect((await api(t, other.auth).post(`/budget/${budget.id}/cancel`, {})).statusCode).toBe(404);
    // Another shop's budget is not found, before the seam asks that shop's user to open a register.
    const convert = await api(t, other.auth).post(`/budget/${budget.id}/convert`, {
      payments: [{ method: 'money', amountCents: 1000 }],
    });
    expect(convert.statusCode).toBe(404);
    expect(convert.json().message).toBe('Orçamento não encontrado');
    const otherList = expectStatus(await api(t, other.auth).get('/budget'), 200);
    expect(otherList.total).toBe(0);
    const [waiter, marketing, driver] = users.slice(1).map((u) => api(t, bearer(u.token)));
    // Marketing sees the pages but does not write budgets; the garçom (issue 30) and drivers see nothing.
    expect((await waiter.get('/budget')).statusCode).toBe(403);
    expect((await marketing.get('/budget')).statusCode).toBe(200);
    expect((await marketing.post('/budget', { items: [{ productId: p.id, quantity: 1 }] })).statusCode).toBe(
      403,
    );
    expect((await waiter.post(`/budget/${budget.id}/cancel`, {})).statusCode).toBe(403);
    expect((await driver.get('/budget')).statusCode).toBe(403);
    expect((await driver.get(`/budget/${budget.id}`)).statusCode).toBe(403);
  });
});

describe('budget PDF', () => {
  it('is a real A4 PDF holding the company, items, discounts, freight, total, validity and conditions', async () => {
    const { auth, client } = await createClientWithUsers(t, [1]);
    const cheese = await makeProduct(t, auth, { name: 'Pão de queijo', salePriceCents: 750 });
    const customer = await makeCustomer(t, auth, { name: 'Conceição Araújo', phone: '11987654321' });
    const budget = await makeBudget(auth, {
      items: [{ productId: cheese.id, quantity: 4, discountType: 'fixed_amount', discountValue: 200 }],
      customerId: customer.id,
      discountType: 'fixed_amount',
      discountValue: 300,
      paymentConditions: 'Entrada de 50% e o restante na entrega',
      notes: 'Preço promocional de lançamento',
    });
    const res = await api(t, auth).get(`/budget/${budget.id}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // A4 is 595.28 x 841.89 points.
    expect(res.rawPayload.toString('latin1')).toMatch(/MediaBox \[0 0 595\.28 841\.89\]/);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(`Orçamento nº ${budget.number}`);
    expect(text).toContain('Pão de queijo');
    expect(text).toContain('Conceição Araújo');
    expect(text).toContain(client.name);
    expect(text).toContain('R$ 30,00'); // subtotal 4 x 7,50
    expect(text).toContain('- R$ 2,00'); // line discount
    expect(text).toContain('- R$ 3,00'); // budget discount
    expect(text).toContain('R$ 25,00'); // total
    expect(text).toContain(`Válido até ${brDate(budget.validUntil)}`);
    expect(text).toContain('Condições de pagamento');
    expect(text).toContain('Entrada de 50% e o restante na entrega');
    expect(text).toContain('Preço promocional de lançamento');
  });
});

describe('budget PDF: embedded font, customer contact, CEP, free delivery (issue 30)', () => {
  it('embeds its font and shows the CPF, phone, formatted CEPs and "Frete Grátis"', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const company = expectStatus(await api(t, auth).get('/settings/company'), 200);
    expectStatus(
      await api(t, auth).put('/settings/company', {
        ...company,
        name: 'Açougue São João',
        address: {
          zipCode: '01310100',
          street: 'Avenida Paulista',
          number: '1000',
          complement: '',
          neighborhood: 'Bela Vista',
          city: 'São Paulo',
          state: 'SP',
        },
        updatedAt: company.updatedAt ?? null,
      }),
      200,
    );
    const p = await makeProduct(t, auth, { name: 'Picanha maturada', salePriceCents: 9990, stock: 10 });
    const customer = await makeCustomer(t, auth, {
      name: 'Conceição Araújo',
      document: '52998224725',
      phone: '11987654321',
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
    const budget = await makeBudget(auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: customer.id,
      typeOfSale: 'delivery',
      deliveryAddressId: customer.addresses[0].id,
      freightCents: 0,
    });
    const res = await api(t, auth).get(`/budget/${budget.id}/pdf`);
    expect(res.statusCode).toBe(200);
    const raw = res.rawPayload.toString('latin1');
    // The font travels in the file (a TrueType font program), not Helvetica left to the viewer.
    expect(raw).toContain('/FontFile2');
    expect(raw).not.toContain('/BaseFont /Helvetica');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Açougue São João');
    expect(text).toContain('CEP 01310-100');
    expect(text).toContain('CPF/CNPJ: 529.982.247-25 · Telefone: (11) 98765-4321');
    expect(text).toContain('CEP 01001-000');
    expect(text).toMatch(/Frete Grátis/);
  });
});

describe('budget PDF logo', () => {
  it("carries the company's logo from storage when there is one", async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { salePriceCents: 1000 });
    const budget = await makeBudget(auth, { items: [{ productId: p.id, quantity: 1 }] });
    const pdf = async () =>
      (await api(t, auth).get(`/budget/${budget.id}/pdf`)).rawPayload.toString('latin1');
    expect(await pdf()).not.toContain('/Subtype /Image');
    const png = await sharp({
      create: { width: 300, height: 100, channels: 4, background: { r: 20, g: 90, b: 200, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const boundary = '----logo';
    const upload = await t.app.inject({
      method: 'POST',
      url: '/v1/settings/company/logo',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode).toBe(200);
    expect(await pdf()).toContain('/Subtype /Image');
  });
});

describe('sending and the approval link', () => {
  it('needs a customer to send; sending issues a link and moves pending -> sent', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { salePriceCents: 1000 });
    const noCustomer = await makeBudget(auth, { items: [{ productId: p.id, quantity: 1 }] });
    const refused = await api(t, auth).post(`/budget/${noCustomer.id}/send`, {
      channel: 'link',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Escolha o cliente para enviar o orçamento');

    // WhatsApp without the customer's number: refused before anything is written.
    const noPhone = await makeCustomer(t, auth);
    const quiet = await makeBudget(auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: noPhone.id,
    });
    const noNumber = await api(t, auth).post(`/budget/${quiet.id}/send`, {
      channel: 'whatsapp',
    });
    expect(noNumber.statusCode).toBe(422);
    expect(noNumber.json().message).toBe('O cliente não tem telefone cadastrado');
    expect(expectStatus(await api(t, auth).get(`/budget/${quiet.id}`), 200).status).toBe('pending');
    expect(await t.database.db.select().from(budgetLinks).where(eq(budgetLinks.budgetId, quiet.id))).toEqual(
      [],
    );

    const customer = await makeCustomer(t, auth, { phone: '11987654321' });
    const budget = await makeBudget(auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: customer.id,
    });
    const sent = await sendLink(auth, budget.id);
    expect(sent.budget.status).toBe('sent');
    expect(sent.budget.sentAt).not.toBeNull();
    expect(sent.link.url).toBe(`${APP_URL}/orcamento/${sent.link.token}`);
    expect(sent.link.token.length).toBeGreaterThanOrEqual(32);
    // Only the hash is stored.
    const stored = await t.database.db.select().from(budgetLinks).where(eq(budgetLinks.budgetId, budget.id));
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).not.toContain(sent.link.token);
    expect(stored[0].tokenHash).toMatch(/^[a-f0-9]{64}$/);

    // WhatsApp without a connected instance: the wa.me link with the approval link prefilled.
    const whatsapp = expectStatus(
      await api(t, auth).post(`/budget/${budget.id}/send`, { channel: 'whatsapp' }),
      200,
    );
    expect(whatsapp.whatsapp.sent).toBe(false);
    expect(whatsapp.whatsapp.waLink).toMatch(/^https:\/\/wa\.me\/5511987654321\?text=/);
    expect(decodeURIComponent(whatsapp.whatsapp.waLink)).toContain(whatsapp.link.url);
  });

  it('builds the approval link from PUBLIC_URL only: an address the client sends is ignored', async () => {
    // Issue 31 item 2 / issue 30 item 11: a Vendedor sent appUrl "https://evil.example" and the
    // link the shop's WhatsApp sends pointed there.
    const { auth, users } = await createClientWithUsers(t, [1, 3]);
    const seller = bearer(users[1].token);
    const p = await makeProduct(t, auth, { salePriceCents: 1000 });
    const customer = await makeCustomer(t, auth, { phone: '11987654321' });
    const budget = await makeBudget(seller, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: customer.id,
    });
    const forged = {
      Origin: 'https://evil.example',
      Host: 'evil.example',
      'X-Forwarded-Host': 'evil.example',
    };
    for (const channel of ['link', 'whatsapp'] as const) {
      const sent = expectStatus(
        await api(t, { ...seller, ...forged }).post(`/budget/${budget.id}/send`, {
          channel,
          appUrl: 'https://evil.example',
        }),
        200,
        channel,
      );
      expect(sent.link.url).toBe(`${APP_URL}/orcamento/${sent.link.token}`);
      expect(JSON.stringify(sent)).not.toContain('evil.example');
    }
  });

  it("a send WhatsApp refuses says so in our words, never Evolution's text (issue 31 item 1)", async () => {
    const { auth, client } = await createClientWithUsers(t, [1]);
    expectStatus(await api(t, auth).post('/whatsapp/instance'), 201, 'create instance');
    await evolution.scan(`balcao-${client.id}`);
    evolution.registered.push('5511977770001');
    const p = await makeProduct(t, auth, { salePriceCents: 1000 });
    const customer = await makeCustomer(t, auth, { phone: '11977770001' });
    const budget = await makeBudget(auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: customer.id,
    });
    // Evolution answers 500 {response: {message: ['Timed Out']}}.
    evolution.failNext = 1;
    const warn = vi.spyOn(t.app.log, 'warn');
    const sent = expectStatus(
      await api(t, auth).post(`/budget/${budget.id}/send`, { channel: 'whatsapp' }),
      200,
    );
    expect(sent.whatsapp).toMatchObject({ sent: false, reason: 'O WhatsApp recusou a mensagem' });
    expect(JSON.stringify(sent)).not.toContain('Timed Out');
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ service: 'evolution', status: 500, error: '["Timed Out"]' }),
      'evolution: unexpected answer',
    );
    warn.mockRestore();
  });

  it('sends the PDF as a document through the shop WhatsApp when it is connected', async () => {
    const { auth, client } = await createClientWithUsers(t, [1]);
    expectStatus(await api(t, auth).post('/whatsapp/instance'), 201, 'create instance');
    await evolution.scan(`balcao-${client.id}`);
    evolution.registered.push('5511977770000');
    const p = await makeProduct(t, auth, { name: 'Estante de pinus', salePriceCents: 32000 });
    const customer = await makeCustomer(t, auth, { phone: '11977770000' });
    const budget = await makeBudget(auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: customer.id,
    });
    const sent = expectStatus(
      await api(t, auth).post(`/budget/${budget.id}/send`, { channel: 'whatsapp' }),
      200,
    );
    expect(sent.whatsapp).toEqual({ sent: true, waLink: null, reason: null });
    expect(sent.budget.status).toBe('sent');
    const message = evolution.sent.at(-1);
    expect(message).toMatchObject({ instance: `balcao-${client.id}`, number: '5511977770000' });
    expect(message?.text).toContain(`orçamento nº ${budget.number}`);
    expect(message?.text).toContain(sent.link.url);
    const pdf = Buffer.from(message?.media ?? '', 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfText(pdf)).toContain('Estante de pinus');
  });

  it('limits each address on the public routes, so guessing tokens gets nowhere', async () => {
    const guess = (n: number) =>
      t.app.inject({
        method: 'GET',
        url: `/v1/public/budget/${String(n).padStart(32, 'a')}`,
        remoteAddress: '10.9.9.9',
      });
    for (let n = 0; n < 120; n++) expect((await guess(n)).statusCode).toBe(404);
    const blocked = await guess(999);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe('Muitas tentativas. Aguarde alguns minutos e tente de novo.');
  });

  it('answers only its own budget, records "visualizado" once and takes one answer, told to the bell', async () => {
    const { auth, client, token: shopToken } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Torta de maçã', salePriceCents: 4500 });
    const customer = await makeCustomer(t, auth, { name: 'Ana Lúcia', phone: '11987654321' });
    const first = await makeBudget(auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: customer.id,
    });
    const second = await makeBudget(auth, {
      items: [{ productId: p.id, quantity: 2 }],
      customerId: customer.id,
    });
    const link = (await sendLink(auth, first.id)).link;
    await sendLink(auth, second.id);

    const page = publicApi(tokenOf(link.url));
    const opened = await page.get();
    expect(opened.statusCode).toBe(200);
    const body = opened.json();
    expect(body.budget).toMatchObject({
      number: first.number,
      finalAmountCents: 4500,
      customerName: 'Ana Lúcia',
      state: 'open',
    });
    expect(body.shop.name).toBe(client.name);
    // Nothing else of the shop: no ids, no other budget.
    expect(JSON.stringify(body)).not.toContain(`"id"`);
    const viewed = expectStatus(await api(t, auth).get(`/budget/${first.id}`), 200).viewedAt;
    expect(viewed).not.toBeNull();
    await page.get();
    expect(expectStatus(await api(t, auth).get(`/budget/${first.id}`), 200).viewedAt).toBe(viewed);
    expect(expectStatus(await api(t, auth).get(`/budget/${second.id}`), 200).viewedAt).toBeNull();

    // An unknown token or a guess: 404.
    expect((await publicApi('x'.repeat(32)).get()).statusCode).toBe(404);
    expect((await publicApi(`${tokenOf(link.url).slice(0, -2)}zz`).get()).statusCode).toBe(404);
    const pdf = await page.pdf();
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toContain('Torta de maçã');

    const socket = await sockets.connected({ key: API_KEY, token: shopToken });
    expect(await joinChannel(socket, `notifications_${client.id}`)).toEqual({ ok: true });
    const bell = collectMessages(socket, 800);
    const refusedWithoutReason = await page.answer({ answer: 'refused' });
    expect(refusedWithoutReason.statusCode).toBe(400);
    const approved = await page.answer({ answer: 'approved' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().budget.answer).toBe('approved');
    expect(await bell).toEqual([
      { message: `Orçamento nº ${first.number} aprovado por Ana Lúcia`, alertColor: 'success' },
    ]);
    const again = await page.answer({ answer: 'refused', reason: 'Mudei de ideia' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Este orçamento já foi respondido');
    const detail = expectStatus(await api(t, auth).get(`/budget/${first.id}`), 200);
    expect(detail.answer).toBe('approved');
    expect(detail.answeredAt).not.toBeNull();
  });

  it('stops working once the budget expires, is canceled or converted', async () => {
    const { auth } = await makeShop(t, [1]);
    const p = await makeProduct(t, auth, { salePriceCents: 1000, stock: 50 });
    const customer = await makeCustomer(t, auth, { phone: '11987654321' });
    const make = async () => {
      const b = await makeBudget(auth, {
        items: [{ productId: p.id, quantity: 1 }],
        customerId: customer.id,
      });
      return { budget: b, page: publicApi(tokenOf((await sendLink(auth, b.id)).link.url)) };
    };
    const expired = await make();
    await expire(expired.budget.id);
    const res = await expired.page.get();
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Este orçamento está vencido. Fale com a loja para renová-lo.');
    expect((await expired.page.answer({ answer: 'approved' })).statusCode).toBe(409);
    expect(expectStatus(await api(t, auth).get(`/budget/${expired.budget.id}`), 200).viewStatus).toBe(
      'expired',
    );

    const canceled = await make();
    expectStatus(
      await api(t, auth).post(`/budget/${canceled.budget.id}/cancel`, { reason: 'Cliente desistiu' }),
      200,
    );
    expect((await canceled.page.get()).json().message).toBe('Este orçamento foi cancelado pela loja.');

    const converted = await make();
    expectStatus(
      await api(t, auth).post(`/budget/${converted.budget.id}/convert`, {
        payments: [{ method: 'pix', amountCents: 1000 }],
      }),
      201,
    );
    // Converted: the link still shows the budget, read-only, with the shop's name, and its PDF
    // (issue 30: a bare 409); answering it is refused.
    const after = await converted.page.get();
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({
      budget: { state: 'converted' },
      shop: { name: expect.any(String) },
    });
    expect((await converted.page.pdf()).statusCode).toBe(200);
    const late = await converted.page.answer({ answer: 'approved' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('Este orçamento já foi convertido em venda.');
  });
});

describe('stock reservation', () => {
  it('keeps reserved units from other sales while valid and releases them on expiry', async () => {
    const { auth } = await makeShop(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Cadeira de madeira', salePriceCents: 20000, stock: 5 });
    const budget = await makeBudget(auth, { items: [{ productId: p.id, quantity: 3 }], reserveStock: true });
    expect(budget.reservationActive).toBe(true);
    // A second budget cannot reserve more than what is left (5 - 3 = 2).
    const tooMuch = await api(t, auth).post('/budget', {
      items: [{ productId: p.id, quantity: 3 }],
      reserveStock: true,
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().message).toBe('Estoque insuficiente para Cadeira de madeira (disponível: 2)');

    const sell = (quantity: number) =>
      api(t, auth).post('/sale', {
        items: [{ productId: p.id, quantity }],
        payments: [{ method: 'money', amountCents: 20000 * quantity }],
      });
    const oversell = await sell(3);
    expect(oversell.statusCode).toBe(409);
    expect(oversell.json().message).toBe('Estoque insuficiente para Cadeira de madeira (disponível: 2)');
    expect((await sell(2)).statusCode).toBe(201); // the 2 units not reserved
    expect((await sell(1)).statusCode).toBe(409);

    const figures = expectStatus(await api(t, auth).get(`/stock-reservation/product/${p.id}`), 200);
    expect(figures).toEqual({ stock: 3, reserved: 3, available: 0 });

    await expire(budget.id);
    expect(expectStatus(await api(t, auth).get(`/budget/${budget.id}`), 200).reservationActive).toBe(false);
    expect(expectStatus(await api(t, auth).get(`/stock-reservation/product/${p.id}`), 200)).toEqual({
      stock: 3,
      reserved: 0,
      available: 3,
    });
    expect((await sell(3)).statusCode).toBe(201);
  });

  it('is released by cancel and taken by its own conversion', async () => {
    const { auth } = await makeShop(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Mesa', salePriceCents: 10000, stock: 2 });
    const canceled = await makeBudget(auth, {
      items: [{ productId: p.id, quantity: 2 }],
      reserveStock: true,
    });
    expectStatus(await api(t, auth).post(`/budget/${canceled.id}/cancel`, {}), 200);
    const kept = await makeBudget(auth, { items: [{ productId: p.id, quantity: 2 }], reserveStock: true });
    const sale = expectStatus(
      await api(t, auth).post(`/budget/${kept.id}/convert`, {
        payments: [{ method: 'pix', amountCents: 20000 }],
      }),
      201,
    );
    expect(sale.originSale).toBe('budget');
    const product = expectStatus(await api(t, auth).get(`/product/${p.id}`), 200);
    expect(Number(product.stock)).toBe(0);
  });
});

describe('conversion into a sale', () => {
  it('makes exactly one sale under a double click and points the budget to it', async () => {
    const { auth, client } = await makeShop(t, [1]);
    const p = await makeProduct(t, auth, { salePriceCents: 1500, stock: 20 });
    const customer = await makeCustomer(t, auth);
    const budget = await makeBudget(auth, {
      items: [{ productId: p.id, quantity: 2 }],
      customerId: customer.id,
      paymentConditions: 'À vista',
    });
    const body = { payments: [{ method: 'money', amountCents: 3000 }] };
    const [a, b] = await Promise.all([
      api(t, auth).post(`/budget/${budget.id}/convert`, body),
      api(t, auth).post(`/budget/${budget.id}/convert`, body),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().message).toBe('Este orçamento já foi convertido em venda');
    const sale = (a.statusCode === 201 ? a : b).json();
    expect(sale).toMatchObject({
      originSale: 'budget',
      finalAmountCents: 3000,
      customer: { id: customer.id },
    });
    const made = await t.database.db
      .select({ id: sales.id })
      .from(sales)
      .where(and(eq(sales.clientId, client.id), eq(sales.originSale, 'budget')));
    expect(made).toHaveLength(1);
    const detail = expectStatus(await api(t, auth).get(`/budget/${budget.id}`), 200);
    expect(detail).toMatchObject({ status: 'finished', sale: { id: sale.id, number: sale.number } });
  });

  it('replays the same Idempotency-Key and sells at today prices when asked', async () => {
    const { auth } = await makeShop(t, [1]);
    const p = await makeProduct(t, auth, { salePriceCents: 1000, stock: 20 });
    const budget = await makeBudget(auth, { items: [{ productId: p.id, quantity: 2 }] });
    await api(t, auth).put(`/product/${p.id}`, {
      ...expectStatus(await api(t, auth).get(`/product/${p.id}`), 200),
      salePriceCents: 1200,
    });
    const detail = expectStatus(await api(t, auth).get(`/budget/${budget.id}`), 200);
    expect(detail.items[0]).toMatchObject({ unitPriceCents: 1000, currentUnitPriceCents: 1200 });
    const body = { prices: 'current', payments: [{ method: 'pix', amountCents: 2400 }] };
    const key = { 'idempotency-key': 'converte-1' };
    const first = await api(t, auth).post(`/budget/${budget.id}/convert`, body, key);
    expect(first.statusCode).toBe(201);
    expect(first.json().finalAmountCents).toBe(2400);
    const retry = await api(t, auth).post(`/budget/${budget.id}/convert`, body, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().id).toBe(first.json().id);
  });

  it('refuses an expired budget until renewed with new validity and prices', async () => {
    const { auth, client } = await makeShop(t, [1]);
    const p = await makeProduct(t, auth, { salePriceCents: 1000, stock: 20 });
    const budget = await makeBudget(auth, { items: [{ productId: p.id, quantity: 1 }] });
    await expire(budget.id);
    const refused = await api(t, auth).post(`/budget/${budget.id}/convert`, {
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Este orçamento está vencido: renove a validade antes');
    await api(t, auth).put(`/product/${p.id}`, {
      ...expectStatus(await api(t, auth).get(`/product/${p.id}`), 200),
      salePriceCents: 1100,
    });
    const today = await shopToday(client.id);
    const renewed = expectStatus(
      await api(t, auth).post(`/budget/${budget.id}/renew`, { validUntil: addDays(today, 3) }),
      200,
    );
    expect(renewed).toMatchObject({
      status: 'pending',
      expired: false,
      validUntil: addDays(today, 3),
      finalAmountCents: 1100,
    });
    expect((await api(t, auth).post(`/budget/${budget.id}/renew`, {})).statusCode).toBe(422);
  });
});

describe('budget list', () => {
  it('filters by status, customer and seller, totals the period with its conversion rate, duplicates and exports', async () => {
    const { auth, users } = await makeShop(t, [1, 3]);
    const seller = bearer(users[1].token);
    const p = await makeProduct(t, auth, { name: 'Vaso', salePriceCents: 1000, stock: 50 });
    const customer = await makeCustomer(t, auth, { name: 'Beatriz Ramos' });
    const a = await makeBudget(auth, { items: [{ productId: p.id, quantity: 1 }], customerId: customer.id });
    const b = await makeBudget(seller, { items: [{ productId: p.id, quantity: 2 }] });
    const c = await makeBudget(auth, { items: [{ productId: p.id, quantity: 3 }] });
    expectStatus(
      await api(t, auth).post(`/budget/${a.id}/convert`, {
        payments: [{ method: 'pix', amountCents: 1000 }],
      }),
      201,
    );
    await expire(c.id);
    const all = expectStatus(await api(t, auth).get('/budget'), 200);
    expect(all.total).toBe(3);
    expect(all.totals).toEqual({
      count: 3,
      finalAmountCents: 6000,
      convertedCount: 1,
      convertedAmountCents: 1000,
      conversionRate: 1 / 3,
    });
    const ids = (res: { items: { id: number }[] }) => res.items.map((i) => i.id);
    expect(ids(expectStatus(await api(t, auth).get('/budget?status=finished'), 200))).toEqual([a.id]);
    expect(ids(expectStatus(await api(t, auth).get('/budget?status=expired'), 200))).toEqual([c.id]);
    expect(ids(expectStatus(await api(t, auth).get('/budget?status=pending'), 200))).toEqual([b.id]);
    expect(ids(expectStatus(await api(t, auth).get(`/budget?customerId=${customer.id}`), 200))).toEqual([
      a.id,
    ]);
    expect(ids(expectStatus(await api(t, auth).get(`/budget?sellerId=${users[1].user.id}`), 200))).toEqual([
      b.id,
    ]);
    expect((await api(t, auth).get('/budget?status=sold')).statusCode).toBe(400);

    const copy = expectStatus(await api(t, auth).post(`/budget/${a.id}/duplicate`), 201);
    expect(copy).toMatchObject({
      status: 'pending',
      customer: { id: customer.id },
      finalAmountCents: 1000,
      sale: null,
    });
    expect(copy.number).toBe(4);

    const csv = await api(t, auth).get('/budget/export?status=finished');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'numero;data;status;cliente;vendedor;itens;total;validade;visualizado;resposta;venda',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Convertido em venda;Beatriz Ramos');
    expect(lines[1]).toContain(';10,00;');
  });
});
