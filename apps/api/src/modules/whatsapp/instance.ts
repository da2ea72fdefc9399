import { createHmac } from 'node:crypto';
import {
  canonicalWhatsapp,
  isOptOutReply,
  WHATSAPP_MESSAGES,
  type WhatsappConnect,
  type WhatsappInstanceView,
  type WhatsappQr,
  type WhatsappTestInput,
  whatsappForms,
} from '@balcao/core/whatsapp';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { whatsappInstances } from '../../db/schema.ts';
import { AppError, conflict, notFound, unauthorized, unavailable, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { logRemoteError } from '../../lib/outbound.ts';
import { hashToken, secretBox, tokenMatches } from '../../lib/secrets.ts';
import {
  EvolutionError,
  type EvolutionQr,
  evolutionApi,
  type OutgoingMessage,
  type StoredMessage,
  WhatsAppUnavailableError,
} from './adapter.ts';
import { whatsappOptOuts } from './schema.ts';

/** The checks started by a connection, still running (`settledConnectionChecks` waits for them). */
const connectionChecks = new Set<Promise<void>>();

/** Resolves once every check a connection started has ended (a test's data must not race them). */
export async function settledConnectionChecks(): Promise<void> {
  while (connectionChecks.size > 0) await Promise.all([...connectionChecks]);
}

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

/**
 * Our own tokens for the shop's instance (the instance key we hand Evolution at create, and the
 * webhook's): derived from the server's secret and the row, so a retry after a create that timed out
 * (Evolution answers after at least 5 s, and the instance exists before it answers) presents the same
 * key and recovers the instance instead of meeting 403 "name in use" with no token to delete it.
 */
function instanceTokens(secret: string, row: InstanceRow) {
  const derive = (label: string) =>
    createHmac('sha256', secret).update(`${label}:${row.id}:${row.instanceName}`).digest('base64url');
  return { key: derive('evolution-instance-key'), webhook: derive('evolution-webhook-token') };
}

/** Pairing code polls: Evolution asks WhatsApp for it when the first QR of a connection comes. */
const PAIRING_POLLS = 8;
const PAIRING_POLL_MS = 750;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Creates the shop's instance in Evolution with its webhook; the answer carries the first QR code. */
export async function createInstance(ctx: AppContext, actor: Actor): Promise<WhatsappConnect> {
  const { gateway, secret } = gatewayOf(ctx);
  const row = await rowOf(ctx.db, actor.clientId);
  if (row.instanceKey) throw conflict(WHATSAPP_MESSAGES.alreadyCreated);
  const tokens = instanceTokens(secret, row);
  let created: { key: string; qr: EvolutionQr | null };
  try {
    created = await gateway.createInstance(
      row.instanceName,
      {
        url: `${ctx.config.publicUrl}/v1/whatsapp/webhook/${encodeURIComponent(row.instanceName)}`,
        headers: { [WEBHOOK_TOKEN_HEADER]: tokens.webhook },
        events: WEBHOOK_EVENTS,
      },
      tokens.key,
    );
  } catch (error) {
    // No answer, or "name in use" (a retry of a create that timed out): the instance is ours when
    // it answers to our key; its current QR code goes on.
    const recovered =
      error instanceof WhatsAppUnavailableError || (error instanceof EvolutionError && error.status === 403)
        ? await recoverCreated(gateway, row.instanceName, tokens.key)
        : null;
    if (!recovered) return evolution(() => Promise.reject(error));
    created = recovered;
  }
  const updated = await setInstance(ctx, actor.clientId, {
    instanceKey: secretBox(secret).seal(created.key),
    webhookTokenHash: hashToken(tokens.webhook),
    state: created.qr ? 'connecting' : 'close',
    phone: '',
    profileName: null,
    profilePictureUrl: null,
  });
  return { instance: view(updated), qr: qrView(created.qr) };
}

/** The instance a create left behind, when our key opens it: its key and current QR; null otherwise. */
async function recoverCreated(
  gateway: NonNullable<ReturnType<typeof evolutionApi>>,
  name: string,
  key: string,
): Promise<{ key: string; qr: EvolutionQr | null } | null> {
  try {
    const state = await gateway.connectionState(name, key);
    return { key, qr: state === 'open' ? null : await gateway.connect(name, key) };
  } catch {
    return null;
  }
}

/**
 * A pairing code for `number`, in Evolution's order: it ignores `number` while a QR round is under
 * way (`connecting`, always right after create), so that round is ended first (logout, until the
 * state is `close`); the connect with the number starts a new one, and the code comes with its first
 * QR (asked again until it is there).
 */
async function pairingCode(
  gateway: NonNullable<ReturnType<typeof evolutionApi>>,
  name: string,
  key: string,
  number: string,
): Promise<EvolutionQr | null> {
  let state = await evolution(() => gateway.connectionState(name, key));
  if (state === 'open') return null;
  if (state === 'connecting') {
    await logoutTolerant(gateway, name, key);
    for (let i = 0; i < PAIRING_POLLS && state === 'connecting'; i++) {
      state = await evolution(() => gateway.connectionState(name, key));
      if (state === 'connecting') await sleep(PAIRING_POLL_MS);
    }
  }
  let qr = await evolution(() => gateway.connect(name, key, number));
  for (let i = 0; qr && !qr.pairingCode && i < PAIRING_POLLS; i++) {
    await sleep(PAIRING_POLL_MS);
    qr = await evolution(() => gateway.connect(name, key));
  }
  if (qr && !qr.pairingCode) throw unavailable(WHATSAPP_MESSAGES.pairingNotReady);
  return qr;
}

/** Logout, where "not connected" (400: the state is already `close`) is the goal reached. */
async function logoutTolerant(
  gateway: NonNullable<ReturnType<typeof evolutionApi>>,
  name: string,
  key: string,
): Promise<void> {
  try {
    await gateway.logout(name, key);
  } catch (error) {
    if (error instanceof EvolutionError && error.status === 400) return;
    await evolution(() => Promise.reject(error));
  }
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
    qr = number
      ? await pairingCode(gateway, row.instanceName, key, number)
      : await evolution(() => gateway.connect(row.instanceName, key));
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
    // A pairing code ended the QR round (its close may reach the webhook first): connecting again.
    row.state === 'connecting' && !number
      ? row
      : await setInstance(ctx, actor.clientId, { state: 'connecting' });
  return { instance: view(updated), qr: qrView(qr) };
}

export async function logoutInstance(ctx: AppContext, actor: Actor): Promise<WhatsappInstanceView> {
  const { gateway, secret } = gatewayOf(ctx);
  const row = await rowOf(ctx.db, actor.clientId);
  const key = keyOf(row, secret);
  // A number already disconnected (Evolution: 400 "not connected") ends where a logout would.
  await logoutTolerant(gateway, row.instanceName, key);
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
): Promise<{ id: string; stored: boolean | null }> {
  const { gateway, secret } = gatewayOf(ctx);
  const row = await rowOf(ctx.db, actor.clientId);
  const key = keyOf(row, secret);
  if (row.state !== 'open') throw unprocessable(WHATSAPP_MESSAGES.notConnected);
  const id = await evolution(() =>
    gateway.send(row.instanceName, key, { number: input.number, text: input.text }),
  );
  // The one check the API allows of DATABASE_SAVE_DATA_NEW_MESSAGE: is the message just sent stored?
  const stored = id ? await gateway.hasMessage(row.instanceName, key, id).catch(() => null) : null;
  return { id, stored };
}

// ------------------------------------------------------------------ what campaigns use

/**
 * A send's outcome. `unknown`: the request failed on the way (timeout, connection cut), so Evolution
 * may or may not have accepted it; the campaign worker reconciles such a send later (`findSent`).
 */
export type SendResult =
  | { ok: true; id: string }
  | { ok: false; reason: string; kind: 'not_on_whatsapp' | 'disconnected' | 'error' | 'unknown' };

/** A failed send's reason, in our words (shown on a campaign's recipients and a budget's send). */
export const SEND_REASONS = {
  noAnswer: 'Sem resposta do WhatsApp',
  refused: 'O WhatsApp recusou a mensagem',
} as const;

/** The shop's sender for a campaign worker: null when the instance is not created or not open. */
export async function campaignSender(ctx: AppContext, clientId: number) {
  const gateway = evolutionApi(ctx.config.whatsapp);
  const [row] = await ctx.db.select().from(whatsappInstances).where(eq(whatsappInstances.clientId, clientId));
  if (!gateway || !ctx.config.secretsKey || !row?.instanceKey)
    return {
      state: 'close' as const,
      send: null,
      findSent: null,
      storesMessages: null,
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
        // What Evolution said goes to the log; the reason a user reads is ours (issue 31 item 1).
        if (error instanceof WhatsAppUnavailableError) {
          logRemoteError('evolution', { step: 'send', error: error.message.slice(0, 300) });
          return { ok: false, kind: 'unknown', reason: SEND_REASONS.noAnswer };
        }
        const text =
          error instanceof EvolutionError ? JSON.stringify(error.messages) : (error as Error).message;
        if (/connection closed|not connected|463/i.test(text)) {
          await setInstance(ctx, clientId, { state: 'close' });
          return { ok: false, kind: 'disconnected', reason: 'WhatsApp desconectado' };
        }
        logRemoteError('evolution', {
          step: 'send',
          status: error instanceof EvolutionError ? error.status : undefined,
          error: text.slice(0, 300),
        });
        return { ok: false, kind: 'error', reason: SEND_REASONS.refused };
      }
    },
    /**
     * Whether Evolution holds a message we sent to `number` (under either jid: with or without the
     * ninth digit) with exactly `text` between the two instants: the message, null when there is
     * none, 'unknown' when Evolution could not answer.
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
    /**
     * Whether Evolution stores messages at all (DATABASE_SAVE_DATA_NEW_MESSAGE=true, off when
     * unset): a message known sent (its id) must be found. 'unknown' when it could not answer.
     */
    async storesMessages(knownId: string): Promise<boolean | 'unknown'> {
      try {
        return await gateway.hasMessage(row.instanceName, key, knownId);
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

/**
 * canonicalWhatsapp (core) as SQL: digits, 55 before a bare DDD + number, and the ninth digit put
 * back in a 12-digit mobile (subscriber number starting with 6-9), so both forms compare equal.
 */
function canonicalSql(phone: ReturnType<typeof sql>) {
  const digits = sql`regexp_replace(${phone}, '[^0-9]', '', 'g')`;
  const with55 = sql`(case when length(${digits}) in (10, 11) then '55' || ${digits} else ${digits} end)`;
  return sql`(case when ${with55} ~ '^55[1-9][1-9][6-9][0-9]{7}$' then substr(${with55}, 1, 4) || '9' || substr(${with55}, 5) else ${with55} end)`;
}

/** True (as SQL) when the phone column's number opted out of the client's messages (either form). */
export function optedOutSql(clientId: number, phone: ReturnType<typeof sql>) {
  return sql<boolean>`exists (select 1 from whatsapp_opt_outs o where o.client_id = ${clientId} and ${canonicalSql(sql`o.phone`)} = ${canonicalSql(phone)})`;
}

/** Whether a number opted out: stored with or without the ninth digit, written either way. */
export async function isOptedOut(db: Executor, clientId: number, phone: string): Promise<boolean> {
  const forms = whatsappForms(phone);
  if (forms.length === 0) return false;
  const [row] = await db
    .select({ id: whatsappOptOuts.id })
    .from(whatsappOptOuts)
    .where(and(eq(whatsappOptOuts.clientId, clientId), inArray(whatsappOptOuts.phone, forms)));
  return row !== undefined;
}

/** Staff marks (or unmarks) a number as not to be messaged. */
export async function setOptOut(
  ctx: AppContext,
  actor: Actor,
  number: string,
  optedOut: boolean,
): Promise<{ number: string; optedOut: boolean }> {
  const phone = canonicalWhatsapp(number) ?? number;
  if (optedOut)
    await ctx.db
      .insert(whatsappOptOuts)
      .values({ clientId: actor.clientId, phone, source: 'staff' })
      .onConflictDoNothing();
  else
    await ctx.db
      .delete(whatsappOptOuts)
      .where(
        and(
          eq(whatsappOptOuts.clientId, actor.clientId),
          inArray(whatsappOptOuts.phone, whatsappForms(phone)),
        ),
      );
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
  onConnected?: (clientId: number) => Promise<unknown>,
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
      // Customers saved before the number connected were never checked (whatsappNumbers needs an
      // open instance): check them now, after the webhook was answered.
      if (onConnected) {
        const check = new Promise<void>((resolve) =>
          setImmediate(() => {
            onConnected(row.clientId)
              .catch(() => {
                // The results stay unknown; a campaign asks again before sending.
              })
              .finally(resolve);
          }),
        );
        connectionChecks.add(check);
        void check.finally(() => connectionChecks.delete(check));
      }
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
    const key = (data.key ?? {}) as Record<string, unknown>;
    const message = (data.message ?? {}) as {
      conversation?: unknown;
      extendedTextMessage?: { text?: unknown };
    };
    const text = String(message.conversation ?? message.extendedTextMessage?.text ?? '');
    if (key.fromMe === true) return { ok: true };
    const { phone, lid } = senderOf(key);
    if (isOptOutReply(text)) {
      // An @lid sender with no number in the event is kept under its lid (never dropped) until an
      // event carries both; each row is one form of the same person.
      const values = [phone, lid].filter((v): v is string => !!v);
      if (values.length > 0) {
        await ctx.db
          .insert(whatsappOptOuts)
          .values(values.map((v) => ({ clientId: row.clientId, phone: v, source: 'reply' })))
          .onConflictDoNothing();
        ctx.changed(row.clientId, 'campaign');
      }
    } else if (phone && lid) {
      // A later message tells the number behind an @lid that opted out: the number opts out too.
      const [known] = await ctx.db
        .select({ id: whatsappOptOuts.id })
        .from(whatsappOptOuts)
        .where(and(eq(whatsappOptOuts.clientId, row.clientId), eq(whatsappOptOuts.phone, lid)));
      if (known) {
        await ctx.db
          .insert(whatsappOptOuts)
          .values({ clientId: row.clientId, phone, source: 'reply' })
          .onConflictDoNothing();
        ctx.changed(row.clientId, 'campaign');
      }
    }
  }
  return { ok: true };
}

/**
 * Who sent a messages.upsert, as Evolution 2.3 keys it: `remoteJid` is Baileys' key, either a number
 * (`553187654321@s.whatsapp.net`, 12 digits for DDD 31+) or a linked-device id (`NNN@lid`) whose
 * number travels in `remoteJidAlt`, `senderPn`, `participantPn` or `participantAlt`. `phone` is the
 * canonical number (null when the event has none), `lid` the `NNN@lid` id when there is one.
 */
export function senderOf(key: Record<string, unknown>): { phone: string | null; lid: string | null } {
  const jids = ['remoteJid', 'remoteJidAlt', 'senderPn', 'participantPn', 'participantAlt', 'participant']
    .map((field) => key[field])
    .filter((v): v is string => typeof v === 'string' && v.length > 0);
  const lid = jids.find((j) => j.endsWith('@lid'))?.replace(/:\d+@/, '@') ?? null;
  const numbered = jids.find((j) => !j.endsWith('@lid') && /@s\.whatsapp\.net$|^\+?\d+$/.test(j));
  return { phone: numbered ? canonicalWhatsapp(numbered) : null, lid };
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
