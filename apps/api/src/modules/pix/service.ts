import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import {
  PIX_CHARGE_MESSAGES,
  PIX_RECONCILE_REASON_LABELS,
  PIX_REFUND_STATUS_LABELS,
  type PixAccount,
  type PixAccountInput,
  type PixCharge,
  type PixChargeInput,
  type PixEnvironment,
  type PixPending,
  type PixReconcileReason,
  type PixRefund,
  type PixTestResult,
  pixAccountInputSchema,
} from '@balcao/core/pixCharge';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { conflict, notFound, unavailable, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { OutboundTls } from '../../lib/outbound.ts';
import { newToken, secretBox, tokenMatches } from '../../lib/secrets.ts';
import { recordPixEndToEndIds } from '../sale/record.ts';
import { type PspEntry, type PspHosts, providerOptions, pspEntry } from './catalogue.ts';
import {
  centsOfValor,
  type PspClient,
  type PspDevolucao,
  PspError,
  type PspPix,
  PspUnreachable,
  pspClient,
  valorOf,
} from './psp.ts';
import { pixAccounts, pixCharges, pixReceived, pixRefunds } from './schema.ts';

/**
 * Pix confirmed by the bank (issue 33): the shop's PSP account, the dynamic charge of a sale attempt,
 * the webhook's intake (each endToEndId once) and its queue, the polling fallback, refunds of canceled
 * sales and the list of Pix a person must reconcile. docs/integrations/pix-api.md says which parts of
 * the standard are used and how PSPs differ.
 */

type AccountRow = typeof pixAccounts.$inferSelect;
type ChargeRow = typeof pixCharges.$inferSelect;
type Credentials = { clientId: string; clientSecret: string; appKey?: string };
type Certificate =
  | { format: 'pfx'; pfxBase64: string; passphrase: string }
  | { format: 'pem'; certPem: string; keyPem: string };

/** The polling fallback asks the PSP about a charge at most this often. */
const POLL_MIN_MS = 2_000;

function boxOf(ctx: AppContext) {
  if (!ctx.config.secretsKey)
    throw unavailable('O servidor não tem chave para guardar segredos (SECRETS_KEY).');
  return secretBox(ctx.config.secretsKey);
}

async function accountRow(db: Executor, clientId: number): Promise<AccountRow | null> {
  const [row] = await db.select().from(pixAccounts).where(eq(pixAccounts.clientId, clientId));
  return row ?? null;
}

/** The catalogue entry and hosts of an account; null when its PSP/environment is not offered here. */
function hostsOf(ctx: AppContext, row: Pick<AccountRow, 'provider' | 'environment'>) {
  const entry = pspEntry(ctx.config, row.provider);
  const hosts = entry?.environments[row.environment as PixEnvironment];
  return entry && hosts ? { entry, hosts } : null;
}

function viewOf(
  ctx: AppContext,
  row: AccountRow | null,
  box: ReturnType<typeof secretBox> | null,
): PixAccount {
  const creds = row?.credentialsSealed && box ? box.open<Credentials>(row.credentialsSealed) : null;
  return {
    configured: Boolean(row?.credentialsSealed && row.certificateSealed && hostsOf(ctx, row)),
    provider: row?.provider ?? '',
    environment: row?.environment === 'sandbox' ? 'sandbox' : 'production',
    providers: providerOptions(ctx.config),
    hasAppKey: Boolean(creds?.appKey),
    webhookHmac: Boolean(row?.webhookHmacHash),
    clientIdHint: row?.clientIdHint ?? '',
    hasSecret: Boolean(row?.credentialsSealed),
    hasCertificate: Boolean(row?.certificateSealed),
    pixKey: row?.pixKey ?? '',
    expiresInSeconds: row?.expiresInSeconds ?? 600,
    webhookRegisteredAt: row?.webhookRegisteredAt ? new Date(row.webhookRegisteredAt).toISOString() : null,
    lastTestError: row?.lastTestError ?? null,
  };
}

export async function findPixAccount(ctx: AppContext, actor: Actor): Promise<PixAccount> {
  const row = await accountRow(ctx.db, actor.clientId);
  return viewOf(ctx, row, row && ctx.config.secretsKey ? secretBox(ctx.config.secretsKey) : null);
}

export async function savePixAccount(
  ctx: AppContext,
  actor: Actor,
  input: PixAccountInput,
): Promise<PixAccount> {
  const data = pixAccountInputSchema.parse(input);
  // Hosts come from the server's catalogue only: the shop names a PSP and an environment.
  const entry = pspEntry(ctx.config, data.provider);
  if (!entry)
    throw unprocessable(PIX_CHARGE_MESSAGES.provider, [
      { path: 'provider', message: PIX_CHARGE_MESSAGES.provider },
    ]);
  if (!entry.environments[data.environment])
    throw unprocessable(PIX_CHARGE_MESSAGES.environmentMissing, [
      { path: 'environment', message: PIX_CHARGE_MESSAGES.environmentMissing },
    ]);
  const box = boxOf(ctx);
  const current = await accountRow(ctx.db, actor.clientId);
  const stored = current?.credentialsSealed ? box.open<Credentials>(current.credentialsSealed) : null;
  const clientId = data.clientId || stored?.clientId || '';
  const clientSecret = entry.needsSecret ? data.clientSecret || stored?.clientSecret || '' : '';
  const appKey = entry.appKeyParam ? data.appKey || stored?.appKey || '' : '';
  if (!clientId)
    throw unprocessable(PIX_CHARGE_MESSAGES.clientId, [
      { path: 'clientId', message: PIX_CHARGE_MESSAGES.clientId },
    ]);
  if (entry.needsSecret && !clientSecret)
    throw unprocessable(PIX_CHARGE_MESSAGES.clientSecret, [
      { path: 'clientSecret', message: PIX_CHARGE_MESSAGES.clientSecret },
    ]);
  if (entry.appKeyParam && !appKey)
    throw unprocessable(PIX_CHARGE_MESSAGES.appKey, [
      { path: 'appKey', message: PIX_CHARGE_MESSAGES.appKey },
    ]);
  const certificateSealed = data.certificate
    ? box.seal(data.certificate)
    : (current?.certificateSealed ?? '');
  if (!certificateSealed)
    throw unprocessable(PIX_CHARGE_MESSAGES.certificate, [
      { path: 'certificate', message: PIX_CHARGE_MESSAGES.certificate },
    ]);
  const values = {
    provider: entry.id,
    environment: data.environment,
    credentialsSealed: box.seal({
      clientId,
      clientSecret,
      ...(appKey ? { appKey } : {}),
    } satisfies Credentials),
    certificateSealed,
    clientIdHint: clientId.slice(-4),
    pixKey: data.pixKey,
    expiresInSeconds: data.expiresInSeconds,
    updatedAt: sql`now()`,
  };
  const [row] = await ctx.db
    .insert(pixAccounts)
    .values({ clientId: actor.clientId, ...values })
    .onConflictDoUpdate({ target: pixAccounts.clientId, set: values })
    .returning();
  ctx.changed(actor.clientId, 'pix');
  return viewOf(ctx, row, box);
}

/** The adapter for a shop's stored account (credentials opened only here, never logged). */
function pspOf(ctx: AppContext, row: AccountRow, psp: { entry: PspEntry; hosts: PspHosts }): PspClient {
  const box = boxOf(ctx);
  const creds = box.open<Credentials>(row.credentialsSealed);
  const cert = box.open<Certificate>(row.certificateSealed);
  if (!creds || !cert) throw unprocessable(PIX_CHARGE_MESSAGES.notConfigured);
  const { entry, hosts } = psp;
  const tls: OutboundTls =
    cert.format === 'pfx'
      ? { pfx: Buffer.from(cert.pfxBase64, 'base64'), passphrase: cert.passphrase }
      : { cert: cert.certPem, key: cert.keyPem };
  const extraCa =
    ctx.config.pix?.caPem ?? (ctx.config.pix?.caFile ? readFileSync(ctx.config.pix.caFile, 'utf8') : '');
  if (extraCa) tls.ca = [...rootCertificates, extraCa].join('\n');
  return pspClient({
    apiUrl: hosts.apiUrl,
    tokenUrl: hosts.tokenUrl,
    scopes: entry.scopes,
    tokenFormat: entry.tokenFormat,
    tokenAuth: entry.tokenAuth,
    query: entry.appKeyParam && creds.appKey ? { [entry.appKeyParam]: creds.appKey } : undefined,
    headers: entry.clientIdHeader ? { [entry.clientIdHeader]: creds.clientId } : undefined,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    tls,
  });
}

export async function configuredPsp(ctx: AppContext, clientId: number) {
  const row = await accountRow(ctx.db, clientId);
  const hosts = row ? hostsOf(ctx, row) : null;
  if (!row?.credentialsSealed || !row.certificateSealed || !hosts)
    throw unprocessable(PIX_CHARGE_MESSAGES.notConfigured);
  return { row, entry: hosts.entry, psp: pspOf(ctx, row, hosts) };
}

/** What went wrong talking to the PSP, in words the shop can act on. */
export function pspMessage(error: unknown, step: 'token' | 'webhook' | 'cob' | 'refund'): string {
  if (error instanceof PspUnreachable) {
    const r = error.reason;
    // With TLS 1.3 a refused client certificate shows as the server closing the socket.
    if (/CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS|alert|handshake|EPROTO|ECONNRESET|UND_ERR_SOCKET/i.test(r))
      return 'O banco recusou a conexão segura: confira o certificado (.pfx/.pem) enviado e se ele é do ambiente certo (produção ou homologação).';
    if (/EREFUSED|ENOTFOUND|EAI_AGAIN/i.test(r))
      return 'Endereço da API Pix não encontrado: confira a URL da API.';
    if (/ECONNREFUSED|Timeout|ETIMEDOUT|aborted/i.test(r)) return PIX_CHARGE_MESSAGES.pspUnreachable;
    if (/pfx|mac verify|PKCS12|bad decrypt|PEM/i.test(r))
      return 'Não foi possível abrir o certificado: confira o arquivo e a senha do .pfx.';
    return PIX_CHARGE_MESSAGES.pspUnreachable;
  }
  if (error instanceof PspError) {
    if (error.step === 'token')
      return error.status === 401 || error.status === 400
        ? 'O banco recusou o Client ID ou o Client Secret (token OAuth).'
        : `O banco não emitiu o token de acesso (HTTP ${error.status}).`;
    if (error.status === 403)
      return 'O banco negou o acesso: confira os escopos da aplicação (cob.write, pix.write, webhook.write...).';
    if (error.status === 404 && step === 'webhook')
      return 'O banco não encontrou a chave Pix informada nesta conta.';
    const detail = error.problem.violacoes?.[0]?.razao ?? error.problem.detail ?? error.problem.title ?? '';
    const what = { token: 'o token', webhook: 'o webhook', cob: 'a cobrança', refund: 'a devolução' }[step];
    return `O banco recusou ${what} (HTTP ${error.status})${detail ? `: ${detail}` : ''}.`;
  }
  if (
    error instanceof Error &&
    /pfx|mac verify|PKCS12|bad decrypt|PEM|key values mismatch/i.test(error.message)
  )
    return 'Não foi possível abrir o certificado: confira o arquivo e a senha do .pfx.';
  return PIX_CHARGE_MESSAGES.pspUnreachable;
}

/**
 * "Testar conexão": a token, then PUT /webhook/{chave} with a new secret path for this shop. The old
 * path stops working (its hash is replaced). Each step's result in Portuguese.
 */
export async function testPixAccount(ctx: AppContext, actor: Actor): Promise<PixTestResult> {
  const { row, entry, psp } = await configuredPsp(ctx, actor.clientId);
  const steps: PixTestResult['steps'] = [];
  let error: string | null = null;
  try {
    await psp.token();
    steps.push({
      step: 'Token de acesso',
      ok: true,
      message: 'O banco aceitou o certificado e as credenciais.',
    });
    const { token, hash } = newToken();
    // Efí's scheme: a secret `hmac` query parameter; `ignorar=` swallows the `/pix` Efí appends, so
    // the post arrives at .../pix?hmac=...&ignorar=/pix (docs/integrations/pix-api.md).
    const hmac = entry.webhookAuth === 'efi-hmac' ? newToken() : null;
    const url = `${ctx.config.publicUrl}/v1/pix/webhook/${token}${hmac ? `/pix?hmac=${hmac.token}&ignorar=` : ''}`;
    try {
      await psp.putWebhook(row.pixKey, url);
      steps.push({ step: 'Webhook', ok: true, message: 'Webhook cadastrado: os Pix pagos chegam sozinhos.' });
      await ctx.db
        .update(pixAccounts)
        .set({
          webhookTokenHash: hash,
          webhookHmacHash: hmac?.hash ?? null,
          webhookRegisteredAt: sql`now()`,
          lastTestError: null,
        })
        .where(eq(pixAccounts.clientId, actor.clientId));
    } catch (e) {
      error = pspMessage(e, 'webhook');
      steps.push({ step: 'Webhook', ok: false, message: error });
    }
  } catch (e) {
    error = pspMessage(e, 'token');
    steps.push({ step: 'Token de acesso', ok: false, message: error });
  }
  if (error)
    await ctx.db
      .update(pixAccounts)
      .set({ lastTestError: error })
      .where(eq(pixAccounts.clientId, actor.clientId));
  ctx.changed(actor.clientId, 'pix');
  return { ok: error === null, steps };
}

/** The txid of a sale attempt: 32 of [a-z0-9], the same for the same client and Idempotency-Key. */
export function txidOf(clientId: number, attemptKey: string): string {
  return `blc${createHash('sha256').update(`${clientId}\n${attemptKey}`).digest('hex').slice(0, 29)}`;
}

function chargeView(row: ChargeRow): PixCharge {
  return {
    txid: row.txid,
    status: row.status === 'creating' ? 'active' : (row.status as PixCharge['status']),
    amountCents: row.amountCents,
    pixCopiaECola: row.pixCopiaECola,
    expiresAt: new Date(row.expiresAt).toISOString(),
    paidAt: row.paidAt ? new Date(row.paidAt).toISOString() : null,
    endToEndId: row.endToEndId,
    saleId: row.saleId,
  };
}

/**
 * The dynamic charge of a sale attempt. Idempotent: the txid comes from the attempt's key, the row is
 * claimed first (unique client + txid), and a PUT whose answer was lost is recovered with GET /cob
 * (the PSP refuses a second PUT of a txid). A new amount for the same attempt revises the charge (PATCH).
 */
export async function createPixCharge(
  ctx: AppContext,
  actor: Actor,
  input: PixChargeInput,
): Promise<PixCharge> {
  const { row: account, psp } = await configuredPsp(ctx, actor.clientId);
  const txid = txidOf(actor.clientId, input.attemptKey);
  await ctx.db
    .insert(pixCharges)
    .values({
      clientId: actor.clientId,
      txid,
      attemptKey: input.attemptKey,
      amountCents: input.amountCents,
      expiresAt: sql`now() + ${`${account.expiresInSeconds} seconds`}::interval`,
    })
    .onConflictDoNothing();
  const [row] = await ctx.db
    .select()
    .from(pixCharges)
    .where(and(eq(pixCharges.clientId, actor.clientId), eq(pixCharges.txid, txid)));
  if (row.status === 'paid' || row.status === 'removed') return chargeView(row);
  if (
    row.status === 'active' &&
    row.amountCents === input.amountCents &&
    Date.parse(row.expiresAt) > Date.now()
  )
    return chargeView(row);
  try {
    let cob: Awaited<ReturnType<PspClient['getCob']>>;
    if (row.status === 'creating') {
      try {
        cob = await psp.putCob(txid, {
          calendario: { expiracao: account.expiresInSeconds },
          valor: { original: valorOf(input.amountCents) },
          chave: account.pixKey,
          solicitacaoPagador: 'Compra no Balcão',
        });
      } catch (error) {
        // A retry after a lost answer: the charge exists at the PSP, read it.
        if (!(error instanceof PspError && error.status === 400)) throw error;
        cob = await psp.getCob(txid);
      }
    } else {
      cob = await psp.getCob(txid);
    }
    if (cob.status === 'ATIVA' && centsOfValor(cob.valor.original) !== input.amountCents)
      cob = await psp.patchCob(txid, {
        valor: { original: valorOf(input.amountCents) },
        calendario: { expiracao: account.expiresInSeconds },
      });
    const [updated] = await ctx.db
      .update(pixCharges)
      .set({
        status: sql`case when ${pixCharges.status} = 'creating' then 'active' else ${pixCharges.status} end`,
        amountCents: centsOfValor(cob.valor.original),
        pixCopiaECola: cob.pixCopiaECola ?? '',
        location: cob.location ?? cob.loc?.location ?? '',
        expiresAt: new Date(
          Date.parse(cob.calendario.criacao) + cob.calendario.expiracao * 1000,
        ).toISOString(),
      })
      .where(eq(pixCharges.id, row.id))
      .returning();
    if (cob.pix?.length) await intakePix(ctx, actor.clientId, cob.pix);
    return chargeView(updated);
  } catch (error) {
    if (error instanceof PspError || error instanceof PspUnreachable)
      throw unavailable(pspMessage(error, 'cob'));
    throw error;
  }
}

async function chargeRow(db: Executor, clientId: number, txid: string): Promise<ChargeRow> {
  const [row] = await db
    .select()
    .from(pixCharges)
    .where(and(eq(pixCharges.clientId, clientId), eq(pixCharges.txid, txid)));
  if (!row) throw notFound(PIX_CHARGE_MESSAGES.chargeNotFound);
  return row;
}

/**
 * A charge as the PDV polls it. Still active: asks the PSP (GET /cob) at most every 2 s, so a lost
 * webhook still settles it; a Pix found there goes through the same intake as the webhook's.
 */
export async function findPixCharge(ctx: AppContext, actor: Actor, txid: string): Promise<PixCharge> {
  let row = await chargeRow(ctx.db, actor.clientId, txid);
  if (row.status !== 'active') return chargeView(row);
  const [claimed] = await ctx.db
    .update(pixCharges)
    .set({ checkedAt: sql`now()` })
    .where(
      and(
        eq(pixCharges.id, row.id),
        sql`(${pixCharges.checkedAt} is null or ${pixCharges.checkedAt} < now() - ${`${POLL_MIN_MS} milliseconds`}::interval)`,
      ),
    )
    .returning({ id: pixCharges.id });
  if (!claimed) return chargeView(row);
  try {
    const { psp } = await configuredPsp(ctx, actor.clientId);
    const cob = await psp.getCob(txid);
    if (cob.pix?.length) {
      await intakePix(ctx, actor.clientId, cob.pix);
      row = await chargeRow(ctx.db, actor.clientId, txid);
    }
  } catch (error) {
    // The poll is a fallback: a PSP hiccup leaves the charge as it is, the next poll asks again.
    if (!(error instanceof PspError || error instanceof PspUnreachable)) throw error;
  }
  return chargeView(row);
}

/**
 * The operator switched method: the charge is withdrawn at the PSP (PATCH status
 * REMOVIDA_PELO_USUARIO_RECEBEDOR). A Pix that still arrives goes to reconciliation.
 */
export async function removePixCharge(ctx: AppContext, actor: Actor, txid: string): Promise<PixCharge> {
  const row = await chargeRow(ctx.db, actor.clientId, txid);
  if (row.status === 'paid') throw conflict(PIX_CHARGE_MESSAGES.alreadyPaid);
  if (row.status === 'removed') return chargeView(row);
  const [updated] = await ctx.db
    .update(pixCharges)
    .set({ status: 'removed' })
    .where(and(eq(pixCharges.id, row.id), inArray(pixCharges.status, ['active', 'creating'])))
    .returning();
  if (!updated) return chargeView(await chargeRow(ctx.db, actor.clientId, txid));
  try {
    const { psp } = await configuredPsp(ctx, actor.clientId);
    await psp.patchCob(txid, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
  } catch {
    // Already paid or gone at the PSP: a Pix that arrives is reconciled; nothing else to undo.
  }
  ctx.changed(actor.clientId, 'pix');
  return chargeView(updated);
}

/**
 * The shop a webhook path belongs to (its token's hash); null for an unknown token, or when the
 * account registered an hmac (Efí) and the post's `hmac` is missing or another.
 */
export async function shopOfWebhook(db: Executor, token: string, hmac?: string): Promise<number | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  const [row] = await db
    .select({
      clientId: pixAccounts.clientId,
      hash: pixAccounts.webhookTokenHash,
      hmacHash: pixAccounts.webhookHmacHash,
    })
    .from(pixAccounts)
    .where(eq(pixAccounts.webhookTokenHash, createHash('sha256').update(token).digest('hex')));
  if (!row || !tokenMatches(token, row.hash)) return null;
  if (row.hmacHash && !(hmac && tokenMatches(hmac, row.hmacHash))) return null;
  return row.clientId;
}

type IncomingPix = Pick<PspPix, 'endToEndId' | 'txid' | 'valor' | 'horario' | 'infoPagador'> & {
  devolucoes?: Pick<PspDevolucao, 'id' | 'status' | 'motivo'>[];
};

/**
 * The intake of Pix a shop's PSP reported (webhook or GET /cob): each endToEndId stored once (unique
 * index: a repeated or reordered post inserts nothing), refunds' final statuses applied (idempotent),
 * then the queue is worked. Only this shop's rows: a txid of another shop finds no charge here.
 */
export async function intakePix(
  ctx: AppContext,
  clientId: number,
  pixes: IncomingPix[],
  work: 'now' | 'after' = 'now',
): Promise<void> {
  if (pixes.length === 0) return;
  await ctx.db
    .insert(pixReceived)
    .values(
      pixes.map((p) => ({
        clientId,
        endToEndId: p.endToEndId,
        txid: p.txid ?? null,
        amountCents: centsOfValor(p.valor),
        paidAt: new Date(Date.parse(p.horario) || Date.now()).toISOString(),
        payerInfo: p.infoPagador?.slice(0, 500) ?? null,
      })),
    )
    .onConflictDoNothing();
  let refundsChanged = false;
  for (const p of pixes) {
    for (const d of p.devolucoes ?? []) {
      if (d.status === 'EM_PROCESSAMENTO') continue;
      const done = await ctx.db
        .update(pixRefunds)
        .set({ status: d.status, reason: d.motivo ?? null, updatedAt: sql`now()` })
        .where(
          and(
            eq(pixRefunds.clientId, clientId),
            eq(pixRefunds.endToEndId, p.endToEndId),
            eq(pixRefunds.refundId, d.id),
            inArray(pixRefunds.status, ['requested', 'EM_PROCESSAMENTO']),
          ),
        )
        .returning({ id: pixRefunds.id, status: pixRefunds.status });
      if (done.length) {
        refundsChanged = true;
        if (d.status === 'NAO_REALIZADO')
          ctx.notify(clientId, {
            message: `O banco recusou a devolução de um Pix${d.motivo ? `: ${d.motivo}` : ''}. Devolva ao cliente por outro meio.`,
            alertColor: 'error',
          });
      }
    }
  }
  if (refundsChanged) ctx.changed(clientId, 'pix');
  if (work === 'now') await processReceivedPix(ctx, 50);
  // The webhook answers once stored; the queue runs right after (the job sweeps if this process dies).
  else setImmediate(() => void processReceivedPix(ctx, 50).catch(() => {}));
}

/**
 * A module that takes Pix QR dinâmico for its own things (a delivery order's collection, issue 33)
 * learns of its charge's payment in the transaction that settles it: it applies it (its rows, the
 * sale's payment; the charge is then tied to `saleId`, the sale keeps the endToEndId and a cancel
 * refunds it) or answers why not (`reason`: the Pix goes to the reconciliation list instead). Hooks
 * see every charge and answer null for attempt keys that are not theirs. Registered at wiring.
 */
export type PixChargeApplied = { reason: PixReconcileReason } | { saleId: number | null; after?: () => void };
export type PixChargePaidHook = (
  tx: Executor,
  charge: Readonly<ChargeRow> & { endToEndId: string; paidCents: number },
) => Promise<PixChargeApplied | null>;
const paidHooks = new WeakMap<AppContext, PixChargePaidHook[]>();
export function onPixChargePaid(ctx: AppContext, hook: PixChargePaidHook): void {
  paidHooks.set(ctx, [...(paidHooks.get(ctx) ?? []), hook]);
}

/**
 * The queue of received Pix (durable: rows of pix_received, pending until processed; the intake works
 * it at once and the `pix-received` job sweeps what a dead instance left). Rows are claimed with SKIP
 * LOCKED, each settled or sent to reconciliation in one transaction with its charge.
 */
export async function processReceivedPix(ctx: AppContext, limit = 100): Promise<{ processed: number }> {
  const signals: { clientId: number; reason: PixReconcileReason | null; amountCents: number }[] = [];
  const afters: (() => void)[] = [];
  await ctx.db.transaction(async (tx) => {
    const claimed = await tx
      .select()
      .from(pixReceived)
      .where(eq(pixReceived.status, 'pending'))
      .orderBy(asc(pixReceived.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    for (const received of claimed) {
      const [charge] = received.txid
        ? await tx
            .select()
            .from(pixCharges)
            .where(and(eq(pixCharges.clientId, received.clientId), eq(pixCharges.txid, received.txid)))
            .for('update')
        : [];
      let reason: PixReconcileReason | null = null;
      if (!charge) reason = 'unknown';
      else if (charge.status === 'paid')
        reason = charge.endToEndId === received.endToEndId ? null : 'duplicate';
      else if (charge.status === 'removed') reason = 'removed';
      else if (Date.parse(received.paidAt) > Date.parse(charge.expiresAt)) reason = 'late';
      else if (received.amountCents !== charge.amountCents) reason = 'wrong_amount';
      // The module whose charge it is applies it, or refuses it (an order canceled meanwhile): reconciled.
      let applied: PixChargeApplied | null = null;
      if (charge && reason === null && charge.status !== 'paid')
        for (const hook of paidHooks.get(ctx) ?? []) {
          applied = await hook(tx, {
            ...charge,
            endToEndId: received.endToEndId,
            paidCents: received.amountCents,
          });
          if (applied) break;
        }
      if (applied && 'reason' in applied) reason = applied.reason;
      if (charge && reason === null && charge.status !== 'paid') {
        const saleId = applied && 'saleId' in applied ? applied.saleId : null;
        await tx
          .update(pixCharges)
          .set({
            status: 'paid',
            endToEndId: received.endToEndId,
            paidCents: received.amountCents,
            paidAt: received.paidAt,
            ...(saleId ? { saleId } : {}),
          })
          .where(eq(pixCharges.id, charge.id));
        if (saleId)
          await recordPixEndToEndIds(tx, saleId, [
            { endToEndId: received.endToEndId, amountCents: received.amountCents },
          ]);
        if (applied && 'after' in applied && applied.after) afters.push(applied.after);
      }
      await tx
        .update(pixReceived)
        .set({ status: reason ? 'reconcile' : 'settled', reason, processedAt: sql`now()` })
        .where(eq(pixReceived.id, received.id));
      signals.push({ clientId: received.clientId, reason, amountCents: received.amountCents });
    }
  });
  for (const after of afters) after();
  for (const s of signals) {
    ctx.changed(s.clientId, 'pix');
    if (s.reason)
      ctx.notify(s.clientId, {
        message: `Pix de R$ ${valorOf(s.amountCents).replace('.', ',')} para conciliar: ${PIX_RECONCILE_REASON_LABELS[s.reason].toLowerCase()} (Vendas > Conciliação Pix).`,
        alertColor: 'warning',
      });
  }
  return { processed: signals.length };
}

/**
 * At the sale's record (inside its transaction): the sale's `pixQrCode` payments must be paid charges
 * of this attempt (attempt key = the sale's Idempotency-Key, or `key:<payment>` for each Pix payment
 * of the PDV), adding up to their amount; the charges are tied to the sale, so the sale keeps each
 * Pix's endToEndId. Handed to the sale module at wiring (pix is above sale).
 */
export async function pixChargeOfSale(
  tx: Executor,
  clientId: number,
  attemptKey: string | null | undefined,
  sale: { id: number },
  pixCents: number,
): Promise<void> {
  if (pixCents <= 0) return;
  if (!attemptKey) throw unprocessable(PIX_CHARGE_MESSAGES.notPaid);
  const charges = await tx
    .select()
    .from(pixCharges)
    .where(
      and(
        eq(pixCharges.clientId, clientId),
        eq(pixCharges.status, 'paid'),
        sql`${pixCharges.saleId} is null`,
        sql`(${pixCharges.attemptKey} = ${attemptKey} or left(${pixCharges.attemptKey}, ${attemptKey.length + 1}) = ${`${attemptKey}:`})`,
      ),
    )
    .for('update');
  if (charges.length === 0) throw unprocessable(PIX_CHARGE_MESSAGES.notPaid);
  const paid = charges.reduce((sum, c) => sum + (c.paidCents ?? 0), 0);
  if (paid !== pixCents) throw unprocessable(PIX_CHARGE_MESSAGES.amountChanged);
  await tx
    .update(pixCharges)
    .set({ saleId: sale.id })
    .where(
      inArray(
        pixCharges.id,
        charges.map((c) => c.id),
      ),
    );
  await recordPixEndToEndIds(tx, sale.id, endToEndIdsOf(charges));
}

/**
 * A payment taken beyond the PDV's checkout (a comanda's payment, issue 33): the charge of its attempt
 * must be paid, for exactly this amount, and not yet tied to a sale; locked for the caller's
 * transaction. 422 otherwise, in the PDV's words.
 */
export async function paidPixChargeOfPayment(
  tx: Executor,
  clientId: number,
  attemptKey: string,
  amountCents: number,
): Promise<void> {
  const [charge] = await tx
    .select()
    .from(pixCharges)
    .where(
      and(
        eq(pixCharges.clientId, clientId),
        eq(pixCharges.attemptKey, attemptKey),
        eq(pixCharges.status, 'paid'),
        sql`${pixCharges.saleId} is null`,
      ),
    )
    .for('update');
  if (!charge)
    throw unprocessable(PIX_CHARGE_MESSAGES.notPaid, [
      { path: 'method', message: PIX_CHARGE_MESSAGES.notPaid },
    ]);
  if (charge.paidCents !== amountCents)
    throw unprocessable(PIX_CHARGE_MESSAGES.amountChanged, [
      { path: 'method', message: PIX_CHARGE_MESSAGES.amountChanged },
    ]);
}

/**
 * The paid charges of these attempts become the sale's (in the sale's transaction): the sale keeps
 * each Pix's endToEndId and its cancel refunds them through devolução, as a PDV sale's.
 */
export async function tiePixChargesToSale(
  tx: Executor,
  clientId: number,
  attemptKeys: readonly string[],
  saleId: number,
): Promise<void> {
  if (attemptKeys.length === 0) return;
  const tied = await tx
    .update(pixCharges)
    .set({ saleId })
    .where(
      and(
        eq(pixCharges.clientId, clientId),
        eq(pixCharges.status, 'paid'),
        sql`${pixCharges.saleId} is null`,
        inArray(pixCharges.attemptKey, [...attemptKeys]),
      ),
    )
    .returning();
  await recordPixEndToEndIds(tx, saleId, endToEndIdsOf(tied));
}

const endToEndIdsOf = (charges: readonly ChargeRow[]) =>
  charges.flatMap((c) =>
    c.endToEndId ? [{ endToEndId: c.endToEndId, amountCents: c.paidCents ?? c.amountCents }] : [],
  );

/** The refund id we give the PSP for a sale's Pix: the same on every retry (PUT is idempotent by it). */
const refundIdOf = (saleId: number, chargeId: number) => `BLC${saleId}C${chargeId}`;

/**
 * A canceled sale's dynamic Pix are refunded (in the cancel's transaction: the refund rows; after the
 * commit: PUT /pix/{e2eid}/devolucao/{id}). Pending until the PSP says DEVOLVIDO; NAO_REALIZADO is shown.
 */
export function pixRefundOfCanceledSale(ctx: AppContext) {
  return async (tx: Executor, clientId: number, saleId: number): Promise<(() => void) | undefined> => {
    const charges = await tx
      .select()
      .from(pixCharges)
      .where(
        and(eq(pixCharges.clientId, clientId), eq(pixCharges.saleId, saleId), eq(pixCharges.status, 'paid')),
      );
    if (charges.length === 0) return undefined;
    await tx
      .insert(pixRefunds)
      .values(
        charges.map((c) => ({
          clientId,
          saleId,
          endToEndId: c.endToEndId ?? '',
          refundId: refundIdOf(saleId, c.id),
          amountCents: c.paidCents ?? c.amountCents,
        })),
      )
      .onConflictDoNothing();
    return () => {
      void sendPixRefunds(ctx, clientId).catch(() => {});
    };
  };
}

/**
 * Sends refunds not yet accepted (requested) and asks about those in process (EM_PROCESSAMENTO):
 * the `pix-refunds` job and the cancel's after-commit. Safe to repeat (the refund id is fixed).
 */
export async function sendPixRefunds(ctx: AppContext, clientId?: number): Promise<{ sent: number }> {
  const due = await ctx.db
    .select()
    .from(pixRefunds)
    .where(
      and(
        inArray(pixRefunds.status, ['requested', 'EM_PROCESSAMENTO']),
        clientId === undefined ? undefined : eq(pixRefunds.clientId, clientId),
      ),
    )
    .limit(100);
  let sent = 0;
  for (const refund of due) {
    try {
      const { psp } = await configuredPsp(ctx, refund.clientId);
      const answer =
        refund.status === 'requested'
          ? await psp.putDevolucao(
              refund.endToEndId,
              refund.refundId,
              valorOf(refund.amountCents),
              refund.saleId === null ? 'Pagamento cancelado' : 'Venda cancelada',
            )
          : await psp.getDevolucao(refund.endToEndId, refund.refundId);
      await ctx.db
        .update(pixRefunds)
        .set({ status: answer.status, reason: answer.motivo ?? null, payload: answer, updatedAt: sql`now()` })
        .where(
          and(eq(pixRefunds.id, refund.id), inArray(pixRefunds.status, ['requested', 'EM_PROCESSAMENTO'])),
        );
      sent++;
      ctx.changed(refund.clientId, 'pix');
    } catch (error) {
      if (error instanceof PspError && error.status === 400) {
        const reason = pspMessage(error, 'refund');
        await ctx.db
          .update(pixRefunds)
          .set({ status: 'NAO_REALIZADO', reason, updatedAt: sql`now()` })
          .where(eq(pixRefunds.id, refund.id));
        ctx.notify(refund.clientId, {
          message: `${reason} Devolva ao cliente por outro meio.`,
          alertColor: 'error',
        });
        ctx.changed(refund.clientId, 'pix');
      }
      // Unreachable or 5xx: stays as it is; the job tries again.
    }
  }
  return { sent };
}

export async function listPixRefunds(db: Executor, actor: Actor, saleId: number): Promise<PixRefund[]> {
  const rows = await db
    .select()
    .from(pixRefunds)
    .where(and(eq(pixRefunds.clientId, actor.clientId), eq(pixRefunds.saleId, saleId)))
    .orderBy(asc(pixRefunds.id));
  return rows.map(refundView);
}

/** Whether a charge's attempt key is `baseKey` or `baseKey:<n>`. */
const ofAttempt = (baseKey: string) =>
  sql`(${pixCharges.attemptKey} = ${baseKey} or left(${pixCharges.attemptKey}, ${baseKey.length + 1}) = ${`${baseKey}:`})`;

/**
 * What was paid by Pix for these attempts and is no sale's (a budget's link, issue 33) goes back to
 * the payer: one refund per paid charge (its id fixed by the charge, so a repeated cancel asks once),
 * in the caller's transaction; the returned signal sends them after the commit (the `pix-refunds` job
 * retries). Pending until the PSP says DEVOLVIDO; a refusal is shown and rung, never marked done.
 */
export function pixRefundOfUnsold(ctx: AppContext) {
  return async (tx: Executor, clientId: number, baseKey: string): Promise<(() => void) | undefined> => {
    const charges = await tx
      .select()
      .from(pixCharges)
      .where(
        and(
          eq(pixCharges.clientId, clientId),
          eq(pixCharges.status, 'paid'),
          sql`${pixCharges.saleId} is null`,
          ofAttempt(baseKey),
        ),
      )
      .for('update');
    if (charges.length === 0) return undefined;
    await tx
      .insert(pixRefunds)
      .values(
        charges.map((c) => ({
          clientId,
          chargeId: c.id,
          endToEndId: c.endToEndId ?? '',
          refundId: `BLCP${c.id}`,
          amountCents: c.paidCents ?? c.amountCents,
        })),
      )
      .onConflictDoNothing();
    return () => {
      ctx.changed(clientId, 'pix');
      void sendPixRefunds(ctx, clientId).catch(() => {});
    };
  };
}

/** The refunds of the Pix paid for these attempts (`baseKey` or `baseKey:<n>`), oldest first. */
export async function pixRefundsOfAttempt(
  db: Executor,
  clientId: number,
  baseKey: string,
): Promise<PixRefund[]> {
  const rows = await db
    .select({ refund: pixRefunds })
    .from(pixRefunds)
    .innerJoin(pixCharges, eq(pixCharges.id, pixRefunds.chargeId))
    .where(and(eq(pixRefunds.clientId, clientId), eq(pixCharges.clientId, clientId), ofAttempt(baseKey)))
    .orderBy(asc(pixRefunds.id));
  return rows.map((r) => refundView(r.refund));
}

function refundView(r: typeof pixRefunds.$inferSelect): PixRefund {
  return {
    id: r.id,
    saleId: r.saleId,
    endToEndId: r.endToEndId,
    amountCents: r.amountCents,
    status: r.status as PixRefund['status'],
    statusLabel: PIX_REFUND_STATUS_LABELS[r.status as keyof typeof PIX_REFUND_STATUS_LABELS] ?? r.status,
    reason: r.reason,
  };
}

/** The Pix a person must look at (late, wrong amount, after a switch, unknown), oldest first. */
export async function listPendingPix(db: Executor, actor: Actor): Promise<PixPending[]> {
  const rows = await db
    .select({
      received: pixReceived,
      chargeCents: pixCharges.amountCents,
    })
    .from(pixReceived)
    .leftJoin(
      pixCharges,
      and(eq(pixCharges.clientId, pixReceived.clientId), eq(pixCharges.txid, pixReceived.txid)),
    )
    .where(and(eq(pixReceived.clientId, actor.clientId), eq(pixReceived.status, 'reconcile')))
    .orderBy(asc(pixReceived.id));
  return rows.map(({ received: r, chargeCents }) => {
    const reason = (r.reason ?? 'unknown') as PixReconcileReason;
    return {
      id: r.id,
      endToEndId: r.endToEndId,
      txid: r.txid,
      amountCents: r.amountCents,
      chargeCents: chargeCents ?? null,
      paidAt: new Date(r.paidAt).toISOString(),
      reason,
      reasonLabel: PIX_RECONCILE_REASON_LABELS[reason],
      payerInfo: r.payerInfo,
    };
  });
}

/** A person dealt with it (refunded by hand, recorded a sale): it leaves the list. */
export async function resolvePendingPix(ctx: AppContext, actor: Actor, id: number): Promise<{ ok: boolean }> {
  const done = await ctx.db
    .update(pixReceived)
    .set({ status: 'resolved' })
    .where(
      and(
        eq(pixReceived.id, id),
        eq(pixReceived.clientId, actor.clientId),
        eq(pixReceived.status, 'reconcile'),
      ),
    )
    .returning({ id: pixReceived.id });
  if (!done.length) throw notFound('Pix não encontrado na lista de conciliação');
  ctx.changed(actor.clientId, 'pix');
  return { ok: true };
}

/** Whether the shop can take Pix QR dinâmico now (an account with credentials of an offered PSP). */
export async function pixOffered(ctx: AppContext, clientId: number): Promise<boolean> {
  const row = await accountRow(ctx.db, clientId);
  return Boolean(row?.credentialsSealed && row.certificateSealed && hostsOf(ctx, row));
}

/**
 * The charges whose attempt key is `baseKey` or `baseKey:<n>` (a budget's, one per expired try),
 * oldest first, with their keys: the caller picks the one to show or to make anew.
 */
export async function pixChargesOfAttempt(
  db: Executor,
  clientId: number,
  baseKey: string,
): Promise<{ attemptKey: string; charge: PixCharge }[]> {
  const rows = await db
    .select()
    .from(pixCharges)
    .where(
      and(
        eq(pixCharges.clientId, clientId),
        sql`(${pixCharges.attemptKey} = ${baseKey} or left(${pixCharges.attemptKey}, ${baseKey.length + 1}) = ${`${baseKey}:`})`,
      ),
    )
    .orderBy(asc(pixCharges.id));
  return rows.map((r) => ({ attemptKey: r.attemptKey, charge: chargeView(r) }));
}

/** The bank-confirmed Pix of these attempts (`baseKey` or `baseKey:<n>`) not yet tied to a sale. */
export async function unsoldPaidPixCents(tx: Executor, clientId: number, baseKey: string): Promise<number> {
  const [row] = await tx
    .select({ cents: sql<number>`coalesce(sum(${pixCharges.paidCents}), 0)::int` })
    .from(pixCharges)
    .where(
      and(
        eq(pixCharges.clientId, clientId),
        eq(pixCharges.status, 'paid'),
        sql`${pixCharges.saleId} is null`,
        sql`(${pixCharges.attemptKey} = ${baseKey} or left(${pixCharges.attemptKey}, ${baseKey.length + 1}) = ${`${baseKey}:`})`,
      ),
    );
  return row?.cents ?? 0;
}
