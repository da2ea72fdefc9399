import {
  isOptOutReply,
  WHATSAPP_MESSAGES,
  type WhatsappConnect,
  type WhatsappInstanceView,
  type WhatsappQr,
  type WhatsappTestInput,
  whatsappDigits,
} from '@balcao/core/whatsapp';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { whatsappInstances } from '../../db/schema.ts';
import { AppError, conflict, notFound, unauthorized, unavailable, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { newToken, secretBox, tokenMatches } from '../../lib/secrets.ts';
import {
  EvolutionError,
  type EvolutionQr,
  evolutionApi,
  type OutgoingMessage,
  type StoredMessage,
  WhatsAppUnavailableError,
} from './adapter.ts';
import { whatsappOptOuts } from './schema.ts';

/** The header Evolution sends back with every webhook (set with the instance, checked on arrival). */
export const WEBHOOK_TOKEN_HEADER = 'x-balcao-webhook-token';
const WEBHOOK_EVENTS = ['CONNECTION_UPDATE', 'QRCODE_UPDATED', 'MESSAGES_UPSERT', 'STATUS_INSTANCE'];

type InstanceRow = typeof whatsappInstances.$inferSelect;

const view = (row: InstanceRow): WhatsappInstanceView => ({
  instanceName: row.instanceName,
  created: row.instanceKey !== null,
  state: row.state,
  phone: row.phone,
  profileName: row.profileName,
  profilePictureUrl: row.profilePictureUrl,
  updatedAt: row.updatedAt.toISOString(),
});

const qrView = (qr: EvolutionQr | null): WhatsappQr | null =>
  qr ? { base64: qr.base64, code: qr.code, pairingCode: qr.pairingCode, count: qr.count } : null;

async function rowOf(db: Executor, clientId: number): Promise<InstanceRow> {
  const [row] = await db.select().from(whatsappInstances).where(eq(whatsappInstances.clientId, clientId));
  if (!row) throw notFound(WHATSAPP_MESSAGES.notCreated);
  return row;
}

function gatewayOf(ctx: AppContext) {
  const gateway = evolutionApi(ctx.config.whatsapp);
  if (!gateway || !ctx.config.secretsKey) throw unprocessable(WHATSAPP_MESSAGES.notConfigured);
  return { gateway, secret: ctx.config.secretsKey };
}

/** Evolution's failures as the API's errors: never a 500 for a service that did not answer. */
async function evolution<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WhatsAppUnavailableError) throw unavailable(WHATSAPP_MESSAGES.unavailable);
    if (error instanceof EvolutionError) {
      if (error.notOnWhatsapp) throw unprocessable(WHATSAPP_MESSAGES.notOnWhatsapp);
      if (error.status === 403) throw conflict(WHATSAPP_MESSAGES.alreadyCreated);
      if (error.status === 404) throw conflict(WHATSAPP_MESSAGES.notCreated);
      throw new AppError(503, WHATSAPP_MESSAGES.unavailable);
    }
    throw error;
  }
}

async function setInstance(ctx: AppContext, clientId: number, values: Partial<InstanceRow>) {
  const [row] = await ctx.db
    .update(whatsappInstances)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(whatsappInstances.clientId, clientId))
    .returning();
  // The session carries whatsappInstance: the change signal makes every open tab refetch it.
  ctx.changed(clientId, 'whatsapp', row?.id);
  return row;
}

export async function findInstance(db: Executor, actor: Actor): Promise<WhatsappInstanceView> {
  return view(await rowOf(db, actor.clientId));
}

function keyOf(row: InstanceRow, secret: string): string {
  if (!row.instanceKey) throw conflict(WHATSAPP_MESSAGES.notCreated);
  return secretBox(secret).open<string>(row.instanceKey) ?? '';
}

