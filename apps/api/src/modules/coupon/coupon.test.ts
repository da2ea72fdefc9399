import { addDays } from '@balcao/core/date';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { api, couponBody, type Headers, makeCoupon, uniqueCode } from '../../../test/kit.ts';
import { clients } from '../../db/schema.ts';
import { coupons, couponUses } from './schema.ts';
import { seedCoupons } from './seed.ts';
import { cancelCouponUses, useCoupon } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);
type Auth = Headers;

const validate = (auth: Auth, payload: Record<string, unknown>) =>
  api(t, auth).post('/coupon/validate', payload);

describe('coupon CRUD', () => {
  it('creates (201 + the record with id), reads, lists, updates and soft-deletes a coupon', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const created = await makeCoupon(t, auth, {
      code: 'natal10',
      discountType: 'FIXED_AMOUNT',
      discountValue: 5.5,
      minSaleAmount: 49.9,
      maxUsesPerUser: 2,
      client: { id: client.id },
    });
    expect(created).toMatchObject({
      id: expect.any(Number),
      code: 'NATAL10',
      discountType: 'FIXED_AMOUNT',
      discountValue: 5.5,
      startDate: today,
      endDate: addDays(today, 30),
      isSingleUse: false,
      maxUsesPerUser: 2,
      minSaleAmount: 49.9,
      status: 'active',
      client: { id: client.id },
    });
    // Money is stored exactly, as integers.
    const [row] = await t.database.db.select().from(coupons).where(eq(coupons.id, created.id));
    expect(row.discountValueHundredths).toBe(550);
    expect(row.minSaleAmountCents).toBe(4990);

    const read = await t.app.inject({ method: 'GET', url: `/v1/coupon/${created.id}`, headers: auth });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);

    const updated = await t.app.inject({
      method: 'PUT',
      url: `/v1/coupon/${created.id}`,
      headers: auth,
      payload: couponBody({
        code: 'NATAL15',
        discountValue: '15,25',
        minSaleAmount: '0',
        updatedAt: created.updatedAt,
      }),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      id: created.id,
      code: 'NATAL15',
      discountType: 'PERCENTAGE',
      discountValue: 15.25,
      minSaleAmount: 0,
    });

    const list = await t.app.inject({ method: 'GET', url: `/v1/coupon/client/${client.id}`, headers: auth });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([updated.json()]);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/coupon/${created.id}`, headers: auth });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id: created.id });
    // Kept in the database, gone from the list and from reads.
    const [kept] = await t.database.db.select().from(coupons).where(eq(coupons.id, created.id));
    expect(kept.status).toBe('deleted');
    const after = await t.app.inject({ method: 'GET', url: `/v1/coupon/client/${client.id}`, headers: auth });
    expect(after.json()).toEqual([]);
    const gone = await t.app.inject({ method: 'GET', url: `/v1/coupon/${created.id}`, headers: auth });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Cupom não encontrado');
    const again = await t.app.inject({ method: 'DELETE', url: `/v1/coupon/${created.id}`, headers: auth });
    expect(again.statusCode).toBe(404);
  });

  it('lists newest first and only the caller client coupons', async () => {
    const a = await createClientWithUsers(t, [1]);
    const b = await createClientWithUsers(t, [1]);
    const first = await makeCoupon(t, a.auth);
    const second = await makeCoupon(t, a.auth);
    await makeCoupon(t, b.auth);
    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/coupon/client/${a.client.id}`,
      headers: a.auth,
    });
    expect(list.json().map((c: { id: number }) => c.id)).toEqual([second.id, first.id]);
  });

  it('sets status active on save unless sent inactive, and never accepts deleted', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const { status, ...withoutStatus } = couponBody();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/coupon',
      headers: auth,
      payload: withoutStatus,
    });
    expect(res.json().status).toBe('active');
    const parked = await makeCoupon(t, auth, { status: 'inactive' });
    expect(parked.status).toBe('inactive');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/coupon',
      headers: auth,
      payload: couponBody({ status: 'deleted' }),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 400 with the Portuguese messages for invalid input', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/coupon',
      headers: auth,
      payload: couponBody({ code: 'AB', discountType: 'BOGUS', endDate: addDays(today, -1) }),
    });
    expect(res.statusCode).toBe(400);
    const messages = res.json().issues.map((i: { message: string }) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'O código é obrigatório e deve ter no mínimo 3 caracteres',
        'Selecione um tipo de desconto válido',
        'A data de fim deve ser maior que ontem',
      ]),
    );
    const percent = await t.app.inject({
      method: 'POST',
      url: '/v1/coupon',
      headers: auth,
      payload: couponBody({ discountValue: 150 }),
    });
    expect(percent.statusCode).toBe(400);
    expect(percent.json().message).toContain('O percentual de desconto deve ser no máximo 100');
    const dates = await t.app.inject({
      method: 'POST',
      url: '/v1/coupon',
      headers: auth,
      payload: couponBody({ startDate: addDays(today, 5), endDate: addDays(today, 4) }),
    });
    expect(dates.statusCode).toBe(400);
    expect(dates.json().message).toContain('A data de fim deve ser posterior à data de início');
    const badId = await t.app.inject({ method: 'GET', url: '/v1/coupon/abc', headers: auth });
    expect(badId.statusCode).toBe(400);
  });

  it('checks a version sent as updatedAt or If-Match (409 when stale); without one, last write wins', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const created = await makeCoupon(t, auth);
    const first = await t.app.inject({
      method: 'PUT',
      url: `/v1/coupon/${created.id}`,
      headers: auth,
      payload: couponBody({ code: created.code, updatedAt: created.updatedAt }),
    });
    expect(first.statusCode).toBe(200);
    const staleMessage = {
      code: 'stale',
      message: 'Este registro foi alterado por outra pessoa. Recarregue a página e tente novamente.',
    };
    const stale = await t.app.inject({
      method: 'PUT',
      url: `/v1/coupon/${created.id}`,
      headers: auth,
      payload: couponBody({ code: created.code, updatedAt: created.updatedAt }),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject(staleMessage);
    // The same version in an If-Match header (quoted, as an ETag) is checked the same way.
    const staleHeader = await t.app.inject({
      method: 'PUT',
      url: `/v1/coupon/${created.id}`,
      headers: { ...auth, 'if-match': `"${created.updatedAt}"` },
      payload: couponBody({ code: created.code, discountValue: 77 }),
    });
    expect(staleHeader.statusCode).toBe(409);
    expect(staleHeader.json()).toMatchObject(staleMessage);
    const current = first.json().updatedAt as string;
    const fresh = await t.app.inject({
      method: 'PUT',
      url: `/v1/coupon/${created.id}`,
      headers: { ...auth, 'if-match': `"${current}"` },
      payload: couponBody({ code: created.code, discountValue: 12 }),
    });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().discountValue).toBe(12);
    const badVersion = await t.app.inject({
      method: 'PUT',
      url: `/v1/coupon/${created.id}`,
      headers: { ...auth, 'if-match': 'ontem' },
      payload: couponBody({ code: created.code }),
    });
    expect(badVersion.statusCode).toBe(400);
    expect(badVersion.json().message).toBe('Versão do registro (updatedAt) inválida');
    // Without a version (spec 7: "same payload" as the create): taken, last write wins.
    const blind = await t.app.inject({
      method: 'PUT',
      url: `/v1/coupon/${created.id}`,
      headers: auth,
      payload: couponBody({ code: created.code, discountValue: 99 }),
    });
    expect(blind.statusCode).toBe(200);
    expect(blind.json().discountValue).toBe(99);
    const kept = await t.app.inject({ method: 'GET', url: `/v1/coupon/${created.id}`, headers: auth });
    expect(kept.json().discountValue).toBe(99);
  });
});

