import { CLIENT_TYPES, type ClientTypeId, USER_TYPES, type UserTypeId } from '@balcao/core/userTypes';
import { eq } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { clients, paymentGateways, users, whatsappInstances } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { createSession } from '../../plugins/auth.ts';
import { findShippingSettings } from '../shipping/service.ts';

async function findUserView(db: Executor, userId: number) {
  const [row] = await db
    .select({ user: users, client: clients })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.clientId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw notFound('Usuário não encontrado');
  const { user, client } = row;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    active: user.active,
    profilePhotoWhatsapp: user.profilePhotoWhatsapp,
    userType: { id: user.userTypeId, name: USER_TYPES[user.userTypeId as UserTypeId] ?? '' },
    client: {
      id: client.id,
      name: client.name,
      clientType: { id: client.clientTypeId, name: CLIENT_TYPES[client.clientTypeId as ClientTypeId] ?? '' },
      timeZone: client.timeZone,
      logoUrl: client.logoKey ? `/v1/settings/logo/${client.logoKey.slice('logo/'.length)}` : null,
    },
  };
}

export async function findSettingsChecklist(db: Executor, clientId: number) {
  const [row] = await db
    .select({
      saleCommand: clients.saleCommand,
      stockManagement: clients.stockManagement,
      checkIsOpen: clients.checkIsOpen,
    })
    .from(clients)
    .where(eq(clients.id, clientId));
  if (!row) throw notFound();
  return row;
}

/** A stored row as answered: its timestamps as ISO text. */
function withIsoDates<T extends { createdAt: Date; updatedAt: Date }>(row: T) {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export async function findWhatsappInstance(db: Executor, clientId: number) {
  // Named columns: the instance key and webhook token hash never leave the API.
  const [row] = await db
    .select({
      id: whatsappInstances.id,
      clientId: whatsappInstances.clientId,
      instanceName: whatsappInstances.instanceName,
      state: whatsappInstances.state,
      phone: whatsappInstances.phone,
      profilePictureUrl: whatsappInstances.profilePictureUrl,
      createdAt: whatsappInstances.createdAt,
      updatedAt: whatsappInstances.updatedAt,
    })
    .from(whatsappInstances)
    .where(eq(whatsappInstances.clientId, clientId));
  return row ? { ...withIsoDates(row), connected: row.state === 'open' } : null;
}

async function findPaymentGateway(db: Executor, clientId: number) {
  const [row] = await db.select().from(paymentGateways).where(eq(paymentGateways.clientId, clientId));
  return row ? withIsoDates(row) : null;
}

/** What login and revalidation return (DESIGN.md), token aside. */
export async function loadSessionPayload(db: Executor, userId: number) {
  const user = await findUserView(db, userId);
  const clientId = user.client.id;
  const [whatsappInstance, shipping, paymentGateway, settingsChecklist] = await Promise.all([
    findWhatsappInstance(db, clientId),
    findShippingSettings(db, clientId),
    findPaymentGateway(db, clientId),
    findSettingsChecklist(db, clientId),
  ]);
  return { user, whatsappInstance, shippingSettings: shipping[0] ?? null, paymentGateway, settingsChecklist };
}

/** Opens a session for the user and answers what a login answers: the session payload and its token. */
export async function logIn(db: Db, userId: number, sessionTtlMs: number) {
  const token = await createSession(db, userId, sessionTtlMs);
  const payload = await loadSessionPayload(db, userId);
  return { ...payload, token };
}
