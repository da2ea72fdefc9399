import { cpSync, rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { inject } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { type Config, testConfig } from '../src/config.ts';
import { type Database, fromPglite, fromPostgres } from '../src/db/client.ts';
import { users } from '../src/db/schema.ts';
import { insertClient } from '../src/modules/account/service.ts';
import { hashPassword } from '../src/modules/auth/password.ts';
import { databaseUrlFor } from './pgUrl.ts';

const isObjectInUse = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.code === '55006' || e.cause?.code === '55006';
};

/**
 * The pool's connections close asynchronously after pool.end(): wait for them instead of killing
 * them (WITH (FORCE) would make their clients emit errors after the test file ended).
 */
async function dropDatabase(admin: Database, name: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.db.execute(sql.raw(`DROP DATABASE IF EXISTS ${name}`));
      return;
    } catch (error) {
      if (!isObjectInUse(error)) throw error;
      if (attempt >= 50) {
        await admin.db.execute(sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
        return;
      }
      await new Promise((done) => setTimeout(done, 100));
    }
  }
}

/** CREATE DATABASE ... TEMPLATE fails (55006, object in use) while another copy of it runs: retry. */
async function createDatabaseFromTemplate(admin: Database, name: string, template: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.db.execute(sql.raw(`CREATE DATABASE ${name} TEMPLATE ${template}`));
      return;
    } catch (error) {
      if (!isObjectInUse(error) || attempt >= 20) throw error;
      await new Promise((done) => setTimeout(done, 100 * attempt));
    }
  }
}

/** A fresh database for one test file: a copy of the migrated PGlite template, or a new database on PostgreSQL from its template. */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `balcao_t_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = fromPostgres(url, 1);
    try {
      await createDatabaseFromTemplate(admin, name, inject('pgTemplate'));
    } finally {
      await admin.close();
    }
    const database = fromPostgres(databaseUrlFor(url, name));
    const close = database.close;
    return {
      ...database,
      close: async () => {
        await close();
        const cleanup = fromPostgres(url, 1);
        try {
          await dropDatabase(cleanup, name);
        } finally {
          await cleanup.close();
        }
      },
    };
  }
  // PGlite: a copy of the migrated template's files, beside it (globalSetup removes the folder).
  const template = inject('pgliteTemplate');
  const copy = `${template}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  cpSync(template, copy, { recursive: true });
  const database = fromPglite(await PGlite.create(copy, { extensions: { pg_trgm } }));
  return {
    ...database,
    close: async () => {
      await database.close();
      rmSync(copy, { recursive: true, force: true });
    },
  };
}

export type TestApp = { app: App; database: Database; close: () => Promise<void> };

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const app = await buildApp({
    db: database.db,
    config: testConfig({ databaseUrl, ...overrides }),
    checkResponses: true,
    // On PostgreSQL the sockets go through the adapter several instances use (plugins/socket.ts).
    clusterUrl: database.url,
  });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

let seq = 0;
const uniq = () => `${process.pid}${Date.now() % 1_000_000}${++seq}`;

/** A valid CNPJ built from any 12 digits. */
export function makeCnpj(base12: string): string {
  const digits = base12.padStart(12, '0').slice(-12);
  const calc = (s: string, weights: number[]) => {
    const sum = weights.reduce((acc, w, i) => acc + Number(s[i]) * w, 0);
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = calc(digits, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = calc(digits + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${digits}${d1}${d2}`;
}

export const TEST_PASSWORD = 'senha-de-teste';
let passwordHash: Promise<string> | undefined;

/** Factory: a client with one user per given type; returns their tokens after logging in. */
export async function createClientWithUsers(
  t: TestApp,
  userTypeIds: number[] = [1],
  overrides: { clientTypeId?: number; active?: boolean } = {},
) {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const hash = await passwordHash;
  const client = await insertClient(t.database.db, {
    name: `Loja ${uniq()}`,
    document: makeCnpj(uniq()),
    clientTypeId: overrides.clientTypeId ?? 1,
    phone: '5511987654321',
  });
  const created = [];
  for (const userTypeId of userTypeIds) {
    const email = `u${uniq()}@teste.com.br`;
    const [user] = await t.database.db
      .insert(users)
      .values({ clientId: client.id, name: `Usuário ${userTypeId}`, email, passwordHash: hash, userTypeId })
      .returning();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { email, password: TEST_PASSWORD },
    });
    if (res.statusCode !== 200) throw new Error(`login failed in factory: ${res.body}`);
    created.push({ user, email, token: res.json().token as string });
  }
  return {
    client,
    users: created,
    token: created[0].token,
    auth: { authorization: `Bearer ${created[0].token}` },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
