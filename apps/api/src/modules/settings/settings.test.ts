import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { bearer, TEST_PASSWORD, type TestApp } from '../../../test/helper.ts';
import {
  api,
  asUser,
  expectStatus,
  makeProduct,
  makeShop,
  me,
  nextChange,
  openRegister,
  type SocketClients,
  useTestApp,
} from '../../../test/kit.ts';

let t: TestApp;
let sockets: SocketClients;
useTestApp({ sockets: true }, (app) => ({ t, sockets } = app));

/** A company page body as the form sends it (valid; overrides on top). */
function companyBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Padaria Pão Quente',
    legalName: 'Pão Quente Comércio de Alimentos Ltda',
    document: '11.222.333/0001-81',
    stateRegistration: '123.456.789.110',
    clientTypeId: 5,
    phone: '(11) 98765-4321',
    whatsapp: '(11) 91234-5678',
    email: 'Contato@PaoQuente.com.br',
    address: {
      zipCode: '01310-100',
      street: 'Avenida Paulista',
      number: '1000',
      complement: '',
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'sp',
    },
    pixKey: 'pix@paoquente.com.br',
    pixMerchantName: 'PAO QUENTE',
    pixMerchantCity: 'SAO PAULO',
    receiptHeader: 'Obrigado pela preferência!',
    receiptFooter: 'Trocas em até 7 dias com este cupom',
    saleCommand: false,
    stockManagement: true,
    checkIsOpen: false,
    updatedAt: null,
    ...overrides,
  };
}

const issuesOf = (res: { json: () => { issues?: { path: string; message: string }[] } }) =>
  Object.fromEntries((res.json().issues ?? []).map((i) => [i.path, i.message]));