describe('coupon code uniqueness', () => {
  it('answers 409 for a code already used by the client, case-insensitive, on create and update', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const code = uniqueCode('DUP');
    await makeCoupon(t, auth, { code });
    const dup = await t.app.inject({
      method: 'POST',
      url: '/v1/coupon',
      headers: auth,
      payload: couponBody({ code: code.toLowerCase() }),
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Já existe um cupom com este código');

    const other = await makeCoupon(t, auth);
    const rename = await t.app.inject({
      method: 'PUT',
      url: `/v1/coupon/${other.id}`,
      headers: auth,
      payload: couponBody({ code, updatedAt: other.updatedAt }),
    });
    expect(rename.statusCode).toBe(409);
    // Saving a coupon with its own code is fine.
    const same = await t.app.inject({
      method: 'PUT',
      url: `/v1/coupon/${other.id}`,
      headers: auth,
      payload: couponBody({ code: other.code, updatedAt: other.updatedAt }),
    });
    expect(same.statusCode).toBe(200);
  });

  it('lets another client use the same code, and frees the code of a deleted coupon', async () => {
    const a = await createClientWithUsers(t, [1]);
    const b = await createClientWithUsers(t, [1]);
    const code = uniqueCode('SHARED');
    const first = await makeCoupon(t, a.auth, { code });
    await makeCoupon(t, b.auth, { code });
    await t.app.inject({ method: 'DELETE', url: `/v1/coupon/${first.id}`, headers: a.auth });
    const reused = await makeCoupon(t, a.auth, { code });
    expect(reused.id).not.toBe(first.id);
  });

  it('gives one success and one 409 when two saves of the same code race', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const payload = couponBody({ code: uniqueCode('RACE') });
    const results = await Promise.all(
      [0, 1].map(() => t.app.inject({ method: 'POST', url: '/v1/coupon', headers: auth, payload })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)?.json().message).toBe(
      'Já existe um cupom com este código',
    );
  });
});

