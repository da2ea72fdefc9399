import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeProduct, newEan13 } from '../../../test/kit.ts';
import { parseCsvMoney, parseCsvNumber } from './csv.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const importCsv = (auth: Record<string, string>, csv: string, options: object = {}, headers: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/product/import',
    headers: { ...auth, ...headers },
    payload: { csv, ...options },
  });

async function count(clientId: number, auth: Record<string, string>, qs = '') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/product/client/${clientId}?${qs}`,
    headers: auth,
  });
  return res.json().total as number;
}

describe('CSV number formats', () => {
  it('reads Brazilian and plain decimals', () => {
    expect(parseCsvMoney('12,50')).toBe(1250);
    expect(parseCsvMoney('R$ 1.234,56')).toBe(123456);
    expect(parseCsvMoney('1234.5')).toBe(123450);
    expect(parseCsvMoney('1.234')).toBe(123400);
    expect(parseCsvMoney('10')).toBe(1000);
    expect(parseCsvMoney('abc')).toBeNaN();
    expect(parseCsvMoney('1,234')).toBeNaN();
    expect(parseCsvNumber('1,250')).toBe(1.25);
    expect(parseCsvNumber('2')).toBe(2);
    expect(parseCsvNumber('-1')).toBeNaN();
  });

  it('refuses dots that do not group thousands (issue 30: "1.2.3,4" was R$ 123,40)', () => {
    expect(parseCsvMoney('1.2.3,4')).toBeNaN();
    expect(parseCsvMoney('12.34,50')).toBeNaN();
    expect(parseCsvMoney('1.234.567,89')).toBe(123456789);
    expect(parseCsvNumber('1.2,5')).toBeNaN();
    expect(parseCsvNumber('1.000,5')).toBe(1000.5);
  });
});

describe('CSV import', () => {
  it('reads a short semicolon file with a final line break and numbers rows as the spreadsheet (issues 30, 31)', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const short = await importCsv(auth, 'nome;preco_venda\r\nPastel;8,00\r\nCoxinha;6,50\r\nEsfiha;5,00\r\n');
    expect(short.statusCode).toBe(200);
    expect(short.json()).toMatchObject({ totalLines: 3, validLines: 3, invalidLines: 0 });
    const csv = ['nome;preco_venda', 'Pastel;8,00', '', ';', 'Coxinha;1.2.3,4', 'Esfiha;5,00'].join('\n');
    const body = (await importCsv(auth, csv)).json();
    expect(body.errors).toEqual([
      {
        line: 5,
        column: 'preco_venda',
        message: 'Valor inválido "1.2.3,4": use números com vírgula, por exemplo 12,50',
      },
    ]);
    expect(body.preview.map((p: { line: number; name: string }) => [p.line, p.name])).toEqual([
      [2, 'Pastel'],
      [6, 'Esfiha'],
    ]);
  });

  const good = [
    'nome;sku;codigo_barras;preco_venda;preco_custo;categoria;marca;estoque;unidade',
    'X-Burger;LAN-001;;25,90;9,50;Lanches;;;un',
    'Coca-Cola Lata;BEB-001;7894900011517;6,00;3,20;Bebidas;Coca-Cola;48;un',
    'Batata frita;LAN-002;;R$ 1.015,00;;Porções;;;',
  ].join('\n');

  it('previews without writing: per-line actions and a count of valid lines', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const res = await importCsv(auth, good);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      dryRun: true,
      totalLines: 3,
      validLines: 3,
      invalidLines: 0,
      created: 0,
      errors: [],
    });
    expect(body.preview[1]).toEqual({
      line: 3,
      action: 'create',
      name: 'Coca-Cola Lata',
      sku: 'BEB-001',
      barcode: '7894900011517',
      salePriceCents: 600,
      category: 'Bebidas',
      brand: 'Coca-Cola',
    });
    expect(body.preview[2].salePriceCents).toBe(101500);
    expect(await count(client.id, auth)).toBe(0);
  });

  it('writes nothing when any line is invalid, and says which line and why, in Portuguese', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const csv = [
      'nome;sku;codigo_barras;preco_venda',
      'Pastel de carne;PAS-1;;8,00',
      ';PAS-2;;8,00',
      'Pastel de queijo;PAS-3;7894900011518;oito reais',
      'Pastel de palmito;pas-1;;9,00',
    ].join('\r\n');
    const preview = (await importCsv(auth, csv)).json();
    expect(preview).toMatchObject({ totalLines: 4, validLines: 1, invalidLines: 3 });
    expect(preview.errors).toEqual([
      { line: 3, column: 'nome', message: 'O campo é obrigatório' },
      {
        line: 4,
        column: 'preco_venda',
        message: 'Valor inválido "oito reais": use números com vírgula, por exemplo 12,50',
      },
      {
        line: 4,
        column: 'codigo_barras',
        message: 'Código de barras inválido: o dígito verificador não confere',
      },
      { line: 5, column: 'sku', message: 'SKU repetido: já aparece na linha 2' },
    ]);
    const commit = await importCsv(auth, csv, { dryRun: false });
    expect(commit.statusCode).toBe(422);
    expect(commit.json().message).toBe(
      'Nada foi importado: 3 linhas têm erros. Corrija o arquivo ou importe pulando as linhas com erro.',
    );
    expect(await count(client.id, auth)).toBe(0);

    // Skip mode writes the valid lines only.
    const skip = await importCsv(auth, csv, { dryRun: false, skipInvalid: true });
    expect(skip.statusCode).toBe(200);
    expect(skip.json()).toMatchObject({ created: 1, skipped: 3, dryRun: false });
    expect(await count(client.id, auth)).toBe(1);
  });

  it('creates products, categories and brands in one go; a second import by SKU updates them', async () => {
    const { client, auth } = await createClientWithUsers(t, [2]);
    const first = await importCsv(auth, good, { dryRun: false });
    expect(first.json()).toMatchObject({ created: 3, updated: 0 });
    const cats = (
      await t.app.inject({ method: 'GET', url: `/v1/product-category/client/${client.id}`, headers: auth })
    ).json();
    expect(cats.items.map((c: { name: string; productCount: number }) => [c.name, c.productCount])).toEqual([
      ['Bebidas', 1],
      ['Lanches', 1],
      ['Porções', 1],
    ]);
    const coke = (
      await t.app.inject({ method: 'GET', url: '/v1/product/barcode/7894900011517', headers: auth })
    ).json().product;
    expect(coke).toMatchObject({
      salePriceCents: 600,
      costPriceCents: 320,
      stock: 48,
      brand: { name: 'Coca-Cola' },
    });

    // Only the columns in the file change.
    const second = await importCsv(
      auth,
      'sku;nome;preco_venda\nbeb-001;Coca-Cola Lata 350ml;6,50\nNOVO-1;Água;3',
      {
        dryRun: false,
      },
    );
    expect(second.json()).toMatchObject({ created: 1, updated: 1 });
    const after = (
      await t.app.inject({ method: 'GET', url: `/v1/product/${coke.id}`, headers: auth })
    ).json();
    expect(after).toMatchObject({
      name: 'Coca-Cola Lata 350ml',
      salePriceCents: 650,
      costPriceCents: 320,
      stock: 48,
      barcode: '7894900011517',
      category: { name: 'Bebidas' },
    });
    expect(await count(client.id, auth, 'q=350ml')).toBe(1);
  });

  it('refuses a barcode another product owns and a file without the required columns', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const barcode = newEan13();
    await makeProduct(t, auth, { name: 'Dono', barcode });
    const res = await importCsv(auth, `nome;preco_venda;codigo_barras\nIntruso;1,00;${barcode}`);
    expect(res.json().errors).toEqual([
      { line: 2, column: 'codigo_barras', message: 'Este código de barras já está em uso em outro produto' },
    ]);
    const noHeader = await importCsv(auth, 'produto_x;valor\nA;1');
    expect(noHeader.statusCode).toBe(422);
    expect(noHeader.json().message).toBe(
      'Coluna obrigatória ausente no cabeçalho: nome, preco_venda. Use o modelo de planilha.',
    );
  });

  it('streams progress lines and then the result when asked for NDJSON', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const lines = ['nome;sku;preco_venda'];
    for (let i = 0; i < 600; i++) lines.push(`Produto importado ${i};IMP-${i};${i},99`);
    const res = await importCsv(
      auth,
      lines.join('\n'),
      { dryRun: false },
      { accept: 'application/x-ndjson' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const events = res.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === 'progress').map((e) => e.done)).toEqual([0, 250, 500, 600]);
    expect(events.at(-1)).toMatchObject({ type: 'result', result: { created: 600 } });
    expect(await count(client.id, auth)).toBe(600);
  });

  it('only catalog roles import', async () => {
    const { users } = await createClientWithUsers(t, [3]);
    const res = await importCsv({ authorization: `Bearer ${users[0].token}` }, good);
    expect(res.statusCode).toBe(403);
  });
});

describe('CSV export', () => {
  it('exports the filtered list with Brazilian formats and reads back as an import', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const cat = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/product-category',
        headers: auth,
        payload: { name: 'Lanches' },
      })
    ).json();
    await makeProduct(t, auth, {
      name: 'X-Tudo; duplo "especial"',
      sku: 'XT-1',
      salePriceCents: 123456,
      costPriceCents: 50,
      categoryId: cat.id,
      weightKg: 0.35,
      stock: 2.5,
    });
    await makeProduct(t, auth, { name: '=cmd()', sku: 'XT-2' });
    await makeProduct(t, auth, { name: 'Fora do filtro' });
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/product/client/${client.id}/export?q=xt`,
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="produtos-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.body.startsWith('\uFEFFnome;sku;codigo_barras')).toBe(true);
    const rows = Papa.parse<Record<string, string>>(res.body.slice(1), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({
      nome: 'X-Tudo; duplo "especial"',
      preco_venda: '1234,56',
      preco_custo: '0,50',
      categoria: 'Lanches',
      ativo: 'sim',
      estoque: '2,5',
      peso_kg: '0,35',
    });
    // Formula injection is neutralised in the file...
    expect(rows[0].nome).toBe("'=cmd()");
    // ...and the import reads its own export back unchanged.
    const again = await importCsv(auth, res.body);
    expect(again.json()).toMatchObject({ validLines: 2, invalidLines: 0 });
    expect(again.json().preview.map((p: { action: string; name: string }) => [p.action, p.name])).toEqual([
      ['update', '=cmd()'],
      ['update', 'X-Tudo; duplo "especial"'],
    ]);
  });
});