describe('company settings (system-client)', () => {
  it('starts from the account data, saves once with updatedAt null, then only with the version it read', async () => {
    const { apis, users, client } = await asUser(t, [1, 2]);
    const [admin, manager] = apis;
    const first = expectStatus(await admin.get('/settings/company'), 200);
    expect(first).toMatchObject({ name: client.name, updatedAt: null, updatedBy: null, logoUrl: null });

    const saved = expectStatus(await admin.put('/settings/company', companyBody()), 200);
    expect(saved).toMatchObject({
      name: 'Padaria Pão Quente',
      document: '11222333000181',
      phone: '5511987654321',
      email: 'contato@paoquente.com.br',
      address: { zipCode: '01310100', state: 'SP', complement: null },
      pixKey: 'pix@paoquente.com.br',
      updatedBy: { id: users[0].user.id, name: users[0].user.name },
    });
    expect(saved.updatedAt).toEqual(expect.any(String));

    // A second "first save" and an old version are stale copies: 409, nothing overwritten.
    const again = await manager.put('/settings/company', companyBody({ name: 'Outro nome' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'Este registro foi alterado por outra pessoa. Recarregue a página e tente novamente.',
    );
    const byManager = expectStatus(
      await manager.put('/settings/company', companyBody({ name: 'Pão Quente', updatedAt: saved.updatedAt })),
      200,
    );
    expect(byManager.updatedBy).toEqual({ id: users[1].user.id, name: users[1].user.name });
    const old = await admin.put('/settings/company', companyBody({ updatedAt: saved.updatedAt }));
    expect(old.statusCode).toBe(409);
    // Without the version at all: 400.
    const { updatedAt: _, ...noVersion } = companyBody();
    expect((await admin.put('/settings/company', noVersion)).statusCode).toBe(400);

    // The login answer follows: name, Pix key.
    const session = expectStatus(await me(t, users[0].token), 200);
    expect(session.user.client.name).toBe('Pão Quente');
    expect(session.paymentGateway).toMatchObject({
      pixKey: 'pix@paoquente.com.br',
      merchantName: 'PAO QUENTE',
      merchantCity: 'SAO PAULO',
    });
  });

  it('checks every field with Portuguese messages, alphanumeric CNPJ included', async () => {
    const { api: admin } = await asUser(t, [1]);
    const bad = await admin.put(
      '/settings/company',
      companyBody({
        name: 'P',
        document: '11.222.333/0001-82',
        phone: '123',
        whatsapp: '99',
        email: 'sem-arroba',
        address: { zipCode: '123', state: 'XX' },
        pixKey: 'chave qualquer',
        clientTypeId: 99,
      }),
    );
    expect(bad.statusCode).toBe(400);
    expect(issuesOf(bad)).toMatchObject({
      name: 'Informe o nome fantasia',
      document: 'CPF ou CNPJ inválido',
      phone: 'Telefone inválido',
      whatsapp: 'Telefone inválido',
      email: 'Email inválido',
      'address.zipCode': 'CEP inválido',
      'address.state': 'UF inválida',
      pixKey: 'Chave Pix inválida: use email, CPF/CNPJ, telefone (+55...) ou chave aleatória',
      clientTypeId: 'Selecione o segmento',
    });
    const noMerchant = await admin.put('/settings/company', companyBody({ pixMerchantCity: '' }));
    expect(issuesOf(noMerchant)).toEqual({
      pixMerchantCity: 'Informe o nome e a cidade do recebedor para usar a chave Pix',
    });
    // The alphanumeric CNPJ (from July 2026: 12ABC34501DE35 is the Receita's example) and a CPF.
    const alnum = expectStatus(
      await admin.put('/settings/company', companyBody({ document: '12.ABC.345/01DE-35' })),
      200,
    );
    expect(alnum.document).toBe('12ABC34501DE35');
    const cpf = expectStatus(
      await admin.put(
        '/settings/company',
        companyBody({ document: '529.982.247-25', updatedAt: alnum.updatedAt }),
      ),
      200,
    );
    expect(cpf.document).toBe('52998224725');
  });

  it("refuses another account's document (409) and keeps each shop's data apart", async () => {
    const a = await asUser(t, [1]);
    const b = await asUser(t, [1]);
    const taken = await b.api.put('/settings/company', companyBody({ document: a.client.document }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Já existe uma conta com este CPF/CNPJ');
    expectStatus(await a.api.put('/settings/company', companyBody({ document: '04.252.011/0001-10' })), 200);
    const bView = expectStatus(await b.api.get('/settings/company'), 200);
    expect(bView).toMatchObject({ name: b.client.name, updatedAt: null, pixKey: null });
  });

  it('is read by the back office and written only by Administrador and Gerente', async () => {
    const { apis } = await asUser(t, [3, 5, 1]);
    const [seller, waiter] = apis;
    expect((await seller.get('/settings/company')).statusCode).toBe(200);
    expect((await seller.put('/settings/company', companyBody())).statusCode).toBe(403);
    expect((await waiter.get('/settings/company')).statusCode).toBe(403);
    expect((await seller.get('/settings/receipt')).statusCode).toBe(200);
  });

  it('switching a flag reaches every logged user: a session change on the socket, then /user/me', async () => {
    const { users, apis, client } = await asUser(t, [1, 5]);
    const waiterSocket = await sockets.connected({ key: 'balcao-public-key', token: users[1].token });
    await waiterSocket.timeout(5000).emitWithAck('joinChannel', `notifications_${users[1].user.clientId}`);
    const before = expectStatus(await me(t, users[1].token), 200);
    const on = !before.settingsChecklist.saleCommand;
    const signal = nextChange(waiterSocket, 'session', 3000);
    expectStatus(
      await apis[0].put('/settings/company', companyBody({ document: client.document, saleCommand: on })),
      200,
    );
    expect(await signal).toEqual({ resource: 'session' });
    const after = expectStatus(await me(t, users[1].token), 200);
    expect(after.settingsChecklist.saleCommand).toBe(on);
  });

  it('stores an uploaded logo as PNG, serves it publicly and shows it in the session and on receipts', async () => {
    const { api: admin, token, auth } = await asUser(t, [1]);
    const png = await sharp({
      create: { width: 900, height: 300, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 1 } },
    })
      .jpeg()
      .toBuffer();
    const upload = (data: Buffer, type = 'image/jpeg') => {
      const boundary = '----logo';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.jpg"\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/v1/settings/company/logo',
        headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
    };
    const saved = expectStatus(await upload(png), 200);
    expect(saved.logoUrl).toMatch(/^\/v1\/settings\/logo\/\d+\/[a-f0-9]{32}\.png$/);
    const file = await t.app.inject({ method: 'GET', url: saved.logoUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 171]);
    expect(expectStatus(await me(t, token), 200).user.client.logoUrl).toBe(saved.logoUrl);
    expect(expectStatus(await admin.get('/settings/receipt'), 200).logoUrl).toBe(saved.logoUrl);

    const notImage = await upload(Buffer.from('hello'), 'image/png');
    expect(notImage.statusCode).toBe(415);
    expect(notImage.json().message).toBe('Formato não suportado: envie uma imagem JPEG, PNG ou WebP');

    const removed = expectStatus(await admin.delete('/settings/company/logo'), 200);
    expect(removed.logoUrl).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: saved.logoUrl })).statusCode).toBe(404);
  });
});

