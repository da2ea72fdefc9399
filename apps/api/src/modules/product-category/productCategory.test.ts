import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { type Headers, makeProduct } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Products of the client that use the record (through the API, as the catalog does). */
async function addProducts(auth: Headers, n: number, ref: { categoryId?: number; brandId?: number }) {
  for (let i = 0; i < n; i++) await makeProduct(t, auth, ref);
}

for (const resource of ['product-category', 'product-brand'] as const) {
  const noun = resource === 'product-category' ? 'categoria' : 'marca';

  describe(`${resource}`, () => {
    it('creates (201), reads, lists with search and product count, sorts by name', async () => {
      const { client, auth } = await createClientWithUsers(t, [1]);
      for (const name of ['Bebidas', 'lanches', 'Sobremesas']) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/v1/${resource}`,
          headers: auth,
          payload: { name },
        });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({ id: expect.any(Number), name, active: true, productCount: 0 });
      }
      const list = await t.app.inject({
        method: 'GET',
        url: `/v1/${resource}/client/${client.id}`,
        headers: auth,
      });
      expect(list.statusCode).toBe(200);
      const body = list.json();
      expect(body).toMatchObject({ total: 3, page: 1, pageSize: 20 });
      expect(body.items.map((c: { name: string }) => c.name)).toEqual(['Bebidas', 'lanches', 'Sobremesas']);

      const bebidas = body.items[0];
      await addProducts(
        auth,
        2,
        resource === 'product-category' ? { categoryId: bebidas.id } : { brandId: bebidas.id },
      );
      const searched = await t.app.inject({
        method: 'GET',
        url: `/v1/${resource}/client/${client.id}?q=BEB&sort=-productCount`,
        headers: auth,
      });
      expect(searched.json()).toMatchObject({ total: 1, items: [{ name: 'Bebidas', productCount: 2 }] });

      const one = await t.app.inject({ method: 'GET', url: `/v1/${resource}/${bebidas.id}`, headers: auth });
      expect(one.json()).toMatchObject({ name: 'Bebidas', productCount: 2 });

      const paged = await t.app.inject({
        method: 'GET',
        url: `/v1/${resource}/client/${client.id}?page=2&pageSize=2&sort=-name`,
        headers: auth,
      });
      expect(paged.json()).toMatchObject({ total: 3, page: 2, pageSize: 2, items: [{ name: 'Bebidas' }] });

      const badSort = await t.app.inject({
        method: 'GET',
        url: `/v1/${resource}/client/${client.id}?sort=senha`,
        headers: auth,
      });
      expect(badSort.statusCode).toBe(400);
    });

    it('refuses a duplicate name in the same client ignoring case, allows it in another client', async () => {
      const a = await createClientWithUsers(t, [2]);
      const b = await createClientWithUsers(t, [1]);
      const first = await t.app.inject({
        method: 'POST',
        url: `/v1/${resource}`,
        headers: a.auth,
        payload: { name: 'Roupas' },
      });
      expect(first.statusCode).toBe(201);
      const dup = await t.app.inject({
        method: 'POST',
        url: `/v1/${resource}`,
        headers: a.auth,
        payload: { name: ' ROUPAS ' },
      });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().message).toMatch(/^Já existe uma (categoria|marca) com este nome$/);
      const other = await t.app.inject({
        method: 'POST',
        url: `/v1/${resource}`,
        headers: b.auth,
        payload: { name: 'Roupas' },
      });
      expect(other.statusCode).toBe(201);
      const empty = await t.app.inject({
        method: 'POST',
        url: `/v1/${resource}`,
        headers: a.auth,
        payload: { name: '  ' },
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toContain('O campo é obrigatório');
    });

    it('updates with the current updatedAt (200) and refuses a stale one (409)', async () => {
      const { client, auth } = await createClientWithUsers(t, [6]);
      const created = (
        await t.app.inject({
          method: 'POST',
          url: `/v1/${resource}`,
          headers: auth,
          payload: { name: 'Calçados' },
        })
      ).json();
      const ok = await t.app.inject({
        method: 'PUT',
        url: `/v1/${resource}/${created.id}`,
        headers: auth,
        payload: { name: 'Calçados femininos', active: false, updatedAt: created.updatedAt },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ name: 'Calçados femininos', active: false });
      const stale = await t.app.inject({
        method: 'PUT',
        url: `/v1/${resource}/${created.id}`,
        headers: auth,
        payload: { name: 'Outro nome', active: true, updatedAt: created.updatedAt },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().message).toContain('alterado por outra pessoa');
      const inactive = await t.app.inject({
        method: 'GET',
        url: `/v1/${resource}/client/${client.id}?active=false`,
        headers: auth,
      });
      expect(inactive.json().items.map((c: { name: string }) => c.name)).toEqual(['Calçados femininos']);
    });

    it(`refuses to delete a ${noun} products use (409 with the count), deletes an unused one`, async () => {
      const { auth } = await createClientWithUsers(t, [1]);
      const used = (
        await t.app.inject({
          method: 'POST',
          url: `/v1/${resource}`,
          headers: auth,
          payload: { name: 'Usada' },
        })
      ).json();
      await addProducts(
        auth,
        3,
        resource === 'product-category' ? { categoryId: used.id } : { brandId: used.id },
      );
      const refused = await t.app.inject({
        method: 'DELETE',
        url: `/v1/${resource}/${used.id}`,
        headers: auth,
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(`Não é possível excluir: 3 produtos usam esta ${noun}`);

      const unused = (
        await t.app.inject({
          method: 'POST',
          url: `/v1/${resource}`,
          headers: auth,
          payload: { name: 'Livre' },
        })
      ).json();
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/v1/${resource}/${unused.id}`,
        headers: auth,
      });
      expect(deleted.statusCode).toBe(200);
      const gone = await t.app.inject({ method: 'GET', url: `/v1/${resource}/${unused.id}`, headers: auth });
      expect(gone.statusCode).toBe(404);
    });

    it("never shows or changes another client's records (404)", async () => {
      const a = await createClientWithUsers(t, [1]);
      const b = await createClientWithUsers(t, [1]);
      const mine = (
        await t.app.inject({
          method: 'POST',
          url: `/v1/${resource}`,
          headers: a.auth,
          payload: { name: 'Secreta' },
        })
      ).json();
      const list = await t.app.inject({
        method: 'GET',
        url: `/v1/${resource}/client/${a.client.id}`,
        headers: b.auth,
      });
      expect(list.statusCode).toBe(404);
      expect(
        (await t.app.inject({ method: 'GET', url: `/v1/${resource}/${mine.id}`, headers: b.auth }))
          .statusCode,
      ).toBe(404);
      const put = await t.app.inject({
        method: 'PUT',
        url: `/v1/${resource}/${mine.id}`,
        headers: b.auth,
        payload: { name: 'Hack', active: true, updatedAt: mine.updatedAt },
      });
      expect(put.statusCode).toBe(404);
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/v1/${resource}/${mine.id}`, headers: b.auth }))
          .statusCode,
      ).toBe(404);
      const own = await t.app.inject({
        method: 'GET',
        url: `/v1/${resource}/client/${b.client.id}`,
        headers: b.auth,
      });
      expect(own.json().total).toBe(0);
    });

    it('lets the back office read (its product pages), only catalog roles write, Garçom and drivers nothing', async () => {
      const { client, users } = await createClientWithUsers(t, [3, 5, 10]);
      const [vendedor, garcom, driver] = users.map((u) => bearer(u.token));
      const url = `/v1/${resource}/client/${client.id}`;
      expect((await t.app.inject({ method: 'GET', url, headers: vendedor })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url, headers: garcom })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url, headers: driver })).statusCode).toBe(403);
      const post = await t.app.inject({
        method: 'POST',
        url: `/v1/${resource}`,
        headers: vendedor,
        payload: { name: 'X' },
      });
      expect(post.statusCode).toBe(403);
    });
  });
}
