import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, createClientWithUsers, type TestApp } from '../../../test/helper.ts';
import {
  api,
  collectMessages,
  type Headers,
  joinChannel,
  makeProduct,
  newEan13,
  type SocketClients,
  useTestApp,
} from '../../../test/kit.ts';
import { clients } from '../../db/schema.ts';

const API_KEY = 'chave-estoque';

let t: TestApp;
let sockets: SocketClients;
useTestApp({ config: { apiKey: API_KEY }, sockets: true }, (app) => ({ t, sockets } = app));

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** Cached level vs the ledger's sum for every product (and variant) of a client. */
async function disagreements(clientId: number) {
  const products = rowsOf<{ id: number; stock: string; ledger: string }>(
    await t.database.db.execute(sql`
      select p.id, p.stock, coalesce((select sum(m.quantity) from stock_movements m where m.product_id = p.id), 0) as ledger
      from products p where p.client_id = ${clientId}`),
  );
  const variants = rowsOf<{ id: number; stock: string; ledger: string }>(
    await t.database.db.execute(sql`
      select v.id, v.stock, coalesce((select sum(m.quantity) from stock_movements m where m.variant_id = v.id), 0) as ledger
      from product_variants v where v.client_id = ${clientId}`),
  );
  return [...products, ...variants].filter((r) => Number(r.stock) !== Number(r.ledger));
}

/** POST /v1/stock-movement/fractionate: `source` ([product id, quantity]) out, `target` in. */
const fractionate = (auth: Headers, source: [number, number], target: [number, number]) =>
  api(t, auth).post('/stock-movement/fractionate', {
    sourceProductId: source[0],
    sourceQuantity: source[1],
    targetProductId: target[0],
    targetQuantity: target[1],
  });

/** How many rows a client's stock ledger holds. */
const ledgerSize = async (clientId: number) =>
  rowsOf<{ n: number }>(
    await t.database.db.execute(
      sql`select count(*)::int as n from stock_movements where client_id = ${clientId}`,
    ),
  )[0].n;

async function stockOf(auth: Headers, productId: number) {
  return (await api(t, auth).get(`/product/${productId}`)).json() as {
    stock: number;
    costPriceCents: number;
    updatedAt: string;
    variants: { id: number; stock: number }[];
  };
}

describe('entry', () => {
  it('registers several products at once, updates the weighted average cost and answers the rows', async () => {
    const { auth, users } = await createClientWithUsers(t, [6]);
    const coffee = await makeProduct(t, auth, { name: 'Café 500 g', stock: 10, costPriceCents: 1500 });
    const sugar = await makeProduct(t, auth, {
      name: 'Açúcar 1 kg',
      unit: 'kg',
      productType: 'weighed',
    });
    const res = await api(t, auth).post('/stock-movement/entry', {
      document: 'NF 1234',
      items: [
        { productId: coffee.id, quantity: 30, unitCostCents: 1700 },
        { productId: sugar.id, quantity: '2,5', unitCostCents: 480 },
      ],
    });
    expect(res.statusCode).toBe(201);
    const { movements } = res.json();
    expect(movements).toMatchObject([
      {
        type: 'entry',
        quantity: 30,
        unitCostCents: 1700,
        document: 'NF 1234',
        product: { id: coffee.id, name: 'Café 500 g', unit: 'un' },
        variant: null,
        user: { id: users[0].user.id },
      },
      { type: 'entry', quantity: 2.5, unitCostCents: 480, product: { id: sugar.id, unit: 'kg' } },
    ]);
    // (10 x 15,00 + 30 x 17,00) / 40 = 16,50
    expect(await stockOf(auth, coffee.id)).toMatchObject({ stock: 40, costPriceCents: 1650 });
    expect(await stockOf(auth, sugar.id)).toMatchObject({ stock: 2.5, costPriceCents: 480 });
  });

  it('validates the form: items, quantity with 3 decimals, unit cost (400 with Portuguese messages)', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth);
    const empty = await api(t, auth).post('/stock-movement/entry', { items: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Adicione ao menos um produto');
    const tooPrecise = await api(t, auth).post('/stock-movement/entry', {
      items: [{ productId: p.id, quantity: 1.2345, unitCostCents: 100 }],
    });
    expect(tooPrecise.statusCode).toBe(400);
    expect(tooPrecise.json().message).toContain('Use no máximo 3 casas decimais');
    const zero = await api(t, auth).post('/stock-movement/entry', {
      items: [{ productId: p.id, quantity: '0', unitCostCents: 100 }],
    });
    expect(zero.json().message).toContain('A quantidade deve ser maior que 0');
    const noCost = await api(t, auth).post('/stock-movement/entry', {
      items: [{ productId: p.id, quantity: 1 }],
    });
    expect(noCost.statusCode).toBe(400);
  });

  it('enters a variant: the variant and the product total move; the product needs the variant', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, {
      name: 'Camiseta',
      productType: 'variants',
      grid: { colors: ['Preto'], sizes: ['P', 'M'] },
    });
    const [small, medium] = p.variants;
    const res = await api(t, auth).post('/stock-movement/entry', {
      items: [
        { productId: p.id, variantId: small.id, quantity: 4, unitCostCents: 2500 },
        { productId: p.id, variantId: medium.id, quantity: 1, unitCostCents: 2500 },
      ],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().movements[0].variant).toEqual({ id: small.id, name: 'Preto / P' });
    const after = await stockOf(auth, p.id);
    expect(after.stock).toBe(5);
    expect(after.variants.map((v) => v.stock)).toEqual([4, 1]);
    const noVariant = await api(t, auth).post('/stock-movement/entry', {
      items: [{ productId: p.id, quantity: 1, unitCostCents: 1 }],
    });
    expect(noVariant.statusCode).toBe(422);
    expect(noVariant.json().message).toBe('Escolha a variação (cor/tamanho) de Camiseta');
  });
});

