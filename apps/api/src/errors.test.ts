import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/helper.ts';
import type { Database } from './db/client.ts';
import { AppError, insufficientStock, registerErrorHandler } from './errors.ts';
import { idParams } from './lib/params.ts';
import { staleEdit } from './lib/version.ts';

let database: Database;
const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
beforeAll(async () => {
  database = await openTestDatabase();
  registerErrorHandler(app);
  app.get('/not-a-number', () => database.db.execute(sql`select ${'abc'}::int as n`));
  app.get('/out-of-range', () => database.db.execute(sql`select ${'99999999999'}::int4 as n`));
  app.get('/bad-date', () => database.db.execute(sql`select ${'2026-02-31'}::date as d`));
  app.get('/duplicate', async () => {
    await database.db.execute(sql`create table if not exists error_test_uq (v int primary key)`);
    await database.db.execute(sql`insert into error_test_uq values (1) on conflict do nothing`);
    return database.db.execute(sql`insert into error_test_uq values (1)`);
  });
  app.get('/sql-error', () => database.db.execute(sql`select * from tabela_que_nao_existe`));
  app.get('/bug', () => {
    throw new Error('segredo interno');
  });
  app.get('/stale', () => {
    throw staleEdit();
  });
  app.get('/no-stock', () => {
    throw insufficientStock('Estoque insuficiente para Coca-Cola (disponível: 2)');
  });
  app.get('/route-params/:id', { schema: { params: idParams } }, (request) => request.params);
  app.get('/domain', () => {
    throw new AppError(422, 'Estoque insuficiente', [{ path: 'quantity', message: 'Máximo 3' }]);
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('error handler', () => {
  it('answers 400 to database data exceptions (bad number, out of range, bad date)', async () => {
    for (const url of ['/not-a-number', '/out-of-range', '/bad-date']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        code: 'validation',
        message: 'Valor inválido em um dos campos',
      });
    }
  });

  it('answers 409 to a unique violation', async () => {
    const res = await get('/duplicate');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'Conflict', code: 'duplicate' });
  });

  it('answers 500 with a generic Portuguese message, never SQL text or the error message', async () => {
    for (const url of ['/sql-error', '/bug']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(500);
      expect(res.json()).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        code: 'internal',
        message: 'Ocorreu um erro inesperado. Tente novamente.',
      });
      expect(res.body).not.toMatch(/tabela_que_nao_existe|segredo|select/i);
    }
  });

  it('answers a domain error with its status, message and issues', async () => {
    const res = await get('/domain');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      code: 'rule',
      message: 'Estoque insuficiente',
      issues: [{ path: 'quantity', message: 'Máximo 3' }],
    });
  });

  it('gives every error a machine code beside the status and the Portuguese message', async () => {
    expect((await get('/stale')).json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      code: 'stale',
      message: 'Este registro foi alterado por outra pessoa. Recarregue a página e tente novamente.',
    });
    expect((await get('/no-stock')).json()).toMatchObject({ statusCode: 409, code: 'insufficient_stock' });
  });

  it('takes an id path parameter only as a plain positive decimal integer', async () => {
    expect((await get('/route-params/1')).json()).toEqual({ id: 1 });
    expect((await get('/route-params/2147483647')).json()).toEqual({ id: 2147483647 });
    for (const bad of [
      '0x10',
      '1e2',
      '-1',
      '01',
      '0',
      '1.5',
      '+1',
      '%201',
      'abc',
      '2147483648',
      '99999999999',
    ]) {
      const res = await get(`/route-params/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json(), bad).toMatchObject({ code: 'validation', message: 'Identificador inválido' });
    }
  });
});
