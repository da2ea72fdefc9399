import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_CEP_NOT_FOUND_AS_STRING,
  type FakeViaCep,
  startFakeViaCep,
} from '../../../test/fakes/viacep.ts';
import { createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { api } from '../../../test/kit.ts';

let t: TestApp;
let fake: FakeViaCep;
let auth: { authorization: string };

beforeAll(async () => {
  fake = await startFakeViaCep();
  t = await createTestApp({ cep: { baseUrl: fake.url, timeoutMs: 2000 } });
  auth = (await createClientWithUsers(t, [4])).auth;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const get = (cep: string, headers = auth) => api(t, headers).get(`/cep/${cep}`);

describe('GET /v1/cep/{cep}', () => {
  it('answers the normalized address of a known CEP, masked or not', async () => {
    const res = await get('01001-000');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      zipCode: '01001000',
      street: 'Praça da Sé',
      complement: 'lado ímpar',
      neighborhood: 'Sé',
      city: 'São Paulo',
      state: 'SP',
      ibge: '3550308',
    });
    expect(fake.requests).toContain('/ws/01001000/json/');
    expect((await get('30130010')).json()).toMatchObject({ city: 'Belo Horizonte', state: 'MG' });
  });

  it('says "CEP não encontrado" (404) for erro: true and erro: "true"', async () => {
    for (const cep of ['12345678', FAKE_CEP_NOT_FOUND_AS_STRING]) {
      const res = await get(cep);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('CEP não encontrado');
    }
  });

  it('says "CEP inválido" (400) for a bad format without calling the service', async () => {
    const before = fake.requests.length;
    for (const cep of ['1234', 'abcdefgh', '00000-000']) {
      const res = await get(cep);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('CEP inválido');
    }
    expect(fake.requests.length).toBe(before);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/cep/01001000' })).statusCode).toBe(401);
  });
});

describe('CEP service down', () => {
  it('answers 503 with a message to type the address (never a 500), but serves CEPs already looked up', async () => {
    const flaky = await startFakeViaCep();
    const app = await createTestApp({ cep: { baseUrl: flaky.url, timeoutMs: 2000 } });
    try {
      const { auth: a } = await createClientWithUsers(app, [1]);
      expect((await app.app.inject({ method: 'GET', url: '/v1/cep/80010010', headers: a })).statusCode).toBe(
        200,
      );
      await flaky.close();
      const again = await app.app.inject({ method: 'GET', url: '/v1/cep/80010010', headers: a });
      expect(again.statusCode).toBe(200);
      expect(again.json().city).toBe('Curitiba');
      expect((await app.app.inject({ method: 'GET', url: '/v1/cep/01001000', headers: a })).statusCode).toBe(
        503,
      );
    } finally {
      await app.close();
    }
  });
});
