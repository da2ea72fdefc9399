import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeProduct } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const adicionais = {
  name: 'Adicionais',
  minQuantity: 0,
  maxQuantity: 3,
  items: [
    { name: 'Bacon', priceCents: 400 },
    { name: 'Cheddar', priceCents: 300 },
    { name: 'Ovo', priceCents: 200 },
  ],
};

describe('add-on groups', () => {
  it('creates a group with items, attaches it to a product and the product shows it', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/product-additional',
      headers: auth,
      payload: adicionais,
    });
    expect(res.statusCode).toBe(201);
    const group = res.json();
    expect(group).toMatchObject({
      name: 'Adicionais',
      minQuantity: 0,
      maxQuantity: 3,
      active: true,
      productCount: 0,
    });
    expect(group.items.map((i: { name: string; priceCents: number }) => [i.name, i.priceCents])).toEqual([
      ['Bacon', 400],
      ['Cheddar', 300],
      ['Ovo', 200],
    ]);
    const burger = await makeProduct(t, auth, { name: 'X-Burger', additionalGroupIds: [group.id] });
    expect(burger.additionalGroups).toHaveLength(1);
    expect(burger.additionalGroups[0]).toMatchObject({ id: group.id, name: 'Adicionais', productCount: 1 });
    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/product-additional/client/${client.id}?q=adic`,
      headers: auth,
    });
    expect(list.json()).toMatchObject({ total: 1, items: [{ name: 'Adicionais', productCount: 1 }] });
  });

  it('validates min/max and items, refuses a duplicate name', async () => {
    const { auth } = await createClientWithUsers(t, [2]);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/product-additional',
      headers: auth,
      payload: { name: 'Molhos', minQuantity: 2, maxQuantity: 1, items: [] },
    });
    expect(bad.statusCode).toBe(400);
    const messages = bad.json().issues.map((i: { message: string }) => i.message);
    expect(messages).toEqual(expect.arrayContaining(['Cadastre ao menos um item no grupo']));
    const minMax = await t.app.inject({
      method: 'POST',
      url: '/v1/product-additional',
      headers: auth,
      payload: { name: 'Molhos', minQuantity: 2, maxQuantity: 1, items: [{ name: 'Barbecue' }] },
    });
    expect(minMax.json().issues).toEqual([
      { path: 'maxQuantity', message: 'O máximo deve ser maior ou igual ao mínimo' },
    ]);
    await t.app.inject({ method: 'POST', url: '/v1/product-additional', headers: auth, payload: adicionais });
    const dup = await t.app.inject({
      method: 'POST',
      url: '/v1/product-additional',
      headers: auth,
      payload: { ...adicionais, name: 'ADICIONAIS' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Já existe um grupo de adicionais com este nome');
  });

  it('updates items (keeps, changes, removes, adds) with the current updatedAt; stale edit 409', async () => {
    const { auth } = await createClientWithUsers(t, [6]);
    const group = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/product-additional',
        headers: auth,
        payload: adicionais,
      })
    ).json();
    const [bacon, , ovo] = group.items;
    const body = {
      name: 'Adicionais do lanche',
      minQuantity: 0,
      maxQuantity: 2,
      updatedAt: group.updatedAt,
      items: [
        { id: ovo.id, name: 'Ovo caipira', priceCents: 250 },
        { id: bacon.id, name: 'Bacon', priceCents: 450 },
        { name: 'Catupiry', priceCents: 350 },
      ],
    };
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/product-additional/${group.id}`,
      headers: auth,
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    expect(
      items.map((i: { id: number; name: string; priceCents: number }) => [i.name, i.priceCents]),
    ).toEqual([
      ['Ovo caipira', 250],
      ['Bacon', 450],
      ['Catupiry', 350],
    ]);
    expect(items[0].id).toBe(ovo.id);
    const stale = await t.app.inject({
      method: 'PUT',
      url: `/v1/product-additional/${group.id}`,
      headers: auth,
      payload: body,
    });
    expect(stale.statusCode).toBe(409);
  });

  it('a product offers its groups in its own order; each group counts the products offering it', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const create = async (payload: object) =>
      (await t.app.inject({ method: 'POST', url: '/v1/product-additional', headers: auth, payload })).json();
    const extras = await create(adicionais);
    const molhos = await create({
      name: 'Molhos',
      minQuantity: 1,
      maxQuantity: 1,
      items: [{ name: 'Barbecue' }],
    });
    await makeProduct(t, auth, { additionalGroupIds: [molhos.id] });
    const burger = await makeProduct(t, auth, { additionalGroupIds: [molhos.id, extras.id] });
    expect(
      burger.additionalGroups.map((g: { name: string; productCount: number }) => [g.name, g.productCount]),
    ).toEqual([
      ['Molhos', 2],
      ['Adicionais', 1],
    ]);
    expect(burger.additionalGroups[1].items.map((i: { name: string }) => i.name)).toEqual([
      'Bacon',
      'Cheddar',
      'Ovo',
    ]);
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${burger.id}`,
      headers: auth,
      payload: {
        name: burger.name,
        salePriceCents: burger.salePriceCents,
        updatedAt: burger.updatedAt,
        additionalGroupIds: [extras.id],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().additionalGroups).toMatchObject([{ id: extras.id, productCount: 1 }]);
    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/product-additional/client/${client.id}`,
      headers: auth,
    });
    expect(
      list.json().items.map((g: { name: string; productCount: number }) => [g.name, g.productCount]),
    ).toEqual([
      ['Adicionais', 1],
      ['Molhos', 1],
    ]);
    const one = await t.app.inject({
      method: 'GET',
      url: `/v1/product-additional/${molhos.id}`,
      headers: auth,
    });
    expect(one.json()).toMatchObject({ name: 'Molhos', productCount: 1 });
  });

  it('deleting a group removes it from products', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const group = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/product-additional',
        headers: auth,
        payload: adicionais,
      })
    ).json();
    const p = await makeProduct(t, auth, { additionalGroupIds: [group.id] });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v1/product-additional/${group.id}`,
      headers: auth,
    });
    expect(del.statusCode).toBe(200);
    const after = (await t.app.inject({ method: 'GET', url: `/v1/product/${p.id}`, headers: auth })).json();
    expect(after.additionalGroups).toEqual([]);
  });

  it("keeps clients apart: another client's group is 404 and cannot be attached", async () => {
    const a = await createClientWithUsers(t, [1]);
    const b = await createClientWithUsers(t, [1]);
    const group = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/product-additional',
        headers: a.auth,
        payload: adicionais,
      })
    ).json();
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/product-additional/${group.id}`, headers: b.auth }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/v1/product-additional/client/${a.client.id}`,
          headers: b.auth,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/product-additional/${group.id}`, headers: b.auth }))
        .statusCode,
    ).toBe(404);
    const attach = await t.app.inject({
      method: 'POST',
      url: '/v1/product',
      headers: b.auth,
      payload: { name: 'X', salePriceCents: 1, additionalGroupIds: [group.id] },
    });
    expect(attach.statusCode).toBe(422);
    expect(attach.json().message).toBe('Grupo de adicionais não encontrado');
  });
});