/** Creates the shop's instance in Evolution with its webhook; the answer carries the first QR code. */
export async function createInstance(ctx: AppContext, actor: Actor): Promise<WhatsappConnect> {
  const { gateway, secret } = gatewayOf(ctx);
  const row = await rowOf(ctx.db, actor.clientId);
  if (row.instanceKey) throw conflict(WHATSAPP_MESSAGES.alreadyCreated);
  const webhook = newToken();
  const created = await evolution(() =>
    gateway.createInstance(row.instanceName, {
      url: `${ctx.config.publicUrl}/v1/whatsapp/webhook/${encodeURIComponent(row.instanceName)}`,
      headers: { [WEBHOOK_TOKEN_HEADER]: webhook.token },
      events: WEBHOOK_EVENTS,
    }),
  );
  const updated = await setInstance(ctx, actor.clientId, {
    instanceKey: secretBox(secret).seal(created.key),
    webhookTokenHash: webhook.hash,
    state: created.qr ? 'connecting' : 'close',
    phone: '',
    profileName: null,
    profilePictureUrl: null,
  });
  return { instance: view(updated), qr: qrView(created.qr) };
}

/** A fresh QR code (or a pairing code for `number`); open once Evolution says it is connected. */
export async function connectInstance(
  ctx: AppContext,
  actor: Actor,
  number?: string,
): Promise<WhatsappConnect> {
  const { gateway, secret } = gatewayOf(ctx);
  const row = await rowOf(ctx.db, actor.clientId);
  const key = keyOf(row, secret);
  let qr: EvolutionQr | null;
  try {
    qr = await evolution(() => gateway.connect(row.instanceName, key, number));
  } catch (error) {
    // Past Evolution's QR limit the webhook says `refused`: the page offers a new start.
    const [now] = await ctx.db
      .select({ state: whatsappInstances.state })
      .from(whatsappInstances)
      .where(eq(whatsappInstances.clientId, actor.clientId));
    if (now?.state === 'refused') throw unprocessable(WHATSAPP_MESSAGES.refused);
    throw error;
  }
  if (!qr) {
    const state = await evolution(() => gateway.connectionState(row.instanceName, key));
    const updated = state === row.state ? row : await setInstance(ctx, actor.clientId, { state });
    return { instance: view(updated), qr: null };
  }
  const updated =
    row.state === 'connecting' ? row : await setInstance(ctx, actor.clientId, { state: 'connecting' });
  return { instance: view(updated), qr: qrView(qr) };
}

export async function logoutInstance(ctx: AppContext, actor: Actor): Promise<WhatsappInstanceView> {
  const { gateway, secret } = gatewayOf(ctx);
  const row = await rowOf(ctx.db, actor.clientId);
  const key = keyOf(row, secret);
  await evolution(() => gateway.logout(row.instanceName, key));
  return view(
    await setInstance(ctx, actor.clientId, {
      state: 'close',
      phone: '',
      profileName: null,
      profilePictureUrl: null,
    }),
  );
}

/** Deletes the instance in Evolution and forgets its key (a 404 there means it is already gone). */
export async function deleteInstance(ctx: AppContext, actor: Actor): Promise<WhatsappInstanceView> {
  const { gateway, secret } = gatewayOf(ctx);
  const row = await rowOf(ctx.db, actor.clientId);
  const key = keyOf(row, secret);
  try {
    await gateway.deleteInstance(row.instanceName, key);
  } catch (error) {
    if (!(error instanceof EvolutionError && error.status === 404))
      await evolution(() => Promise.reject(error));
  }
  return view(
    await setInstance(ctx, actor.clientId, {
      instanceKey: null,
      webhookTokenHash: null,
      state: 'close',
      phone: '',
      profileName: null,
      profilePictureUrl: null,
    }),
  );
}

export async function sendTestMessage(
  ctx: AppContext,
  actor: Actor,
  input: { number: string; text: WhatsappTestInput['text'] },
): Promise<{ id: string }> {
  const { gateway, secret } = gatewayOf(ctx);
  const row = await rowOf(ctx.db, actor.clientId);
  const key = keyOf(row, secret);
  if (row.state !== 'open') throw unprocessable(WHATSAPP_MESSAGES.notConnected);
  const id = await evolution(() =>
    gateway.send(row.instanceName, key, { number: input.number, text: input.text }),
  );
  return { id };
}

// ------------------------------------------------------------------ what campaigns use

/**
 * A send's outcome. `unknown`: the request failed on the way (timeout, connection cut), so Evolution
 * may or may not have accepted it; the campaign worker reconciles such a send later (`findSent`).
 */
