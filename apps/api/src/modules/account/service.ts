import type { accountCompanySchema, accountOwnerSchema } from '@balcao/core/auth';
import { type ClientTypeId, defaultChecklist, UserType } from '@balcao/core/userTypes';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { clients, paymentGateways, users, whatsappInstances } from '../../db/schema.ts';
import { duplicate } from '../../errors.ts';
import { hashPassword } from '../auth/password.ts';
import { createDefaultRuleSet } from '../shipping/service.ts';

type Company = z.output<typeof accountCompanySchema>;
type Owner = z.output<typeof accountOwnerSchema>;

export const DOCUMENT_TAKEN = 'Já existe uma conta com este CPF/CNPJ';
export const EMAIL_TAKEN = 'Este email já está em uso';

async function isEmailTaken(db: Executor, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return Boolean(row);
}

/** Creates a client with its settings rows (segment's default flags). */
export async function insertClient(tx: Executor, company: Company) {
  const [taken] = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.document, company.document));
  if (taken) throw duplicate(DOCUMENT_TAKEN);
  const flags = defaultChecklist(company.clientTypeId as ClientTypeId);
  const [client] = await tx
    .insert(clients)
    .values({ ...company, ...flags })
    .returning();
  await tx.insert(whatsappInstances).values({ clientId: client.id, instanceName: `balcao-${client.id}` });
  await tx.insert(paymentGateways).values({ clientId: client.id, merchantName: company.name.slice(0, 25) });
  await createDefaultRuleSet(tx, client.id);
  return client;
}

/** Create account: the client, its Administrador, in one transaction. */
export async function createAccount(db: Db, company: Company, owner: Owner) {
  const passwordHash = await hashPassword(owner.password);
  return db.transaction(async (tx) => {
    const client = await insertClient(tx, company);
    if (await isEmailTaken(tx, owner.email)) throw duplicate(EMAIL_TAKEN);
    const [user] = await tx
      .insert(users)
      .values({
        clientId: client.id,
        name: owner.name,
        email: owner.email,
        passwordHash,
        userTypeId: UserType.ADMIN,
      })
      .returning({ id: users.id });
    return { clientId: client.id, userId: user.id };
  });
}