describe('coupon tenancy and roles', () => {
  it("answers 404 for another client's coupon on GET, PUT and DELETE, and for another client's list", async () => {
    const owner = await createClientWithUsers(t, [1]);
    const stranger = await createClientWithUsers(t, [1]);
    const coupon = await makeCoupon(t, owner.auth);
    const get = await t.app.inject({ method: 'GET', url: `/v1/coupon/${coupon.id}`, headers: stranger.auth });
    expect(get.statusCode).toBe(404);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/coupon/${coupon.id}`,
      headers: stranger.auth,
      payload: couponBody({ updatedAt: coupon.updatedAt }),
    });
    expect(put.statusCode).toBe(404);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v1/coupon/${coupon.id}`,
      headers: stranger.auth,
    });
    expect(del.statusCode).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/coupon/client/${owner.client.id}`,
      headers: stranger.auth,
    });
    expect(list.statusCode).toBe(404);
    // Untouched.
    const mine = await t.app.inject({ method: 'GET', url: `/v1/coupon/${coupon.id}`, headers: owner.auth });
    expect(mine.json()).toEqual(coupon);
  });

  it('answers 404 when the body names another client, and never saves under it', async () => {
    const owner = await createClientWithUsers(t, [1]);
    const stranger = await createClientWithUsers(t, [1]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/coupon',
      headers: owner.auth,
      payload: couponBody({ client: { id: stranger.client.id } }),
    });
    expect(res.statusCode).toBe(404);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/v1/coupon/client/${stranger.client.id}`,
      headers: stranger.auth,
    });
    expect(theirs.json()).toEqual([]);
  });

  it('lets the back office read, only Administrador, Gerente and Marketing write (403 otherwise)', async () => {
    const { users } = await createClientWithUsers(t, [1, 2, 9, 3, 4, 5, 6, 7, 8, 10]);
    const [admin, manager, marketing, ...others] = users;
    const coupon = await makeCoupon(t, bearer(admin.token));
    for (const writer of [manager, marketing]) await makeCoupon(t, bearer(writer.token));

    for (const user of others) {
      const auth = bearer(user.token);
      // Drivers and, since issue 30, the garçom read no coupons.
      const closed = user.user.userTypeId === 10 || user.user.userTypeId === 5;
      const read = await t.app.inject({ method: 'GET', url: `/v1/coupon/${coupon.id}`, headers: auth });
      expect(read.statusCode, `type ${user.user.userTypeId}`).toBe(closed ? 403 : 200);
      const post = await t.app.inject({
        method: 'POST',
        url: '/v1/coupon',
        headers: auth,
        payload: couponBody(),
      });
      expect(post.statusCode, `type ${user.user.userTypeId}`).toBe(403);
      const put = await t.app.inject({
        method: 'PUT',
        url: `/v1/coupon/${coupon.id}`,
        headers: auth,
        payload: couponBody(),
      });
      expect(put.statusCode).toBe(403);
      const del = await t.app.inject({ method: 'DELETE', url: `/v1/coupon/${coupon.id}`, headers: auth });
      expect(del.statusCode).toBe(403);
    }
    const still = await t.app.inject({
      method: 'GET',
      url: `/v1/coupon/${coupon.id}`,
      headers: bearer(admin.token),
    });
    expect(still.json()).toEqual(coupon);
  });

  it('needs a session (401)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/coupon/1' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /v1/coupon/validate', () => {
  it('answers the discount of a coupon that applies (cents or reais subtotal, code in any case)', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const coupon = await makeCoupon(t, auth, { discountValue: 12.5 });
    const res = await validate(auth, { code: coupon.code.toLowerCase(), subtotalCents: 1999 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      valid: true,
      discount: 2.5,
      discountCents: 250,
      subtotalCents: 1999,
      totalCents: 1749,
      coupon,
    });
    const reais = await validate(auth, { code: coupon.code, subtotal: 19.99 });
    expect(reais.json().discountCents).toBe(250);
    const missing = await validate(auth, { code: coupon.code });
    expect(missing.statusCode).toBe(400);
  });

  it('lets a PDV user (Caixa) validate', async () => {
    const { users } = await createClientWithUsers(t, [1, 4]);
    const coupon = await makeCoupon(t, bearer(users[0].token), {
      discountType: 'FIXED_AMOUNT',
      discountValue: 50,
    });
    const res = await validate(bearer(users[1].token), { code: coupon.code, subtotalCents: 3000 });
    expect(res.json()).toMatchObject({ discountCents: 3000, totalCents: 0 });
  });

  it('answers 404 "Cupom não encontrado" for an unknown, deleted or other client code', async () => {
    const a = await createClientWithUsers(t, [1]);
    const b = await createClientWithUsers(t, [1]);
    const unknown = await validate(a.auth, { code: 'NAOEXISTE', subtotalCents: 1000 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Cupom não encontrado');
    const theirs = await makeCoupon(t, b.auth);
    expect((await validate(a.auth, { code: theirs.code, subtotalCents: 1000 })).statusCode).toBe(404);
    const mine = await makeCoupon(t, a.auth);
    await t.app.inject({ method: 'DELETE', url: `/v1/coupon/${mine.id}`, headers: a.auth });
    expect((await validate(a.auth, { code: mine.code, subtotalCents: 1000 })).statusCode).toBe(404);
  });

  it('answers 422 with the reason for each rule', async () => {
    const { client, users, auth } = await createClientWithUsers(t, [1]);
    const actor = { clientId: client.id, userId: users[0].user.id };
    const expect422 = async (payload: Record<string, unknown>, reason: string) => {
      const res = await validate(auth, payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe(reason);
    };

    const inactive = await makeCoupon(t, auth, { status: 'inactive' });
    await expect422({ code: inactive.code, subtotalCents: 1000 }, 'Este cupom está inativo');

    const future = await makeCoupon(t, auth, { startDate: addDays(today, 2), endDate: addDays(today, 9) });
    const [y, m, d] = addDays(today, 2).split('-');
    await expect422(
      { code: future.code, subtotalCents: 1000 },
      `Este cupom ainda não está válido: vale a partir de ${d}/${m}/${y}`,
    );

    // An expired coupon cannot be saved through the API (end must be today or later): age one directly.
    const expired = await makeCoupon(t, auth);
    const ended = addDays(today, -1);
    await t.database.db
      .update(coupons)
      .set({ startDate: addDays(today, -10), endDate: ended })
      .where(eq(coupons.id, expired.id));
    const [ey, em, ed] = ended.split('-');
    await expect422({ code: expired.code, subtotalCents: 1000 }, `Este cupom expirou em ${ed}/${em}/${ey}`);

    const minimum = await makeCoupon(t, auth, { minSaleAmount: 50 });
    await expect422(
      { code: minimum.code, subtotalCents: 4999 },
      'Este cupom exige compra mínima de R$ 50,00',
    );
    expect((await validate(auth, { code: minimum.code, subtotalCents: 5000 })).statusCode).toBe(200);

    const perCustomer = await makeCoupon(t, auth, { maxUsesPerUser: 1 });
    await expect422(
      { code: perCustomer.code, subtotalCents: 1000 },
      'Este cupom tem limite de usos por cliente: informe o cliente da venda',
    );
    expect(
      (await validate(auth, { code: perCustomer.code, subtotalCents: 1000, customerId: 77 })).statusCode,
    ).toBe(200);
    await t.database.db.transaction((tx) =>
      useCoupon(tx, actor, { code: perCustomer.code, subtotalCents: 1000, customerId: 77 }),
    );
    await expect422(
      { code: perCustomer.code, subtotalCents: 1000, customerId: 77 },
      'Este cliente já usou este cupom o máximo permitido (1 vez)',
    );
    // Another customer still may.
    expect(
      (await validate(auth, { code: perCustomer.code, subtotalCents: 1000, customerId: 78 })).statusCode,
    ).toBe(200);

    const single = await makeCoupon(t, auth, { isSingleUse: true });
    expect((await validate(auth, { code: single.code, subtotalCents: 1000 })).statusCode).toBe(200);
    await t.database.db.transaction((tx) =>
      useCoupon(tx, actor, { code: single.code, subtotalCents: 1000, saleId: 501 }),
    );
    await expect422(
      { code: single.code, subtotalCents: 1000 },
      'Este cupom é de uso único e já foi utilizado',
    );

    // A canceled sale frees its use.
    expect(await t.database.db.transaction((tx) => cancelCouponUses(tx, actor, 501))).toBe(1);
    expect((await validate(auth, { code: single.code, subtotalCents: 1000 })).statusCode).toBe(200);
  });

  it('does not record a use (validating twice a single-use coupon still applies)', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const single = await makeCoupon(t, auth, { isSingleUse: true });
    expect((await validate(auth, { code: single.code, subtotalCents: 1000 })).statusCode).toBe(200);
    expect((await validate(auth, { code: single.code, subtotalCents: 1000 })).statusCode).toBe(200);
    const uses = await t.database.db.select().from(couponUses).where(eq(couponUses.couponId, single.id));
    expect(uses).toEqual([]);
  });
});