export type SendResult =
  | { ok: true; id: string }
  | { ok: false; reason: string; kind: 'not_on_whatsapp' | 'disconnected' | 'error' | 'unknown' };

/** The shop's sender for a campaign worker: null when the instance is not created or not open. */
export async function campaignSender(ctx: AppContext, clientId: number) {
  const gateway = evolutionApi(ctx.config.whatsapp);
  const [row] = await ctx.db.select().from(whatsappInstances).where(eq(whatsappInstances.clientId, clientId));
  if (!gateway || !ctx.config.secretsKey || !row?.instanceKey)
    return {
      state: 'close' as const,
      send: null,
      findSent: null,
      warmupStartedAt: row?.warmupStartedAt ?? null,
    };
  const key = secretBox(ctx.config.secretsKey).open<string>(row.instanceKey) ?? '';
  return {
    state: row.state,
    shop: row.instanceName,
    /** When the connected number started its warm-up (null: never connected). */
    warmupStartedAt: row.warmupStartedAt,
    async send(message: OutgoingMessage): Promise<SendResult> {
      try {
        return { ok: true, id: await gateway.send(row.instanceName, key, message) };
      } catch (error) {
        if (error instanceof EvolutionError && error.notOnWhatsapp)
          return { ok: false, kind: 'not_on_whatsapp', reason: 'Número sem WhatsApp' };
        if (error instanceof WhatsAppUnavailableError)
          return {
            ok: false,
            kind: 'unknown',
            reason: `Sem resposta do WhatsApp: ${error.message.slice(0, 120)}`,
          };
        const text =
          error instanceof EvolutionError ? JSON.stringify(error.messages) : (error as Error).message;
        if (/connection closed|not connected|463/i.test(text)) {
          await setInstance(ctx, clientId, { state: 'close' });
          return { ok: false, kind: 'disconnected', reason: 'WhatsApp desconectado' };
        }
        return { ok: false, kind: 'error', reason: `Falha no envio: ${text.slice(0, 160)}` };
      }
    },
    /**
     * Whether Evolution holds a message we sent to `number` with exactly `text` between the two
     * instants: its id, null when there is none, 'unknown' when Evolution could not answer.
     */
    async findSent(
      number: string,
      text: string,
      from: Date,
      to: Date,
    ): Promise<StoredMessage | null | 'unknown'> {
      try {
        const messages = await gateway.findMessages(row.instanceName, key, { number, from, to });
        return messages.find((m) => m.fromMe && m.text.trim() === text.trim()) ?? null;
      } catch (error) {
        if (error instanceof WhatsAppUnavailableError || error instanceof EvolutionError) return 'unknown';
        throw error;
      }
    },
  };
}

/** When the shop's number started its warm-up (its first connection), null when never connected. */
export async function numberWarmupStart(db: Executor, clientId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: whatsappInstances.warmupStartedAt })
    .from(whatsappInstances)
    .where(eq(whatsappInstances.clientId, clientId));
  return row?.at ?? null;
}

/** True (as SQL) when the phone column's number opted out of the client's messages. */
export function optedOutSql(clientId: number, phone: ReturnType<typeof sql>) {
  // The stored number as whatsappDigits writes it: digits, with 55 before a bare DDD + number.
  const digits = sql`regexp_replace(${phone}, '[^0-9]', '', 'g')`;
  const normalized = sql`(case when length(${digits}) in (10, 11) then '55' || ${digits} else ${digits} end)`;
  return sql<boolean>`exists (select 1 from whatsapp_opt_outs o where o.client_id = ${clientId} and o.phone = ${normalized})`;
}

export async function isOptedOut(db: Executor, clientId: number, phone: string): Promise<boolean> {
  const [row] = await db
    .select({ id: whatsappOptOuts.id })
    .from(whatsappOptOuts)
    .where(and(eq(whatsappOptOuts.clientId, clientId), eq(whatsappOptOuts.phone, phone)));
  return row !== undefined;
}

