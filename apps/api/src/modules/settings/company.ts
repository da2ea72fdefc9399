import { randomBytes } from 'node:crypto';
import { maskCep } from '@balcao/core/cep';
import { maskDocument, maskPhone } from '@balcao/core/document';
import {
  COMPANY_MESSAGES,
  type CompanySettings,
  type CompanySettingsData,
  type ReceiptShopSettings,
} from '@balcao/core/settings';
import { and, eq, ne } from 'drizzle-orm';
import sharp from 'sharp';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients, paymentGateways } from '../../db/schema.ts';
import { AppError, duplicate, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Storage } from '../storage/storage.ts';
import { companySettings } from './schema.ts';
import { changedByOf, saveSettingsRow } from './version.ts';

/** Company data (system-client): the clients row, its Pix key (payment_gateways) and company_settings. */

/** The public URL of a stored logo key (`logo/{clientId}/{file}`). */
export function logoUrlOf(logoKey: string | null): string | null {
  if (!logoKey) return null;
  const [, clientId, file] = logoKey.split('/');
  return `/v1/settings/logo/${clientId}/${file}`;
}

async function readCompany(db: Executor, clientId: number) {
  const [row] = await db
    .select({ client: clients, gateway: paymentGateways, company: companySettings })
    .from(clients)
    .leftJoin(paymentGateways, eq(paymentGateways.clientId, clients.id))
    .leftJoin(companySettings, eq(companySettings.clientId, clients.id))
    .where(eq(clients.id, clientId));
  if (!row) throw notFound('Cliente não encontrado');
  return row;
}

export async function findCompanySettings(db: Executor, actor: Actor): Promise<CompanySettings> {
  const { client, gateway, company: c } = await readCompany(db, actor.clientId);
  return {
    name: client.name,
    legalName: c?.legalName ?? null,
    document: client.document,
    stateRegistration: c?.stateRegistration ?? null,
    clientTypeId: client.clientTypeId,
    phone: client.phone,
    whatsapp: c?.whatsapp ?? null,
    email: c?.email ?? null,
    address: {
      zipCode: c?.zipCode ?? null,
      street: c?.street ?? null,
      number: c?.number ?? null,
      complement: c?.complement ?? null,
      neighborhood: c?.neighborhood ?? null,
      city: c?.city ?? null,
      state: c?.state ?? null,
    },
    pixKey: gateway?.pixKey || null,
    pixMerchantName: gateway?.merchantName || null,
    pixMerchantCity: gateway?.merchantCity || null,
    receiptHeader: c?.receiptHeader ?? null,
    receiptFooter: c?.receiptFooter ?? null,
    logoUrl: logoUrlOf(client.logoKey),
    saleCommand: client.saleCommand,
    stockManagement: client.stockManagement,
    checkIsOpen: client.checkIsOpen,
    ...(await changedByOf(db, c ?? undefined)),
  };
}

/**
 * Saves the company page in one transaction: the clients row (name, document, segment, phone, flags),
 * the Pix key and merchant, and the rest. A document another client has is 409. Every logged user of
 * the shop then reloads its session (menus follow the flags, the top bar the name).
 */
export async function saveCompanySettings(
  ctx: AppContext,
  actor: Actor,
  input: CompanySettingsData,
): Promise<CompanySettings> {
  const { clientId } = actor;
  await ctx.db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: clients.id })
      .from(clients)
      .where(and(eq(clients.document, input.document), ne(clients.id, clientId)));
    if (taken) {
      throw duplicate(COMPANY_MESSAGES.documentTaken, [
        { path: 'document', message: COMPANY_MESSAGES.documentTaken },
      ]);
    }
    await saveSettingsRow(tx, companySettings, clientId, actor.userId, input.updatedAt, {
      legalName: input.legalName,
      stateRegistration: input.stateRegistration,
      whatsapp: input.whatsapp,
      email: input.email,
      ...input.address,
      receiptHeader: input.receiptHeader,
      receiptFooter: input.receiptFooter,
    });
    await tx
      .update(clients)
      .set({
        name: input.name,
        document: input.document,
        clientTypeId: input.clientTypeId,
        phone: input.phone,
        saleCommand: input.saleCommand,
        stockManagement: input.stockManagement,
        checkIsOpen: input.checkIsOpen,
        updatedAt: new Date(),
      })
      .where(eq(clients.id, clientId));
    const pix = {
      pixKey: input.pixKey ?? '',
      merchantName: input.pixMerchantName ?? '',
      merchantCity: input.pixMerchantCity ?? '',
      updatedAt: new Date(),
    };
    await tx
      .insert(paymentGateways)
      .values({ clientId, ...pix })
      .onConflictDoUpdate({ target: paymentGateways.clientId, set: pix });
  });
  ctx.changed(clientId, 'settings');
  ctx.changed(clientId, 'session');
  return findCompanySettings(ctx.db, actor);
}

/** Any image in, one PNG out (at most 512 px, transparency kept): the top bar and receipts use it. */
async function toLogoPng(data: Buffer): Promise<Buffer> {
  try {
    return await sharp(data, { limitInputPixels: 40_000_000, failOn: 'error' })
      .rotate()
      .resize({ width: 512, height: 512, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    throw new AppError(422, 'Não foi possível ler a imagem: o arquivo parece corrompido');
  }
}

/** Stores a new logo under a new random name (cached for a year) and removes the old file. */
export async function setLogo(ctx: AppContext, storage: Storage, actor: Actor, data: Buffer) {
  const png = await toLogoPng(data);
  const key = `logo/${actor.clientId}/${randomBytes(16).toString('hex')}.png`;
  await storage.put(key, png);
  const old = await replaceLogoKey(ctx.db, actor.clientId, key);
  if (old) await storage.remove(old);
  ctx.changed(actor.clientId, 'settings');
  ctx.changed(actor.clientId, 'session');
  return findCompanySettings(ctx.db, actor);
}

export async function removeLogo(ctx: AppContext, storage: Storage, actor: Actor) {
  const old = await replaceLogoKey(ctx.db, actor.clientId, null);
  if (old) await storage.remove(old);
  ctx.changed(actor.clientId, 'settings');
  ctx.changed(actor.clientId, 'session');
  return findCompanySettings(ctx.db, actor);
}

/** Swaps the client's logo key under a row lock; answers the previous key. */
async function replaceLogoKey(db: AppContext['db'], clientId: number, key: string | null) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ logoKey: clients.logoKey })
      .from(clients)
      .where(eq(clients.id, clientId))
      .for('update');
    await tx.update(clients).set({ logoKey: key, updatedAt: new Date() }).where(eq(clients.id, clientId));
    return row?.logoKey ?? null;
  });
}

/** What a receipt prints of the shop (any PDV user): name, masked document and phone, address, texts. */
export async function findReceiptShop(db: Executor, actor: Actor): Promise<ReceiptShopSettings> {
  const { client, company: c } = await readCompany(db, actor.clientId);
  const street = [c?.street, c?.number].filter(Boolean).join(', ');
  const place = [c?.neighborhood, [c?.city, c?.state].filter(Boolean).join('/')].filter(Boolean).join(' - ');
  const address = [street, place, c?.zipCode ? `CEP ${maskCep(c.zipCode)}` : ''].filter(Boolean).join(' - ');
  return {
    name: client.name,
    document: maskDocument(client.document),
    phone: maskPhone(client.phone),
    address: address || null,
    logoUrl: logoUrlOf(client.logoKey),
    receiptHeader: c?.receiptHeader ?? null,
    receiptFooter: c?.receiptFooter ?? null,
  };
}