describe('exit', () => {
  it('takes stock out with a reason and refuses to go negative with 409 (nothing written)', async () => {
    const { auth, client } = await createClientWithUsers(t, [2]);
    const p = await makeProduct(t, auth, { name: 'Iogurte natural', stock: 3 });
    const ok = await api(t, auth).post('/stock-movement/exit', {
      reason: 'breakage',
      items: [{ productId: p.id, quantity: 1 }],
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().movements[0]).toMatchObject({ type: 'exit', quantity: -1, reason: 'breakage' });
    const partial = await api(t, auth).post('/stock-movement/exit', {
      reason: 'loss',
      items: [{ productId: p.id, quantity: '1,5' }],
    });
    expect(partial.statusCode).toBe(201);
    const refused = await api(t, auth).post('/stock-movement/exit', {
      reason: 'internal-use',
      items: [{ productId: p.id, quantity: 1 }],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Estoque insuficiente para Iogurte natural (disponível: 0,5)');
    expect(await disagreements(client.id)).toEqual([]);
    expect((await stockOf(auth, p.id)).stock).toBe(0.5);
  });

  it('needs a reason, and a description when the reason is "other"', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { stock: 5 });
    const noReason = await api(t, auth).post('/stock-movement/exit', {
      items: [{ productId: p.id, quantity: 1 }],
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toContain('Selecione o motivo da saída');
    const other = await api(t, auth).post('/stock-movement/exit', {
      reason: 'other',
      items: [{ productId: p.id, quantity: 1 }],
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toContain('Descreva o motivo da saída');
    const described = await api(t, auth).post('/stock-movement/exit', {
      reason: 'other',
      note: 'Degustação na loja',
      items: [{ productId: p.id, quantity: 1 }],
    });
    expect(described.statusCode).toBe(201);
  });

  it('lets the level go negative once the client allows it (setting by Administrador/Gerente)', async () => {
    const { auth, client, users } = await createClientWithUsers(t, [1, 6]);
    const p = await makeProduct(t, auth, { name: 'Gelo 5 kg', stock: 0 });
    const url = `/stock-setting/client/${client.id}`;
    expect((await api(t, auth).get(url)).json()).toEqual({
      stockManagement: true,
      allowNegativeStock: false,
    });
    expect((await api(t, bearer(users[1].token)).put(url, { allowNegativeStock: true })).statusCode).toBe(
      403,
    );
    const changed = await api(t, auth).put(url, { allowNegativeStock: true });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ stockManagement: true, allowNegativeStock: true });
    const res = await api(t, bearer(users[1].token)).post('/stock-movement/exit', {
      reason: 'loss',
      items: [{ productId: p.id, quantity: 2 }],
    });
    expect(res.statusCode).toBe(201);
    expect((await stockOf(auth, p.id)).stock).toBe(-2);
    expect(await disagreements(client.id)).toEqual([]);
  });
});

describe('fractionate', () => {
  it('moves N of the source out and M of the target in, carries the cost and remembers the ratio', async () => {
    const { auth, client } = await createClientWithUsers(t, [6]);
    const box = await makeProduct(t, auth, { name: 'Caixa 12 un', stock: 5, costPriceCents: 2400 });
    const unit = await makeProduct(t, auth, { name: 'Unidade', stock: 0 });
    const res = await fractionate(auth, [box.id, 2], [unit.id, 24]);
    expect(res.statusCode).toBe(201);
    expect(res.json().movements).toMatchObject([
      { type: 'fractionate-out', quantity: -2, product: { id: box.id } },
      { type: 'fractionate-in', quantity: 24, unitCostCents: 200, product: { id: unit.id } },
    ]);
    expect(await stockOf(auth, box.id)).toMatchObject({ stock: 3, costPriceCents: 2400 });
    expect(await stockOf(auth, unit.id)).toMatchObject({ stock: 24, costPriceCents: 200 });
    const ratios = await api(t, auth).get(
      `/stock-movement/fraction-ratio/client/${client.id}?sourceProductId=${box.id}`,
    );
    expect(ratios.json()).toMatchObject([
      {
        sourceProductId: box.id,
        targetProductId: unit.id,
        targetProductName: 'Unidade',
        sourceQuantity: 2,
        targetQuantity: 24,
      },
    ]);
    // The last ratio used wins.
    await fractionate(auth, [box.id, 1], [unit.id, 12]);
    const again = await api(t, auth).get(
      `/stock-movement/fraction-ratio/client/${client.id}?sourceProductId=${box.id}&targetProductId=${unit.id}`,
    );
    expect(again.json()).toHaveLength(1);
    expect(again.json()[0]).toMatchObject({ sourceQuantity: 1, targetQuantity: 12 });
  });

  it('refuses when the source has not enough stock, and the same product on both sides', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const box = await makeProduct(t, auth, { name: 'Fardo 6 un', stock: 1 });
    const unit = await makeProduct(t, auth, { name: 'Lata' });
    const refused = await fractionate(auth, [box.id, 2], [unit.id, 12]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Estoque insuficiente para Fardo 6 un (disponível: 1)');
    const same = await fractionate(auth, [box.id, 1], [box.id, 6]);
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toContain('Escolha produtos diferentes');
  });

  it('is atomic: a failure writing the target leaves the source, the ledger and the ratio untouched', async () => {
    const { auth, client } = await createClientWithUsers(t, [1]);
    const box = await makeProduct(t, auth, { name: 'Caixa', stock: 4 });
    // The target's level is at the column's limit: adding to it fails inside the transaction,
    // after the source's row and level were written.
    const full = await makeProduct(t, auth, { name: 'Cheio', stock: 99_999_999_999 });
    const ledgerBefore = await ledgerSize(client.id);
    const res = await fractionate(auth, [box.id, 1], [full.id, 12]);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('limite de estoque');
    expect((await stockOf(auth, box.id)).stock).toBe(4);
    const ledgerAfter = await ledgerSize(client.id);
    expect(ledgerAfter).toBe(ledgerBefore);
    const ratios = await api(t, auth).get(`/stock-movement/fraction-ratio/client/${client.id}`);
    expect(ratios.json()).toEqual([]);
    expect(await disagreements(client.id)).toEqual([]);
  });
});

describe('concurrency', () => {
  it('two simultaneous exits of the last unit: one succeeds, one gets 409', async () => {
    const { auth, client } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Último pote', stock: 1 });
    const exit = () =>
      api(t, auth).post('/stock-movement/exit', {
        reason: 'loss',
        items: [{ productId: p.id, quantity: 1 }],
      });
    const codes = (await Promise.all([exit(), exit()])).map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409]);
    expect((await stockOf(auth, p.id)).stock).toBe(0);
    expect(await disagreements(client.id)).toEqual([]);
  });

  it('many parallel entries and exits over products and variants: never negative, cache = ledger', async () => {
    const { auth, client } = await createClientWithUsers(t, [1]);
    const a = await makeProduct(t, auth, { name: 'A', stock: 5 });
    const b = await makeProduct(t, auth, { name: 'B', stock: 2 });
    const shirt = await makeProduct(t, auth, {
      name: 'Blusa',
      productType: 'variants',
      grid: { colors: [], sizes: ['U'] },
    });
    const variant = shirt.variants[0];
    await api(t, auth).post('/stock-movement/entry', {
      items: [{ productId: shirt.id, variantId: variant.id, quantity: 3, unitCostCents: 100 }],
    });
    const exitOf = (items: unknown[]) => api(t, auth).post('/stock-movement/exit', { reason: 'loss', items });
    const work = [
      // Opposite orders in one request each: the locks are taken by id, so no deadlock.
      ...Array.from({ length: 6 }, () =>
        exitOf([
          { productId: a.id, quantity: 1 },
          { productId: b.id, quantity: 0.5 },
        ]),
      ),
      ...Array.from({ length: 6 }, () =>
        exitOf([
          { productId: b.id, quantity: 0.5 },
          { productId: a.id, quantity: 1 },
        ]),
      ),
      ...Array.from({ length: 5 }, () =>
        exitOf([{ productId: shirt.id, variantId: variant.id, quantity: 1 }]),
      ),
      ...Array.from({ length: 3 }, () =>
        api(t, auth).post('/stock-movement/entry', {
          items: [
            { productId: b.id, quantity: 0.25, unitCostCents: 10 },
            { productId: a.id, quantity: 0.5, unitCostCents: 10 },
          ],
        }),
      ),
    ];
    const results = await Promise.all(work);
    expect(results.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    const shirtExits = results.slice(12, 17).filter((r) => r.statusCode === 201).length;
    expect(shirtExits).toBe(3);
    const final = await Promise.all([a, b, shirt].map((p) => stockOf(auth, p.id)));
    for (const p of final) expect(p.stock).toBeGreaterThanOrEqual(0);
    expect(final[2].variants[0].stock).toBe(0);
    expect(await disagreements(client.id)).toEqual([]);
  });
});

describe('low stock', () => {
  it('notifies the client channel once per crossing of the minimum, after the commit', async () => {
    const { auth, client, token } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Café', stock: 8, minStock: 5 });
    const socket = await sockets.connected({ key: API_KEY, token });
    expect(await joinChannel(socket, `notifications_${client.id}`)).toEqual({ ok: true });
    const exit = (quantity: number) =>
      api(t, auth).post('/stock-movement/exit', { reason: 'loss', items: [{ productId: p.id, quantity }] });

    const first = collectMessages(socket, 1500);
    expect((await exit(2)).statusCode).toBe(201); // 8 -> 6: above the minimum, no alert
    expect((await exit(1)).statusCode).toBe(201); // 6 -> 5: crossing
    expect((await exit(1)).statusCode).toBe(201); // 5 -> 4: still low, no second alert
    expect(await first).toEqual([
      { message: 'Estoque baixo: Café está com 5 un (mínimo 5 un)', alertColor: 'warning' },
    ]);

    const second = collectMessages(socket, 1500);
    await api(t, auth).post('/stock-movement/entry', {
      items: [{ productId: p.id, quantity: 3, unitCostCents: 1 }],
    });
    expect((await exit(3)).statusCode).toBe(201); // 7 -> 4: a new crossing
    const refused = await exit(10);
    expect(refused.statusCode).toBe(409); // refused: nothing committed, nothing sent
    expect(await second).toEqual([
      { message: 'Estoque baixo: Café está com 4 un (mínimo 5 un)', alertColor: 'warning' },
    ]);
  });

  it('lists the active products at or below their minimum', async () => {
    const { auth, client, users } = await createClientWithUsers(t, [1, 3]);
    await makeProduct(t, auth, { name: 'Arroz', stock: 2, minStock: 5 });
    await makeProduct(t, auth, { name: 'Feijão', stock: 5, minStock: 5 });
    await makeProduct(t, auth, { name: 'Macarrão', stock: 9, minStock: 5 });
    await makeProduct(t, auth, { name: 'Sal', stock: 0, minStock: 0 });
    await makeProduct(t, auth, { name: 'Óleo', stock: 1, minStock: 3, active: false });
    // A Vendedor reads stock pages too (BACKOFFICE).
    const res = await api(t, bearer(users[1].token)).get(`/stock-movement/low-stock/client/${client.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(res.json().items.map((p: { name: string; stock: number }) => [p.name, p.stock])).toEqual([
      ['Arroz', 2],
      ['Feijão', 5],
    ]);
    const other = await createClientWithUsers(t, [1]);
    expect((await api(t, other.auth).get(`/stock-movement/low-stock/client/${client.id}`)).statusCode).toBe(
      404,
    );
  });
});

describe('history and stock card', () => {
  it('lists with filters (product, type, user, period), paginates and exports CSV', async () => {
    const { auth, client, users } = await createClientWithUsers(t, [1, 6]);
    const stockist = bearer(users[1].token);
    const rice = await makeProduct(t, auth, { name: 'Arroz 5 kg', stock: 10 });
    const beans = await makeProduct(t, auth, { name: 'Feijão 1 kg', barcode: newEan13() });
    await api(t, stockist).post('/stock-movement/entry', {
      document: 'NF 77',
      items: [
        { productId: rice.id, quantity: 5, unitCostCents: 2000 },
        { productId: beans.id, quantity: '1,5', unitCostCents: 700 },
      ],
    });
    await api(t, auth).post('/stock-movement/exit', {
      reason: 'loss',
      items: [{ productId: rice.id, quantity: 2 }],
    });
    const list = (query: string) => api(t, auth).get(`/stock-movement/client/${client.id}${query}`);

    const all = (await list('')).json();
    // Rice's opening balance, the two entries and the exit, newest first.
    expect(all.total).toBe(4);
    expect(all.items.map((m: { type: string }) => m.type)).toEqual(['exit', 'entry', 'entry', 'adjustment']);
    // The opening balance names who created the product (issue 30), no longer "Sistema".
    expect(all.items[3]).toMatchObject({
      reason: 'initial-stock',
      quantity: 10,
      user: { id: users[0].user.id },
    });

    const ofRice = (await list(`?productId=${rice.id}`)).json();
    expect(ofRice.items.map((m: { quantity: number }) => m.quantity)).toEqual([-2, 5, 10]);
    expect((await list('?type=entry')).json().total).toBe(2);
    expect((await list('?type=exit,adjustment')).json().total).toBe(2);
    expect((await list(`?userId=${users[1].user.id}`)).json().total).toBe(2);
    expect((await list('?q=feijao')).json().items[0].product.name).toBe('Feijão 1 kg');
    const page2 = (await list('?pageSize=3&page=2')).json();
    expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(page2.items).toHaveLength(1);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    expect((await list(`?from=${today}&to=${today}`)).json().total).toBe(4);
    expect((await list('?from=2000-01-01&to=2000-01-31')).json().total).toBe(0);
    expect((await list('?from=2000-02-30')).statusCode).toBe(400);
    expect((await list('?from=2024-02-10&to=2024-02-01')).json().message).toContain(
      'A data final deve ser igual ou posterior',
    );
    expect((await list('?type=roubo')).statusCode).toBe(400);
    expect((await list('?sort=-preco')).statusCode).toBe(400);

    const csv = await api(t, auth).get(`/stock-movement/client/${client.id}/export?productId=${beans.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'data;tipo;produto;variacao;quantidade;unidade;custo_unitario;motivo;documento;observacao;usuario',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2};Entrada;Feijão 1 kg;;1,5;un;7,00;;NF 77;;Usuário 6$/,
    );
  });

  it("shows a product's stock card with the level after each movement", async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Farinha', stock: 4, minStock: 2 });
    await api(t, auth).post('/stock-movement/entry', {
      items: [{ productId: p.id, quantity: 6, unitCostCents: 300 }],
    });
    await api(t, auth).post('/stock-movement/exit', {
      reason: 'breakage',
      items: [{ productId: p.id, quantity: 1.5 }],
    });
    await api(t, auth).post('/stock-movement/exit', {
      reason: 'loss',
      items: [{ productId: p.id, quantity: 0.25 }],
    });
    const card = (await api(t, auth).get(`/stock-movement/product/${p.id}`)).json();
    expect(card.product).toMatchObject({
      id: p.id,
      name: 'Farinha',
      stock: 8.25,
      minStock: 2,
      isLowStock: false,
    });
    expect(card.items.map((l: { quantity: number; balance: number }) => [l.quantity, l.balance])).toEqual([
      [-0.25, 8.25],
      [-1.5, 8.5],
      [6, 10],
      [4, 4],
    ]);
    const page2 = (await api(t, auth).get(`/stock-movement/product/${p.id}?pageSize=2&page=2`)).json();
    expect(page2.items.map((l: { balance: number }) => l.balance)).toEqual([10, 4]);
    expect(page2.total).toBe(4);
  });
});

describe('the product form and the ledger', () => {
  it('records an adjustment when the product form changes a level, and keeps cache = ledger', async () => {
    const { auth, client } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Vela', stock: 3 });
    await api(t, auth).post('/stock-movement/entry', {
      items: [{ productId: p.id, quantity: 2, unitCostCents: 50 }],
    });
    const current = await stockOf(auth, p.id);
    const res = await api(t, auth).put(`/product/${p.id}`, {
      name: 'Vela',
      salePriceCents: 1000,
      stock: 4,
      updatedAt: current.updatedAt,
    });
    expect(res.statusCode).toBe(200);
    const card = (await api(t, auth).get(`/stock-movement/product/${p.id}`)).json();
    expect(card.items[0]).toMatchObject({
      type: 'adjustment',
      reason: 'product-form',
      quantity: -1,
      balance: 4,
    });
    expect(await disagreements(client.id)).toEqual([]);
  });

  it('logs a level typed in the product form, a variant or the CSV import with who typed it (issue 30)', async () => {
    const { auth, users, client } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, {
      name: 'Camiseta',
      sku: `CAM-${newEan13().slice(-6)}`,
      productType: 'variants',
      grid: { colors: [], sizes: ['P'] },
    });
    const [variant] = p.variants as { id: number; updatedAt: string }[];
    const res = await api(t, auth).put(`/product-grid/${variant.id}`, {
      stock: 7,
      updatedAt: variant.updatedAt,
    });
    expect(res.statusCode).toBe(200);
    const card = (await api(t, auth).get(`/stock-movement/product/${p.id}`)).json();
    expect(card.items[0]).toMatchObject({
      reason: 'product-form',
      quantity: 7,
      user: { id: users[0].user.id },
    });

    const simple = await makeProduct(t, auth, { name: 'Caneca', stock: 2 });
    const edited = await api(t, auth).put(`/product/${simple.id}`, {
      name: 'Caneca',
      salePriceCents: 1000,
      stock: 5,
      updatedAt: simple.updatedAt,
    });
    expect(edited.statusCode).toBe(200);
    const simpleCard = (await api(t, auth).get(`/stock-movement/product/${simple.id}`)).json();
    expect(
      simpleCard.items.map((m: { reason: string; user: { id: number } | null }) => [m.reason, m.user?.id]),
    ).toEqual([
      ['product-form', users[0].user.id],
      ['initial-stock', users[0].user.id],
    ]);

    const imported = await api(t, auth).post('/product/import', {
      csv: 'nome;preco_venda;estoque\nImportada;5,00;3\n',
      dryRun: false,
    });
    expect(imported.statusCode).toBe(200);
    const logged = rowsOf<{ user_id: number | null }>(
      await t.database.db.execute(sql`
        select m.user_id from stock_movements m join products p on p.id = m.product_id
        where p.client_id = ${client.id} and p.name = 'Importada'`),
    );
    expect(logged).toEqual([{ user_id: users[0].user.id }]);
  });

  it('an entry that changes the cost makes an open product form stale (409); an exit does not', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Fósforo', stock: 10, costPriceCents: 100 });
    await api(t, auth).post('/stock-movement/exit', {
      reason: 'loss',
      items: [{ productId: p.id, quantity: 1 }],
    });
    const form = { name: 'Fósforo', salePriceCents: 1000, costPriceCents: 100 };
    // The form does not send the level unless the user changed it: an exit in between is kept.
    const edited = await api(t, auth).put(`/product/${p.id}`, { ...form, updatedAt: p.updatedAt });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().stock).toBe(9);
    await api(t, auth).post('/stock-movement/entry', {
      items: [{ productId: p.id, quantity: 9, unitCostCents: 200 }],
    });
    const stale = await api(t, auth).put(`/product/${p.id}`, { ...form, updatedAt: edited.json().updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(await stockOf(auth, p.id)).toMatchObject({ stock: 18, costPriceCents: 150 });
  });

  it('keeps the ledger in step when the grid replaces variants that had stock', async () => {
    const { auth, client } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, {
      name: 'Tênis',
      productType: 'variants',
      grid: { colors: [], sizes: ['38', '39'] },
    });
    await api(t, auth).post('/stock-movement/entry', {
      items: p.variants.map((v: { id: number }) => ({
        productId: p.id,
        variantId: v.id,
        quantity: 2,
        unitCostCents: 1,
      })),
    });
    const regrid = await api(t, auth).put(`/product/${p.id}/grid`, { colors: [], sizes: ['39', '40'] });
    expect(regrid.statusCode).toBe(200);
    expect(regrid.json().stock).toBe(2);
    expect(await disagreements(client.id)).toEqual([]);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/product/${p.id}`, headers: auth });
    expect(deleted.statusCode).toBe(200);
  });
});

describe('access', () => {
  it('reading is back-office, moving stock needs WRITE.stock (403), another client is 404', async () => {
    const { auth, client, users } = await createClientWithUsers(t, [1, 3, 5]);
    const seller = bearer(users[1].token);
    const waiter = bearer(users[2].token);
    const p = await makeProduct(t, auth, { stock: 2 });
    expect((await api(t, seller).get(`/stock-movement/client/${client.id}`)).statusCode).toBe(200);
    expect((await api(t, waiter).get(`/stock-movement/client/${client.id}`)).statusCode).toBe(403);
    const entry = { items: [{ productId: p.id, quantity: 1, unitCostCents: 1 }] };
    expect((await api(t, seller).post('/stock-movement/entry', entry)).statusCode).toBe(403);
    const other = await createClientWithUsers(t, [1]);
    expect((await api(t, other.auth).get(`/stock-movement/client/${client.id}`)).statusCode).toBe(404);
    expect((await api(t, other.auth).get(`/stock-movement/product/${p.id}`)).statusCode).toBe(404);
    const theirs = await api(t, other.auth).post('/stock-movement/entry', entry);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe('Produto não encontrado');
    expect((await stockOf(auth, p.id)).stock).toBe(2);
  });

  it('answers 422 "O controle de estoque está desativado" to writes when stockManagement is off', async () => {
    const { auth, client } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { stock: 2 });
    await t.database.db.update(clients).set({ stockManagement: false }).where(eq(clients.id, client.id));
    const writes = await Promise.all([
      api(t, auth).post('/stock-movement/entry', {
        items: [{ productId: p.id, quantity: 1, unitCostCents: 1 }],
      }),
      api(t, auth).post('/stock-movement/exit', {
        reason: 'loss',
        items: [{ productId: p.id, quantity: 1 }],
      }),
      fractionate(auth, [p.id, 1], [(await makeProduct(t, auth)).id, 2]),
      api(t, auth).put(`/stock-setting/client/${client.id}`, { allowNegativeStock: true }),
    ]);
    for (const res of writes) {
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('O controle de estoque está desativado');
    }
    expect((await api(t, auth).get(`/stock-movement/client/${client.id}`)).statusCode).toBe(200);
  });

  it('refuses manual movements of a product without stock control (422)', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const service = await makeProduct(t, auth, {
      name: 'Entrega',
      productType: 'service',
      stockControl: false,
    });
    const res = await api(t, auth).post('/stock-movement/entry', {
      items: [{ productId: service.id, quantity: 1, unitCostCents: 1 }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('O produto Entrega não controla estoque');
  });
});