/** Staff marks (or unmarks) a number as not to be messaged. */
export async function setOptOut(
  ctx: AppContext,
  actor: Actor,
  number: string,
  optedOut: boolean,
): Promise<{ number: string; optedOut: boolean }> {
  if (optedOut)
    await ctx.db
      .insert(whatsappOptOuts)
      .values({ clientId: actor.clientId, phone: number, source: 'staff' })
      .onConflictDoNothing();
  else
    await ctx.db
      .delete(whatsappOptOuts)
      .where(and(eq(whatsappOptOuts.clientId, actor.clientId), eq(whatsappOptOuts.phone, number)));
  ctx.changed(actor.clientId, 'campaign');
  return { number, optedOut };
}

// ------------------------------------------------------------------ the webhook

type WebhookBody = { event?: unknown; instance?: unknown; data?: Record<string, unknown> };

const eventName = (event: unknown) =>
  String(event ?? '')
    .toLowerCase()
    .replaceAll('_', '.');

/**
 * Evolution's webhook for an instance: the token header must match the one set at creation (401
 * otherwise, which Evolution does not retry). Connection changes update the state, number and
 * picture; a "SAIR"/"PARAR" reply adds the number to the opt-outs. Idempotent: a retried event
 * writes the same thing again.
 */
export async function handleWebhook(
  ctx: AppContext,
  instanceName: string,
  token: string | undefined,
  body: WebhookBody,
): Promise<{ ok: boolean }> {
  const [row] = await ctx.db
    .select()
    .from(whatsappInstances)
    .where(eq(whatsappInstances.instanceName, instanceName));
  if (!row || !tokenMatches(token, row.webhookTokenHash)) throw unauthorized('Token do webhook inválido');
  const data = body.data ?? {};
  const event = eventName(body.event);
  if (event === 'connection.update') {
    const state = String(data.state ?? '');
    if (state === 'open') {
      const phone = String(data.wuid ?? '')
        .split('@')[0]
        .replace(/\D/g, '');
      const updated = await setInstance(ctx, row.clientId, {
        state: 'open',
        phone,
        profileName: typeof data.profileName === 'string' ? data.profileName : row.profileName,
        // A number seen for the first time starts its warm-up; reconnecting the same one does not.
        ...(phone && phone !== row.warmupPhone ? { warmupPhone: phone, warmupStartedAt: new Date() } : {}),
      });
      void fetchPicture(ctx, updated ?? row, phone);
    } else if (state === 'connecting' || state === 'close' || state === 'refused') {
      await setInstance(
        ctx,
        row.clientId,
        state === 'connecting' || state === 'refused' ? { state } : { state, phone: '' },
      );
    }
  } else if (event === 'status.instance') {
    if (String(data.status ?? '') === 'closed') await setInstance(ctx, row.clientId, { state: 'close' });
  } else if (event === 'qrcode.updated') {
    ctx.changed(row.clientId, 'whatsapp', row.id);
  } else if (event === 'messages.upsert') {
    const key = (data.key ?? {}) as { fromMe?: unknown; remoteJid?: unknown };
    const message = (data.message ?? {}) as {
      conversation?: unknown;
      extendedTextMessage?: { text?: unknown };
    };
    const text = String(message.conversation ?? message.extendedTextMessage?.text ?? '');
    const phone = whatsappDigits(String(key.remoteJid ?? '').split('@')[0]);
    if (key.fromMe !== true && phone && isOptOutReply(text)) {
      await ctx.db
        .insert(whatsappOptOuts)
        .values({ clientId: row.clientId, phone, source: 'reply' })
        .onConflictDoNothing();
      ctx.changed(row.clientId, 'campaign');
    }
  }
  return { ok: true };
}

/** The connected number's profile picture, after the webhook was answered (Evolution waits 30 s at most). */
async function fetchPicture(ctx: AppContext, row: InstanceRow, phone: string) {
  try {
    const gateway = evolutionApi(ctx.config.whatsapp);
    if (!gateway || !ctx.config.secretsKey || !row.instanceKey || !phone) return;
    const url = await gateway.profilePicture(
      row.instanceName,
      secretBox(ctx.config.secretsKey).open<string>(row.instanceKey) ?? '',
      phone,
    );
    await setInstance(ctx, row.clientId, { profilePictureUrl: url });
  } catch {
    // The picture is decoration: the state is already stored.
  }
}