describe("coupon validity in the shop's time zone (issue 14)", () => {
  it("judges start and end dates by the shop's date, not São Paulo's", async () => {
    // At any instant one of these zones is on another date than São Paulo (UTC+14 from 07:00 in
    // São Paulo on, UTC-11 before 08:00): the shop lives there.
    const zone =
      dateIn('Pacific/Kiritimati') !== dateIn(DEFAULT_TIME_ZONE) ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const shopDate = dateIn(zone);
    expect(shopDate).not.toBe(today);
    const { client, auth } = await createClientWithUsers(t, [1]);
    await t.database.db.update(clients).set({ timeZone: zone }).where(eq(clients.id, client.id));
    const onlyOn = async (date: string) => {
      const coupon = await makeCoupon(t, auth);
      await t.database.db
        .update(coupons)
        .set({ startDate: date, endDate: date })
        .where(eq(coupons.id, coupon.id));
      return coupon.code;
    };
    const shopsDay = await onlyOn(shopDate);
    const res = await validate(auth, { code: shopsDay, subtotalCents: 1000 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().discountCents).toBe(100);

    const [y, m, d] = today.split('-');
    const saoPaulosDay = await onlyOn(today);
    const refused = await validate(auth, { code: saoPaulosDay, subtotalCents: 1000 });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().message).toBe(
      shopDate > today
        ? `Este cupom expirou em ${d}/${m}/${y}`
        : `Este cupom ainda não está válido: vale a partir de ${d}/${m}/${y}`,
    );
  });
});

