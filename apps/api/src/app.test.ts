import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createClientWithUsers, createTestApp, type TestApp } from '../test/helper.ts';
import type { RegisteredRoute } from './app.ts';
import { NOT_READY, NOT_READY_DRAINING, NOT_READY_MIGRATIONS } from './modules/health/routes.ts';
import { createSession } from './plugins/auth.ts';

const OPS_TOKEN = 'token-do-operador';
const ops = { authorization: `Bearer ${OPS_TOKEN}` };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ opsToken: OPS_TOKEN });
});
afterAll(() => t.close());

const ERROR_SHAPE = {
  statusCode: expect.any(Number),
  error: expect.any(String),
  message: expect.any(String),
};

describe('health and docs', () => {
  it('GET /v1/health answers only ok without a session; the operator token adds the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    const wrong = await t.app.inject({ method: 'GET', url: '/v1/health', headers: bearer('outro-token') });
    expect(wrong.json()).toEqual({ status: 'ok' });
    const operator = await t.app.inject({ method: 'GET', url: '/v1/health', headers: ops });
    expect(operator.json()).toEqual({
      status: 'ok',
      database: 'pglite' === t.database.kind ? 'pglite' : 'postgres',
    });
  });

  it('GET /v1/ready answers ready with every migration applied, 503 while draining or behind', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/ready' });
    expect(res.statusCode).toBe(200);
    // Anonymous: ready or not, nothing about the database (issue 31 item 4).
    expect(res.json()).toEqual({ status: 'ready' });
    const operator = await t.app.inject({ method: 'GET', url: '/v1/ready', headers: ops });
    expect(operator.json()).toMatchObject({ status: 'ready', migrations: expect.any(Number) });
    expect(operator.json().migrations).toBeGreaterThan(18);
    expect(operator.json().database).toBe('pglite' === t.database.kind ? 'pglite' : 'postgres');

    t.app.ctx.lifecycle.draining = true;
    const draining = await t.app.inject({ method: 'GET', url: '/v1/ready' });
    const drainingOps = await t.app.inject({ method: 'GET', url: '/v1/ready', headers: ops });
    t.app.ctx.lifecycle.draining = false;
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toMatchObject({ code: 'unavailable', message: NOT_READY });
    expect(drainingOps.statusCode).toBe(503);
    expect(drainingOps.json()).toMatchObject({ code: 'unavailable', message: NOT_READY_DRAINING });

    // A database whose last migration is missing (an instance of a newer release started first).
    const [last] = (
      (await t.database.db.execute(
        sql`select id, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
      )) as unknown as { rows: { id: number; created_at: string }[] }
    ).rows;
    await t.database.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last.id}`);
    try {
      const behind = await t.app.inject({ method: 'GET', url: '/v1/ready' });
      expect(behind.statusCode).toBe(503);
      expect(behind.json().message).toBe(NOT_READY);
      const behindOps = await t.app.inject({ method: 'GET', url: '/v1/ready', headers: ops });
      expect(behindOps.json().message).toBe(NOT_READY_MIGRATIONS);
    } finally {
      await t.database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last.id}, 'restored', ${last.created_at})`,
      );
    }
  });

  it('GET /v1/docs/json is an OpenAPI document with the routes and bearer security', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Balcão API');
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/login', '/v1/user/me', '/v1/system-client', '/v1/health']),
    );
    // The request body schema comes from the zod schema.
    const login = doc.paths['/v1/login'].post;
    const schema = login.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['email', 'password']));
    const param = doc.paths['/v1/whatsapp-instance/client/{clientId}'].get.parameters[0];
    expect(param).toMatchObject({ name: 'clientId', in: 'path', required: true });
  });

  it('GET /v1/docs serves the documentation page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/docs' });
    expect(res.statusCode).toBeLessThan(400);
    const page =
      res.statusCode >= 300 ? await t.app.inject({ method: 'GET', url: res.headers.location! }) : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it('answers 404 in the error shape to an unknown /v1 route, with or without a session', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    for (const headers of [{}, auth]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/nao-existe', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        code: 'not_found',
        message: 'Rota não encontrada',
      });
    }
    const wrongMethod = await t.app.inject({ method: 'DELETE', url: '/v1/login' });
    expect(wrongMethod.statusCode).toBe(404);
  });
});

describe('bad input never gives a 500', () => {
  it('answers 400 to a malformed JSON body', async () => {
    for (const url of ['/v1/login', '/v1/system-client']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"email": "a@b.c", ',
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ ...ERROR_SHAPE, statusCode: 400 });
      expect(res.body).not.toMatch(/SyntaxError|at .*\.js/);
    }
  });

  it('answers 415 to a body in a content type the API does not read, 400 to plain text', async () => {
    for (const contentType of [
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/login',
        headers: { 'content-type': contentType },
        payload: 'email=a@b.c&password=x',
      });
      expect(res.statusCode, contentType).toBe(415);
      expect(res.json()).toEqual({
        statusCode: 415,
        error: 'Unsupported Media Type',
        code: 'unsupported_media_type',
        message: 'Tipo de conteúdo não suportado',
      });
    }
    // Fastify reads text/plain as a string: the schema refuses it.
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a@b.c&password=x',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ ...ERROR_SHAPE, statusCode: 400 });
  });

  it('answers 400 to JSON of the wrong shape', async () => {
    for (const payload of ['null', '[]', '"texto"', '42', '{"email": 1, "password": {}}', '{}']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toMatchObject(ERROR_SHAPE);
    }
    const empty = await t.app.inject({
      method: 'POST',
      url: '/v1/system-client',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(400);
  });

  it('answers 400 to a malformed URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/shipping-settings/client/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
  });

  it('answers below 500 on every registered route to junk input of every kind', async () => {
    const { users } = await createClientWithUsers(t, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const userOfType = new Map(users.map((u) => [u.user.userTypeId, u.user.id]));
    // A fresh session per request: a route like logout must not end the others' session.
    const tokenFor = (route: RegisteredRoute) => {
      const types = Array.isArray(route.access) ? route.access : [1];
      const type = types.includes(1) ? 1 : types[0];
      return createSession(t.database.db, userOfType.get(type)!, 60_000);
    };
    const junk: { label: string; headers?: Record<string, string>; payload?: string; param?: string }[] = [
      { label: 'malformed JSON', headers: { 'content-type': 'application/json' }, payload: '{"a": ' },
      { label: 'text body', headers: { 'content-type': 'text/plain' }, payload: 'olá' },
      { label: 'JSON array', headers: { 'content-type': 'application/json' }, payload: '[1, 2]' },
      { label: 'JSON null', headers: { 'content-type': 'application/json' }, payload: 'null' },
      {
        label: 'wrong types',
        headers: { 'content-type': 'application/json' },
        payload: '{"id": "x", "name": 7}',
      },
      { label: 'non-numeric params', param: 'abc' },
      { label: 'huge params', param: '9999999999999999999999' },
      { label: 'negative params', param: '-1' },
    ];
    const routes = t.app.routes.filter(
      (route) => route.url.startsWith('/v1/') && !route.url.startsWith('/v1/docs') && route.method !== 'HEAD',
    );
    const failures: string[] = [];
    for (const route of routes) {
      for (const { label, headers, payload, param } of junk) {
        const hasBody = payload !== undefined && route.method !== 'GET';
        const url = route.url.replace(/:[^/]+/g, param ?? '1').replace(/\*$/, 'x');
        const res = await t.app.inject({
          method: route.method as 'POST',
          url,
          headers: { ...bearer(await tokenFor(route)), ...(hasBody ? headers : {}) },
          ...(hasBody ? { payload } : {}),
        });
        if (res.statusCode >= 500) failures.push(`${route.method} ${url} [${label}] -> ${res.statusCode}`);
        else if (res.statusCode >= 400 && !res.body.includes('"message"')) {
          failures.push(`${route.method} ${url} [${label}] -> ${res.statusCode} without a message`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 360_000);
});