function systemBody(overrides: Record<string, unknown> = {}) {
  return {
    timeZone: 'America/Manaus',
    allowNegativeStock: true,
    discountLimits: [
      { userTypeId: 3, line: 1500, sale: 1200 },
      { userTypeId: 4, line: 2000, sale: 2000 },
    ],
    budgetValidityDays: 15,
    serviceFeePercent: 1000,
    couvertCents: 1500,
    tabIdleMinutes: 45,
    delivery: { enabled: true, minimumOrderCents: 3000, estimateMinutes: 50, payment: 'onDelivery' },
    updatedAt: null,
    ...overrides,
  };
}

describe('system preferences', () => {
  it('answers the defaults, then saves: time zone in the session, negative stock in the stock setting', async () => {
    const { api: admin, client, token } = await asUser(t, [1]);
    const defaults = expectStatus(await admin.get('/settings/system'), 200);
    expect(defaults).toMatchObject({
      timeZone: 'America/Sao_Paulo',
      allowNegativeStock: false,
      budgetValidityDays: 7,
      tabIdleMinutes: 30,
      updatedAt: null,
    });
    expect(defaults.discountLimits).toContainEqual({ userTypeId: 3, line: 1000, sale: 1000 });
    expect(defaults.discountLimits).toContainEqual({ userTypeId: 4, line: 1000, sale: 1000 });

    const saved = expectStatus(await admin.put('/settings/system', systemBody()), 200);
    expect(saved).toMatchObject({ timeZone: 'America/Manaus', allowNegativeStock: true, couvertCents: 1500 });
    expect(saved.discountLimits).toContainEqual({ userTypeId: 3, line: 1500, sale: 1200 });
    // Types not sent keep their defaults.
    expect(saved.discountLimits).toContainEqual({ userTypeId: 5, line: 500, sale: 500 });
    expect(expectStatus(await me(t, token), 200).user.client.timeZone).toBe('America/Manaus');
    expect(expectStatus(await admin.get(`/stock-setting/client/${client.id}`), 200).allowNegativeStock).toBe(
      true,
    );
  });

  it('validates with Portuguese messages and is written by the Administrador only', async () => {
    const { apis } = await asUser(t, [1, 2]);
    const [admin, manager] = apis;
    const bad = await admin.put(
      '/settings/system',
      systemBody({
        timeZone: 'Marte/Olympus',
        discountLimits: [{ userTypeId: 3, line: 12000, sale: -1 }],
        budgetValidityDays: 0,
        tabIdleMinutes: 2.5,
      }),
    );
    expect(bad.statusCode).toBe(400);
    expect(issuesOf(bad)).toMatchObject({
      timeZone: 'Fuso horário inválido',
      'discountLimits.0.line': 'Desconto por item: o percentual deve ser no máximo 100%',
      'discountLimits.0.sale': 'Desconto na venda: o percentual não pode ser negativo',
      budgetValidityDays: 'Validade do orçamento: use no mínimo 1',
      tabIdleMinutes: 'Tempo de comanda parada: use um número inteiro',
    });
    expect((await manager.get('/settings/system')).statusCode).toBe(200);
    expect((await manager.put('/settings/system', systemBody())).statusCode).toBe(403);
  });
});

