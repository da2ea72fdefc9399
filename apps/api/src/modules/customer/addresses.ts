import { type AddressData, CUSTOMER_NOT_FOUND, ONE_DEFAULT_ADDRESS } from '@balcao/core/customer';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { userAddresses } from './schema.ts';
import { customerExists, findAddresses, touchCustomer } from './service.ts';

/**
 * A customer's addresses one by one (the PDV adds a delivery address without opening the customer
 * form). Every change bumps the customer's version, so a customer form opened before is stale.
 */

type AddressFields = Omit<AddressData, 'id'>;

async function assertCustomer(db: Executor, clientId: number, customerId: number) {
  if (!(await customerExists(db, clientId, customerId))) throw notFound(CUSTOMER_NOT_FOUND);
}

async function ownAddress(db: Executor, clientId: number, addressId: number) {
  const [row] = await db
    .select()
    .from(userAddresses)
    .where(and(eq(userAddresses.clientId, clientId), eq(userAddresses.id, addressId)));
  if (!row) throw notFound('Endereço não encontrado');
  return row;
}

/** A customer's addresses, default first (404 for another client's customer). */
export async function customerAddresses(db: Db, actor: Actor, customerId: number) {
  await assertCustomer(db, actor.clientId, customerId);
  return findAddresses(db, actor, customerId);
}

/** Adds an address (at most 20); the customer's first address is the default. */
export async function addAddress(
  db: Db,
  actor: Actor,
  input: AddressFields & { customerId: number },
): Promise<typeof userAddresses.$inferSelect> {
  const clientId = actor.clientId;
  const { customerId, ...address } = input;
  await assertCustomer(db, clientId, customerId);
  return db.transaction(async (tx) => {
    const existing = await findAddresses(tx, actor, customerId);
    if (existing.length >= 20) throw new AppError(422, 'Cadastre no máximo 20 endereços');
    const isDefault = address.isDefault || existing.length === 0;
    if (isDefault) {
      await tx
        .update(userAddresses)
        .set({ isDefault: false })
        .where(and(eq(userAddresses.clientId, clientId), eq(userAddresses.customerId, customerId)));
    }
    const now = new Date();
    const [row] = await tx
      .insert(userAddresses)
      .values({ ...address, isDefault, clientId, customerId, createdAt: now, updatedAt: now })
      .returning();
    await touchCustomer(tx, clientId, customerId);
    return row;
  });
}

/** Edits an address; the default stays until another one is made the default. */
export async function updateAddress(
  db: Db,
  actor: Actor,
  id: number,
  input: AddressFields,
): Promise<typeof userAddresses.$inferSelect> {
  const clientId = actor.clientId;
  const current = await ownAddress(db, clientId, id);
  if (current.isDefault && !input.isDefault) {
    throw new AppError(422, 'Marque outro endereço como principal antes', [
      { path: 'isDefault', message: ONE_DEFAULT_ADDRESS },
    ]);
  }
  return db.transaction(async (tx) => {
    if (input.isDefault) {
      await tx
        .update(userAddresses)
        .set({ isDefault: false })
        .where(
          and(
            eq(userAddresses.customerId, current.customerId),
            ne(userAddresses.id, current.id),
            eq(userAddresses.clientId, clientId),
          ),
        );
    }
    const [row] = await tx
      .update(userAddresses)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(userAddresses.id, current.id))
      .returning();
    await touchCustomer(tx, clientId, current.customerId);
    return row;
  });
}

/** Deletes an address; when it was the default, the oldest remaining one becomes the default. */
export async function deleteAddress(db: Db, actor: Actor, id: number): Promise<void> {
  const clientId = actor.clientId;
  const current = await ownAddress(db, clientId, id);
  await db.transaction(async (tx) => {
    await tx.delete(userAddresses).where(eq(userAddresses.id, current.id));
    if (current.isDefault) {
      const [next] = await tx
        .select({ id: userAddresses.id })
        .from(userAddresses)
        .where(and(eq(userAddresses.clientId, clientId), eq(userAddresses.customerId, current.customerId)))
        .orderBy(asc(userAddresses.id))
        .limit(1);
      if (next) await tx.update(userAddresses).set({ isDefault: true }).where(eq(userAddresses.id, next.id));
    }
    await touchCustomer(tx, clientId, current.customerId);
  });
}
