import { USER_TYPE_IDS, USER_TYPE_SLUGS, USER_TYPES } from '@balcao/core/userTypes';
import { count, eq } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { clients, paymentGateways, users } from './db/schema.ts';
import { insertClient } from './modules/account/service.ts';
import { hashPassword } from './modules/auth/password.ts';
import { seedBilling } from './modules/billing/seed.ts';
import { seedCoupons } from './modules/coupon/seed.ts';
import { seedCustomers } from './modules/customer/seed.ts';
import { seedCatalog } from './modules/product/seed.ts';
import { seedReceivables } from './modules/receivable/seed.ts';
import { seedStock } from './modules/stock/seed.ts';

export const DEMO_PASSWORD = 'demo1234';
const DEMO_DOMAIN = 'demo.com.br';

export const demoLogins = () =>
  USER_TYPE_IDS.map((id) => ({ type: USER_TYPES[id], email: `${USER_TYPE_SLUGS[id]}@${DEMO_DOMAIN}` }));

/** Seed steps of later domains (catalog, customers...) append themselves here. */
type SeedStep = (db: Db, clientId: number) => Promise<void>;
const SEED_STEPS: SeedStep[] = [
  seedBilling,
  seedCoupons,
  seedCustomers,
  seedReceivables,
  seedCatalog,
  seedStock,
];

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(clients);
  return row.n === 0;
}

/** A demo shop ("Loja Demo", a Lanchonete so comandas are on) with one user of each type. */
export async function seedDemo(db: Db): Promise<{ clientId: number }> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const clientId = await db.transaction(async (tx) => {
    const client = await insertClient(tx, {
      name: 'Loja Demo Balcão',
      document: '11222333000181',
      clientTypeId: 7,
      phone: '5511987654321',
    });
    await tx
      .update(paymentGateways)
      .set({ pixKey: 'pix@demo.com.br', merchantName: 'Loja Demo Balcao', merchantCity: 'SAO PAULO' })
      .where(eq(paymentGateways.clientId, client.id));
    await tx.insert(users).values(
      USER_TYPE_IDS.map((id) => ({
        clientId: client.id,
        name: `${USER_TYPES[id]} Demo`,
        email: `${USER_TYPE_SLUGS[id]}@${DEMO_DOMAIN}`,
        passwordHash,
        userTypeId: id,
      })),
    );
    return client.id;
  });
  for (const step of SEED_STEPS) await step(db, clientId);
  return { clientId };
}