describe('useCoupon (sale checkout)', () => {
  it('gives one success and one 409 when two sales race for a single-use coupon', async () => {
    const { client, users, auth } = await createClientWithUsers(t, [1]);
    const actor = { clientId: client.id, userId: users[0].user.id };
    const single = await makeCoupon(t, auth, {
      isSingleUse: true,
      discountType: 'FIXED_AMOUNT',
      discountValue: 10,
    });
    const attempt = (saleId: number) =>
      t.database.db.transaction((tx) =>
        useCoupon(tx, actor, { code: single.code, subtotalCents: 5000, saleId }),
      );
    const results = await Promise.allSettled([attempt(1), attempt(2), attempt(3)]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(1);
    expect((ok[0] as PromiseFulfilledResult<{ discountCents: number }>).value.discountCents).toBe(1000);
    expect(failed).toHaveLength(2);
    for (const f of failed) {
      expect(f.reason.statusCode).toBe(409);
      expect(f.reason.message).toBe('Este cupom é de uso único e já foi utilizado');
    }
    const uses = await t.database.db.select().from(couponUses).where(eq(couponUses.couponId, single.id));
    expect(uses).toHaveLength(1);
  });

  it('records nothing when the sale transaction rolls back', async () => {
    const { client, users, auth } = await createClientWithUsers(t, [1]);
    const actor = { clientId: client.id, userId: users[0].user.id };
    const single = await makeCoupon(t, auth, { isSingleUse: true });
    await expect(
      t.database.db.transaction(async (tx) => {
        await useCoupon(tx, actor, { code: single.code, subtotalCents: 1000 });
        throw new Error('payment failed');
      }),
    ).rejects.toThrow('payment failed');
    expect((await validate(auth, { code: single.code, subtotalCents: 1000 })).statusCode).toBe(200);
  });

  it('refuses with 422 a rule the sale can fix and 404 an unknown code', async () => {
    const { client, users, auth } = await createClientWithUsers(t, [1]);
    const actor = { clientId: client.id, userId: users[0].user.id };
    const minimum = await makeCoupon(t, auth, { minSaleAmount: 100 });
    await expect(
      t.database.db.transaction((tx) => useCoupon(tx, actor, { code: minimum.code, subtotalCents: 100 })),
    ).rejects.toMatchObject({ statusCode: 422, rule: 'below_minimum' });
    await expect(
      t.database.db.transaction((tx) => useCoupon(tx, actor, { code: 'NENHUM', subtotalCents: 100 })),
    ).rejects.toMatchObject({ statusCode: 404, message: 'Cupom não encontrado' });
  });
});

describe('demo seed', () => {
  it('gives the demo shop three valid coupons of each kind', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    await seedCoupons(t.database.db, client.id);
    const list = await t.app.inject({ method: 'GET', url: `/v1/coupon/client/${client.id}`, headers: auth });
    const byCode = Object.fromEntries(list.json().map((c: { code: string }) => [c.code, c]));
    expect(Object.keys(byCode).sort()).toEqual(['BEMVINDO10', 'DESCONTO5', 'VIP20']);
    expect(byCode.DESCONTO5).toMatchObject({
      discountType: 'FIXED_AMOUNT',
      discountValue: 5,
      minSaleAmount: 30,
    });
    const res = await validate(auth, { code: 'desconto5', subtotalCents: 3000 });
    expect(res.json()).toMatchObject({ discountCents: 500, totalCents: 2500 });
  });
});