describe('working hours', () => {
  const week = [
    [],
    [{ start: '08:00', end: '18:00' }],
    [{ start: '08:00', end: '18:00' }],
    [{ start: '08:00', end: '18:00' }],
    [{ start: '08:00', end: '18:00' }],
    [{ start: '18:00', end: '02:00' }],
    [],
  ];

  it('saves the week, exceptions and a pause; the status says open or closed with the next change', async () => {
    const { apis, users } = await asUser(t, [2, 5]);
    const [manager, waiter] = apis;
    const off = expectStatus(await waiter.get('/settings/working-hour/status'), 200);
    expect(off).toMatchObject({ enabled: false, open: false, nextChange: null });

    const saved = expectStatus(
      await manager.put('/settings/working-hour', {
        weekly: week,
        exceptions: [{ date: '2026-12-25', closed: true, intervals: [], note: 'Natal' }],
        pause: { paused: true, reason: 'Falta de energia', until: null },
        updatedAt: null,
      }),
      200,
    );
    expect(saved).toMatchObject({
      weekly: week,
      exceptions: [{ date: '2026-12-25', closed: true, note: 'Natal' }],
      pause: { paused: true, reason: 'Falta de energia', until: null },
      updatedBy: { id: users[0].user.id },
    });
    const company = expectStatus(await manager.get('/settings/company'), 200);
    expectStatus(
      await manager.put('/settings/company', {
        ...companyBody({ document: company.document, updatedAt: company.updatedAt }),
        checkIsOpen: true,
      }),
      200,
    );
    const paused = expectStatus(await waiter.get('/settings/working-hour/status'), 200);
    expect(paused).toMatchObject({
      enabled: true,
      open: false,
      paused: true,
      pauseReason: 'Falta de energia',
    });

    const overlap = await manager.put('/settings/working-hour', {
      weekly: [
        [
          { start: '08:00', end: '12:00' },
          { start: '11:00', end: '14:00' },
        ],
        [],
        [],
        [],
        [],
        [],
        [],
      ],
      pause: { paused: false, reason: '', until: null },
      updatedAt: saved.updatedAt,
    });
    expect(overlap.statusCode).toBe(400);
    expect(issuesOf(overlap)).toEqual({ 'weekly.0': 'Os horários do dia se sobrepõem' });
    expect((await waiter.put('/settings/working-hour', { weekly: week })).statusCode).toBe(403);
  });
});

