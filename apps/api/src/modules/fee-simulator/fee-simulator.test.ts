import { FEE_PRESETS, type FeePreset } from '@balcao/core/fees';
import { receiptLines } from '@balcao/core/receipt';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import {
  type Api,
  asUser,
  expectStatus,
  joinChannel,
  listenForSockets,
  makeSimpleSale,
  nextChange,
} from '../../../test/kit.ts';
import { feeTables } from './schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ apiKey: API_KEY });
});

const API_KEY = 'chave-de-teste';
afterAll(() => t.close());

const preset = (key: string): FeePreset => {
  const found = FEE_PRESETS.find((p) => p.key === key);
  if (!found) throw new Error(key);
  return found;
};

/** A table body from a preset, as the page sends it (the preset's fields plus its key). */
function tableBody(key = 'pagbank-30d', overrides: Record<string, unknown> = {}) {
  const { key: presetKey, note: _note, ...fields } = preset(key);
  return { ...fields, presetKey, ...overrides };
}

const makeTable = async (a: Api, overrides: Record<string, unknown> = {}, key?: string) =>
  expectStatus(await a.post('/fee-simulator/table', tableBody(key, overrides)), 201, 'create table');

describe('rate tables', () => {
  it('saves a preset as the shop own table, dated and exact, and edits it with its version', async () => {
    const { api } = await asUser(t, [1]);
    const created = await makeTable(api, { name: 'PagBank da loja', creditRates: [3.19, 3.79, '4,09'] });
    expect(created).toMatchObject({
      id: expect.any(Number),
      name: 'PagBank da loja',
      acquirer: 'PagBank',
      presetKey: 'pagbank-30d',
      ratesDate: '2026-11-01',
      verified: true,
      debitRate: 1.99,
      pixRate: null,
      creditRates: [3.19, 3.79, 4.09],
      anticipationModel: 'none',
      settlementDays: 30,
      buyerInterestRate: 2.99,
    });
    // Rates are stored as integer hundredths of a percent.
    const [row] = await t.database.db.select().from(feeTables).where(eq(feeTables.id, created.id));
    expect(row.creditRatesBp).toEqual([319, 379, 409]);
    expect(row.debitRateBp).toBe(199);

    expect(expectStatus(await api.get(`/fee-simulator/table/${created.id}`), 200)).toEqual(created);
    expect(expectStatus(await api.get('/fee-simulator/table'), 200)).toEqual([created]);

    const body = tableBody('pagbank-30d', {
      name: 'PagBank 2',
      anticipationModel: 'simple',
      anticipationRate: 2.5,
    });
    const noVersion = await api.put(`/fee-simulator/table/${created.id}`, body);
    expect(noVersion.statusCode).toBe(400);
    const updated = expectStatus(
      await api.put(`/fee-simulator/table/${created.id}`, { ...body, updatedAt: created.updatedAt }),
      200,
    );
    expect(updated).toMatchObject({ name: 'PagBank 2', anticipationModel: 'simple', anticipationRate: 2.5 });
    const stale = await api.put(`/fee-simulator/table/${created.id}`, {
      ...body,
      updatedAt: created.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('stale');

    expect(expectStatus(await api.delete(`/fee-simulator/table/${created.id}`), 200)).toEqual({
      id: created.id,
    });
    expect((await api.get(`/fee-simulator/table/${created.id}`)).statusCode).toBe(404);
  });

  it('validates: 400 with the field issues in Portuguese, never a half-written table', async () => {
    const { api } = await asUser(t, [1]);
    const res = await api.post(
      '/fee-simulator/table',
      tableBody('sumup-d1', {
        name: '',
        debitRate: 100,
        creditRates: Array(19).fill(1),
        anticipationModel: 'magic',
        settlementDays: -1,
        ratesDate: 'ontem',
      }),
    );
    expect(res.statusCode).toBe(400);
    const issues = Object.fromEntries(
      (res.json().issues as { path: string; message: string }[]).map((i) => [i.path, i.message]),
    );
    expect(issues).toMatchObject({
      name: 'Informe o nome da tabela',
      debitRate: 'A taxa deve ser de 0 a 99,99%',
      creditRates: 'Informe as taxas do crédito de 1x a no máximo 18x',
      anticipationModel: 'Selecione um modelo de antecipação válido',
      settlementDays: 'Informe um número de dias de 0 a 60',
      ratesDate: 'Informe a data das taxas',
    });
    expect(expectStatus(await api.get('/fee-simulator/table'), 200)).toEqual([]);
    // Up to 18x when the shop wants.
    const long = await makeTable(api, { creditRates: Array(18).fill(4) });
    expect(long.creditRates).toHaveLength(18);
  });

  it("tenancy: another shop's table is 404 to read, edit or delete, and cannot be made active", async () => {
    const mine = await asUser(t, [1]);
    const other = await asUser(t, [1]);
    const theirs = await makeTable(other.api);
    expect((await mine.api.get(`/fee-simulator/table/${theirs.id}`)).statusCode).toBe(404);
    const edit = await mine.api.put(`/fee-simulator/table/${theirs.id}`, {
      ...tableBody(),
      updatedAt: theirs.updatedAt,
    });
    expect(edit.statusCode).toBe(404);
    expect((await mine.api.delete(`/fee-simulator/table/${theirs.id}`)).statusCode).toBe(404);
    expect(expectStatus(await mine.api.get('/fee-simulator/table'), 200)).toEqual([]);
    const steal = await mine.api.put('/fee-simulator/settings', {
      activeTableId: theirs.id,
      pdvSurcharge: true,
    });
    expect(steal.statusCode).toBe(422);
    expect(steal.json().message).toBe('Selecione uma tabela de taxas da loja');
    expect(expectStatus(await other.api.get(`/fee-simulator/table/${theirs.id}`), 200).name).toBe(
      theirs.name,
    );
  });

  it('roles: Marketing and drivers do not see it; sellers read; admin, manager and financial write', async () => {
    const shop = await asUser(t, [1, 2, 3, 7, 9, 10]);
    const [admin, manager, seller, financial, marketing, driver] = shop.apis;
    const table = await makeTable(admin);
    expect((await marketing.get('/fee-simulator/table')).statusCode).toBe(403);
    expect((await driver.get('/fee-simulator/settings')).statusCode).toBe(403);
    expect(expectStatus(await seller.get('/fee-simulator/table'), 200)).toHaveLength(1);
    expect((await seller.post('/fee-simulator/table', tableBody())).statusCode).toBe(403);
    expect((await seller.delete(`/fee-simulator/table/${table.id}`)).statusCode).toBe(403);
    expect(
      (await seller.put('/fee-simulator/settings', { activeTableId: null, pdvSurcharge: true })).statusCode,
    ).toBe(403);
    await makeTable(manager);
    await makeTable(financial);
    // Marketing may sell at the PDV: it reads the PDV's table (null while the display is off).
    expect(expectStatus(await marketing.get('/fee-simulator/pdv'), 200)).toEqual({
      table: null,
      mealVouchers: [],
    });
    expect((await driver.get('/fee-simulator/pdv')).statusCode).toBe(403);
  });
});

describe('settings and the PDV surcharge', () => {
  it('defaults: no active table and the PDV display off; the first table becomes active', async () => {
    const { api } = await asUser(t, [1]);
    expect(expectStatus(await api.get('/fee-simulator/settings'), 200)).toEqual({
      activeTableId: null,
      pdvSurcharge: false,
      updatedAt: null,
    });
    const first = await makeTable(api);
    await makeTable(api, { name: 'Outra' }, 'sumup-d1');
    const settings = expectStatus(await api.get('/fee-simulator/settings'), 200);
    expect(settings).toMatchObject({ activeTableId: first.id, pdvSurcharge: false });
    // Off by default: the PDV gets no table.
    expect(expectStatus(await api.get('/fee-simulator/pdv'), 200)).toEqual({ table: null, mealVouchers: [] });

    const on = expectStatus(
      await api.put('/fee-simulator/settings', {
        activeTableId: first.id,
        pdvSurcharge: true,
        updatedAt: settings.updatedAt,
      }),
      200,
    );
    expect(on).toMatchObject({ activeTableId: first.id, pdvSurcharge: true });
    expect(expectStatus(await api.get('/fee-simulator/pdv'), 200)).toEqual({
      table: first,
      mealVouchers: [],
    });

    // A stale copy of the settings does not overwrite.
    const stale = await api.put('/fee-simulator/settings', {
      activeTableId: null,
      pdvSurcharge: false,
      updatedAt: settings.updatedAt,
    });
    expect(stale.statusCode).toBe(409);

    // Deleting the active table leaves none: the PDV shows no surcharge.
    await api.delete(`/fee-simulator/table/${first.id}`);
    expect(expectStatus(await api.get('/fee-simulator/settings'), 200)).toMatchObject({
      activeTableId: null,
      pdvSurcharge: true,
    });
    expect(expectStatus(await api.get('/fee-simulator/pdv'), 200)).toEqual({ table: null, mealVouchers: [] });
  });
});

describe('live', () => {
  it("a settings change reaches the shop's open PDVs (change {resource: 'fee-simulator'}); another shop hears nothing", async () => {
    const sockets = await listenForSockets(t);
    try {
      const shop = await asUser(t, [1, 4]);
      const other = await asUser(t, [1]);
      const till = await sockets.connected({ key: API_KEY, token: shop.users[1].token });
      expect((await joinChannel(till, `notifications_${shop.client.id}`)).ok).toBe(true);
      const otherTill = await sockets.connected({ key: API_KEY, token: other.users[0].token });
      expect((await joinChannel(otherTill, `notifications_${other.client.id}`)).ok).toBe(true);

      const created = nextChange(till, 'fee-simulator', 5000);
      const table = await makeTable(shop.api);
      expect(await created).toEqual({ resource: 'fee-simulator', id: table.id });

      const settings = expectStatus(await shop.api.get('/fee-simulator/settings'), 200);
      const switched = nextChange(till, 'fee-simulator', 5000);
      const missed = nextChange(otherTill, null, 1500);
      await shop.api.put('/fee-simulator/settings', {
        activeTableId: table.id,
        pdvSurcharge: true,
        updatedAt: settings.updatedAt,
      });
      expect(await switched).toMatchObject({ resource: 'fee-simulator' });
      expect(await missed).toBe('nothing');
      // The cashier's PDV now reads the table.
      expect(expectStatus(await shop.apis[1].get('/fee-simulator/pdv'), 200).table.id).toBe(table.id);
    } finally {
      sockets.disconnectAll();
    }
  });
});

describe('meal vouchers (issue 33)', () => {
  it('every brand starts off; the shop enables some with their rate and days; the PDV offers only those', async () => {
    const { api, apis } = await asUser(t, [1, 4]);
    const defaults = expectStatus(await api.get('/fee-simulator/meal-voucher'), 200);
    expect(defaults.brands).toEqual(
      ['voucherAlelo', 'voucherPluxee', 'voucherTicket', 'voucherVr', 'voucherOther'].map((method) => ({
        method,
        enabled: false,
        rate: 0,
        settlementDays: 30,
      })),
    );
    expect(expectStatus(await apis[1].get('/fee-simulator/pdv'), 200).mealVouchers).toEqual([]);

    const saved = expectStatus(
      await api.put('/fee-simulator/meal-voucher', {
        brands: [
          { method: 'voucherTicket', enabled: true, rate: '7,2', settlementDays: 28 },
          { method: 'voucherAlelo', enabled: true, rate: 6.5, settlementDays: 30 },
        ],
      }),
      200,
    );
    expect(saved.brands.slice(0, 3)).toEqual([
      { method: 'voucherAlelo', enabled: true, rate: 6.5, settlementDays: 30 },
      { method: 'voucherPluxee', enabled: false, rate: 0, settlementDays: 30 },
      { method: 'voucherTicket', enabled: true, rate: 7.2, settlementDays: 28 },
    ]);
    // The caixa's PDV offers the enabled brands, in their order.
    expect(expectStatus(await apis[1].get('/fee-simulator/pdv'), 200).mealVouchers).toEqual([
      'voucherAlelo',
      'voucherTicket',
    ]);
    // Turning one off keeps its rate.
    await api.put('/fee-simulator/meal-voucher', {
      brands: [{ method: 'voucherTicket', enabled: false, rate: 7.2, settlementDays: 28 }],
    });
    expect(expectStatus(await apis[1].get('/fee-simulator/pdv'), 200).mealVouchers).toEqual(['voucherAlelo']);
    expect(expectStatus(await api.get('/fee-simulator/meal-voucher'), 200).brands[2]).toEqual({
      method: 'voucherTicket',
      enabled: false,
      rate: 7.2,
      settlementDays: 28,
    });
  });

  it('refuses a bad rate, days or brand in Portuguese, and a caixa cannot change them', async () => {
    const { api, apis } = await asUser(t, [1, 4]);
    const bad = await api.put('/fee-simulator/meal-voucher', {
      brands: [{ method: 'voucherAlelo', enabled: true, rate: 120, settlementDays: 30 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('A taxa deve ser de 0 a 99,99%');
    const days = await api.put('/fee-simulator/meal-voucher', {
      brands: [{ method: 'voucherAlelo', enabled: true, rate: 5, settlementDays: 90 }],
    });
    expect(days.statusCode).toBe(400);
    expect(days.body).toContain('Informe um número de dias de 0 a 60');
    const twice = await api.put('/fee-simulator/meal-voucher', {
      brands: [
        { method: 'voucherAlelo', enabled: true, rate: 5, settlementDays: 30 },
        { method: 'voucherAlelo', enabled: false, rate: 5, settlementDays: 30 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain('Cada bandeira de vale só pode aparecer uma vez');
    const brand = await api.put('/fee-simulator/meal-voucher', {
      brands: [{ method: 'creditCard', enabled: true, rate: 5, settlementDays: 30 }],
    });
    expect(brand.statusCode).toBe(400);
    expect(brand.body).toContain('Bandeira de vale inválida');
    const cashier = await apis[1].put('/fee-simulator/meal-voucher', {
      brands: [{ method: 'voucherAlelo', enabled: true, rate: 5, settlementDays: 30 }],
    });
    expect(cashier.statusCode).toBe(403);
  });

  it('a sale paid with vouchers: each brand counted apart at the register close, in the sale list and on the receipt', async () => {
    const { auth, api, client } = await asUser(t, [1]);
    await api.post('/cash-register/open', { openingAmountCents: 0 });
    const sale = await makeSimpleSale(t, auth, {
      valueCents: 5000,
      payments: [
        { method: 'voucherAlelo', amountCents: 3000 },
        { method: 'voucherTicket', amountCents: 1500 },
        { method: 'money', amountCents: 500 },
      ],
    });
    await makeSimpleSale(t, auth, {
      valueCents: 2000,
      payments: [{ method: 'voucherAlelo', amountCents: 2000 }],
    });
    const lines = receiptLines(sale, { name: 'Lanchonete', timeZone: 'America/Sao_Paulo' }, 80);
    expect(lines.join('\n')).toContain('VR/VA Alelo');
    expect(lines.join('\n')).toContain('VR/VA Ticket');

    const closed = expectStatus(
      await api.post('/cash-register/close', {
        counted: [
          { method: 'money', amountCents: 500 },
          { method: 'voucherAlelo', amountCents: 5000 },
          { method: 'voucherTicket', amountCents: 1000 },
        ],
      }),
      200,
    );
    const by = Object.fromEntries(closed.methods.map((m: { method: string }) => [m.method, m]));
    expect(by.voucherAlelo).toMatchObject({
      salesCents: 5000,
      expectedCents: 5000,
      countedCents: 5000,
      differenceCents: 0,
      countable: true,
    });
    expect(by.voucherTicket).toMatchObject({
      expectedCents: 1500,
      countedCents: 1000,
      differenceCents: -500,
    });
    expect(closed.totals).toEqual({ expectedCents: 7000, countedCents: 6500, differenceCents: -500 });

    const onlyAlelo = expectStatus(
      await api.get(`/sale/client/${client.id}?paymentMethod=voucherAlelo`),
      200,
    );
    expect(onlyAlelo.items).toHaveLength(2);
  });
});