describe('discount limits (issue 12 point 9)', () => {
  const pix = (amountCents: number) => [{ method: 'pix', amountCents }];

  it('refuses a Caixa 73% off without a manager, records the approving manager and shows it on the sale', async () => {
    const shop = await asUser(t, [4, 2, 3]);
    const [cashier] = shop.apis;
    const cashierAuth = bearer(shop.users[0].token);
    await openRegister(t, cashierAuth);
    const product = await makeProduct(t, bearer(shop.users[1].token), {
      salePriceCents: 10000,
      stockControl: false,
    });
    const body = {
      items: [{ productId: product.id, quantity: 1, discountType: 'percentage', discountValue: 7300 }],
      payments: pix(2700),
    };
    const refused = await cashier.post('/sale', body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'Desconto acima do seu limite (10% por item): peça a aprovação de um Administrador ou Gerente',
    );
    expect(issuesOf(refused)).toHaveProperty('approval');

    const wrong = await cashier.post('/sale', {
      ...body,
      approval: { email: shop.users[1].email, password: 'senha-errada' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe(
      'Aprovação recusada: email ou senha de Administrador/Gerente incorretos',
    );
    // A Vendedor's password is no approval.
    const seller = await cashier.post('/sale', {
      ...body,
      approval: { email: shop.users[2].email, password: TEST_PASSWORD },
    });
    expect(seller.statusCode).toBe(422);

    const approved = expectStatus(
      await cashier.post(
        '/sale',
        { ...body, approval: { email: shop.users[1].email.toUpperCase(), password: TEST_PASSWORD } },
        { 'idempotency-key': 'desconto-aprovado-1' },
      ),
      201,
    );
    expect(approved.discountApprovedBy).toEqual({ id: shop.users[1].user.id, name: shop.users[1].user.name });
    expect(approved.finalAmountCents).toBe(2700);
    const detail = expectStatus(await cashier.get(`/sale/${approved.id}`), 200);
    expect(detail.discountApprovedBy).toEqual({ id: shop.users[1].user.id, name: shop.users[1].user.name });
  });

  it('checks lines and the whole sale against the type limit, exactly at the limit allowed', async () => {
    const shop = await makeShop(t, [3, 1]);
    const [seller, admin] = shop.apis;
    const product = await makeProduct(t, bearer(shop.users[1].token), {
      salePriceCents: 10000,
      stockControl: false,
    });
    const sale = (extra: Record<string, unknown>, line: Record<string, unknown> = {}) =>
      seller.post('/sale', {
        items: [{ productId: product.id, quantity: 2, ...line }],
        payments: [{ method: 'money', amountCents: 20000 }],
        ...extra,
      });
    // A Vendedor (default 10%): 100% of the sale is refused (the issue's case), 10% passes.
    const all = await sale({ discountType: 'percentage', discountValue: 10000, payments: [] });
    expect(all.statusCode).toBe(403);
    expect(all.json().message).toBe(
      'Desconto acima do seu limite (10% na venda): peça a aprovação de um Administrador ou Gerente',
    );
    expect((await sale({ discountType: 'percentage', discountValue: 1000 })).statusCode).toBe(201);
    expect((await sale({ discountType: 'fixed_amount', discountValue: 2001 })).statusCode).toBe(403);
    // 10% on the line plus R$ 1,00 off the sale: 10,5% of the items.
    expect(
      (
        await sale(
          { discountType: 'fixed_amount', discountValue: 100 },
          { discountType: 'percentage', discountValue: 1000 },
        )
      ).statusCode,
    ).toBe(403);
    // The Administrador raises the Vendedor's limit: 15% now passes; the Administrador has none.
    expectStatus(
      await admin.put('/settings/system', {
        ...systemBody({ timeZone: 'America/Sao_Paulo', allowNegativeStock: false }),
        discountLimits: [{ userTypeId: 3, line: 1500, sale: 1500 }],
      }),
      200,
    );
    expect((await sale({}, { discountType: 'percentage', discountValue: 1500 })).statusCode).toBe(201);
    expect((await sale({}, { discountType: 'percentage', discountValue: 1600 })).statusCode).toBe(403);
    const mine = expectStatus(await seller.get('/settings/discount-limit/me'), 200);
    expect(mine).toEqual({ line: 1500, sale: 1500 });
    expect(expectStatus(await admin.get('/settings/discount-limit/me'), 200)).toBeNull();
  });

  it('an Administrador sells at any discount with no approval and nothing recorded', async () => {
    const { api: admin, auth } = await makeShop(t, [1]);
    const product = await makeProduct(t, auth, { salePriceCents: 1000, stockControl: false });
    const sale = expectStatus(
      await admin.post('/sale', {
        items: [{ productId: product.id, quantity: 1, discountType: 'percentage', discountValue: 9000 }],
        payments: pix(100),
      }),
      201,
    );
    expect(sale.discountApprovedBy).toBeNull();
    void api;
  });
});
