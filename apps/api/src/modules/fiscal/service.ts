import { createHash } from 'node:crypto';
import {
  DEFAULT_CLASS_TRIB,
  FISCAL_MESSAGES,
  type FiscalEnvironment,
  type FiscalNote,
  type FiscalSettings,
  type FiscalSettingsInput,
  fiscalSettingsInputSchema,
  IBS_CBS_MODES,
  type IbsCbsMode,
  type ProductFiscalOverride,
  stateRules,
  type Uf,
} from '@balcao/core/fiscal';
import { formatInZone } from '@balcao/core/time';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { conflict, notFound, unavailable, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { secretBox } from '../../lib/secrets.ts';
import { findProduct } from '../product/find.ts';
import { type A1, readA1 } from './certificate.ts';
import { fiscalCounters, fiscalNotes, fiscalProductFields, fiscalSettings } from './schema.ts';
import { type SchemaIssue, validateSchema } from './xml.ts';

/** Issue 32: the issuer's settings, its certificate and the product fiscal fields. */

export const NO_SECRETS_KEY =
  'O servidor não tem a chave de criptografia (SECRETS_KEY) configurada: não é possível guardar o certificado.';

export type SettingsRow = typeof fiscalSettings.$inferSelect;

export function boxOf(ctx: AppContext) {
  if (!ctx.config.secretsKey) throw unavailable(NO_SECRETS_KEY);
  return secretBox(ctx.config.secretsKey);
}

export async function settingsRow(db: Executor, clientId: number): Promise<SettingsRow | null> {
  const [row] = await db.select().from(fiscalSettings).where(eq(fiscalSettings.clientId, clientId));
  return row ?? null;
}

async function nextNumberOf(db: Executor, clientId: number, series: number): Promise<number> {
  const [row] = await db
    .select({ next: fiscalCounters.nextNumber })
    .from(fiscalCounters)
    .where(
      and(
        eq(fiscalCounters.clientId, clientId),
        eq(fiscalCounters.model, 65),
        eq(fiscalCounters.series, series),
      ),
    );
  return row?.next ?? 1;
}

export async function toSettings(db: Executor, row: SettingsRow): Promise<FiscalSettings> {
  return {
    enabled: row.enabled,
    environment: row.environment as FiscalEnvironment,
    cnpj: row.cnpj,
    ie: row.ie,
    legalName: row.legalName,
    tradeName: row.tradeName,
    crt: row.crt as FiscalSettings['crt'],
    uf: row.uf as Uf,
    cityCode: row.cityCode,
    cityName: row.cityName,
    street: row.street,
    streetNumber: row.streetNumber,
    district: row.district,
    zipCode: row.zipCode,
    series: row.series,
    nextNumber: await nextNumberOf(db, row.clientId, row.series),
    cscId: row.cscId,
    qrCodeVersion: row.qrCodeVersion === 3 ? 3 : 2,
    hasCsc: row.cscSealed !== '',
    defaults: { ...row.defaults, cClassTrib: row.defaults.cClassTrib ?? DEFAULT_CLASS_TRIB },
    ibsCbsMode: IBS_CBS_MODES.includes(row.ibsCbsMode as IbsCbsMode)
      ? (row.ibsCbsMode as IbsCbsMode)
      : 'auto',
    ibsCbsRates: row.ibsCbsRates ?? {},
    certificate:
      row.certificateSealed && row.certificateNotAfter && row.certificateNotBefore
        ? {
            holder: row.certificateHolder ?? '',
            cnpj: row.certificateCnpj ?? '',
            notBefore: new Date(row.certificateNotBefore).toISOString(),
            notAfter: new Date(row.certificateNotAfter).toISOString(),
          }
        : null,
    offlineContingency: stateRules(row.uf as Uf).offlineContingency,
  };
}

export async function getSettings(db: Executor, actor: Actor) {
  const row = await settingsRow(db, actor.clientId);
  return { settings: row ? await toSettings(db, row) : null };
}

export async function saveSettings(
  ctx: AppContext,
  actor: Actor,
  raw: FiscalSettingsInput,
): Promise<FiscalSettings> {
  const input = fiscalSettingsInputSchema.parse(raw);
  const { clientId } = actor;
  return ctx.db.transaction(async (tx) => {
    const current = await settingsRow(tx, clientId);
    if (input.enabled && !current?.certificateSealed)
      throw unprocessable(FISCAL_MESSAGES.noCertificate, [
        { path: 'enabled', message: FISCAL_MESSAGES.noCertificate },
      ]);
    // QR code v3 (NT 2025.001) needs no CSC.
    if (input.qrCodeVersion === 2 && !input.csc && !current?.cscSealed)
      throw unprocessable(FISCAL_MESSAGES.csc, [{ path: 'csc', message: FISCAL_MESSAGES.csc }]);
    if (current?.certificateCnpj && current.certificateCnpj.slice(0, 8) !== input.cnpj.slice(0, 8)) {
      const message = FISCAL_MESSAGES.certificateOtherCnpj(current.certificateCnpj, input.cnpj);
      throw unprocessable(message, [{ path: 'cnpj', message }]);
    }
    const cscSealed = input.csc ? boxOf(ctx).seal(input.csc) : (current?.cscSealed ?? '');
    const values = {
      clientId,
      enabled: input.enabled,
      environment: input.environment,
      cnpj: input.cnpj,
      ie: input.ie,
      legalName: input.legalName,
      tradeName: input.tradeName || null,
      crt: input.crt,
      uf: input.uf,
      cityCode: input.cityCode,
      cityName: input.cityName,
      street: input.street,
      streetNumber: input.streetNumber,
      district: input.district,
      zipCode: input.zipCode,
      series: input.series,
      cscId: input.cscId,
      cscSealed,
      qrCodeVersion: input.qrCodeVersion,
      defaults: input.defaults,
      ibsCbsMode: input.ibsCbsMode,
      ibsCbsRates: input.ibsCbsRates ?? current?.ibsCbsRates ?? {},
      // Kept while it stays on: the sweep (issue.ts, sweepFiscal) looks at sales since then.
      enabledAt: input.enabled
        ? current?.enabled && current.enabledAt
          ? current.enabledAt
          : sql`now()`
        : null,
      updatedAt: sql`now()`,
    };
    await tx
      .insert(fiscalSettings)
      .values(values)
      .onConflictDoUpdate({ target: fiscalSettings.clientId, set: values });
    // The next number: never below a number this series already used (no number given twice).
    const [used] = await tx
      .select({ max: sql<number | null>`max(${fiscalNotes.number})` })
      .from(fiscalNotes)
      .where(
        and(
          eq(fiscalNotes.clientId, clientId),
          eq(fiscalNotes.model, 65),
          eq(fiscalNotes.series, input.series),
        ),
      );
    const maxUsed = Number(used?.max ?? 0);
    if (input.nextNumber <= maxUsed) {
      const message = `O número ${maxUsed} da série ${input.series} já foi usado: o próximo número deve ser maior.`;
      throw conflict(message, [{ path: 'nextNumber', message }]);
    }
    await tx
      .insert(fiscalCounters)
      .values({ clientId, model: 65, series: input.series, nextNumber: input.nextNumber })
      .onConflictDoUpdate({
        target: [fiscalCounters.clientId, fiscalCounters.model, fiscalCounters.series],
        set: { nextNumber: input.nextNumber },
      });
    const saved = await settingsRow(tx, clientId);
    return toSettings(tx, saved as SettingsRow);
  });
}

export async function uploadCertificate(
  ctx: AppContext,
  actor: Actor,
  input: { pfxBase64: string; password: string },
): Promise<FiscalSettings> {
  const row = await settingsRow(ctx.db, actor.clientId);
  if (!row)
    throw unprocessable(FISCAL_MESSAGES.settingsFirst, [
      { path: 'pfxBase64', message: FISCAL_MESSAGES.settingsFirst },
    ]);
  const a1 = readA1(input.pfxBase64, input.password);
  // SEFAZ checks the CNPJ base (rejection 213): a branch may sign with its head office's e-CNPJ.
  if (a1.cnpj.slice(0, 8) !== row.cnpj.slice(0, 8)) {
    const message = FISCAL_MESSAGES.certificateOtherCnpj(a1.cnpj, row.cnpj);
    throw unprocessable(message, [{ path: 'pfxBase64', message }]);
  }
  if (a1.notAfter.getTime() < Date.now()) {
    const [client] = await ctx.db
      .select({ timeZone: clients.timeZone })
      .from(clients)
      .where(eq(clients.id, actor.clientId));
    const message = FISCAL_MESSAGES.certificateExpired(
      formatInZone(a1.notAfter.toISOString(), client?.timeZone ?? 'America/Sao_Paulo', 'date'),
    );
    throw unprocessable(message, [{ path: 'pfxBase64', message }]);
  }
  const sealed = boxOf(ctx).seal({ pfxBase64: input.pfxBase64, password: input.password });
  await ctx.db
    .update(fiscalSettings)
    .set({
      certificateSealed: sealed,
      certificateHolder: a1.holder,
      certificateCnpj: a1.cnpj,
      certificateNotBefore: a1.notBefore.toISOString(),
      certificateNotAfter: a1.notAfter.toISOString(),
      updatedAt: sql`now()`,
    })
    .where(eq(fiscalSettings.clientId, actor.clientId));
  a1Cache.delete(actor.clientId);
  return toSettings(ctx.db, (await settingsRow(ctx.db, actor.clientId)) as SettingsRow);
}

/** Opened certificates by client, keyed by the sealed text (a new upload is a new entry). */
const a1Cache = new Map<number, { sealed: string; a1: A1; id: string }>();

export function openA1(ctx: AppContext, row: SettingsRow): { a1: A1; id: string } {
  const cached = a1Cache.get(row.clientId);
  if (cached && cached.sealed === row.certificateSealed) return cached;
  const stored = boxOf(ctx).open<{ pfxBase64: string; password: string }>(row.certificateSealed);
  if (!stored) throw unprocessable(FISCAL_MESSAGES.noCertificate);
  const a1 = readA1(stored.pfxBase64, stored.password);
  const entry = {
    sealed: row.certificateSealed,
    a1,
    id: createHash('sha256').update(row.certificateSealed).digest('hex').slice(0, 16),
  };
  a1Cache.set(row.clientId, entry);
  return entry;
}

export const openCsc = (ctx: AppContext, row: SettingsRow) => boxOf(ctx).open<string>(row.cscSealed) ?? '';

// ---------------------------------------------------------------------------------------------
// Notes

type NoteRow = typeof fiscalNotes.$inferSelect;

export function toNote(row: NoteRow & { saleNumber?: number | null }): FiscalNote {
  const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);
  return {
    id: row.id,
    saleId: row.saleId,
    saleNumber: row.saleNumber ?? null,
    series: row.series,
    number: row.number,
    accessKey: row.accessKey,
    status: row.status as FiscalNote['status'],
    tpEmis: row.tpEmis,
    environment: row.environment as FiscalEnvironment,
    totalCents: row.totalCents,
    consumerDocument: row.consumerDocument,
    protocol: row.protocol,
    statusCode: row.statusCode,
    statusText: row.statusText,
    qrCodeUrl: row.qrCodeUrl,
    transmitBy: iso(row.transmitBy),
    createdAt: iso(row.createdAt) as string,
    authorisedAt: iso(row.authorisedAt),
  };
}

export async function listNotes(db: Executor, actor: Actor) {
  const rows = await db
    .select()
    .from(fiscalNotes)
    .where(eq(fiscalNotes.clientId, actor.clientId))
    .orderBy(desc(fiscalNotes.id))
    .limit(200);
  return { notes: rows.map(toNote) };
}

export async function noteRow(db: Executor, actor: Actor, id: number): Promise<NoteRow> {
  const [row] = await db
    .select()
    .from(fiscalNotes)
    .where(and(eq(fiscalNotes.clientId, actor.clientId), eq(fiscalNotes.id, id)));
  if (!row) throw notFound(FISCAL_MESSAGES.notFound);
  return row;
}

export async function noteOfSale(db: Executor, actor: Actor, saleId: number) {
  const [row] = await db
    .select()
    .from(fiscalNotes)
    .where(and(eq(fiscalNotes.clientId, actor.clientId), eq(fiscalNotes.saleId, saleId)));
  return { note: row ? toNote(row) : null };
}

// ---------------------------------------------------------------------------------------------
// Product fiscal fields

export async function productFiscal(db: Db | Executor, actor: Actor, productId: number) {
  await findProduct(db, actor, productId); // 404 for another shop's or a missing product
  const [own] = await db
    .select({ fields: fiscalProductFields.fields })
    .from(fiscalProductFields)
    .where(
      and(eq(fiscalProductFields.clientId, actor.clientId), eq(fiscalProductFields.productId, productId)),
    );
  const settings = await settingsRow(db, actor.clientId);
  const defaults = settings?.defaults
    ? { ...settings.defaults, cClassTrib: settings.defaults.cClassTrib ?? DEFAULT_CLASS_TRIB }
    : null;
  return { fields: own?.fields ?? null, defaults };
}

export async function saveProductFiscal(
  db: Executor,
  actor: Actor,
  productId: number,
  raw: ProductFiscalOverride | null,
) {
  await findProduct(db, actor, productId);
  const fields = raw && Object.values(raw).some((v) => v !== undefined) ? raw : null;
  if (fields === null) {
    await db
      .delete(fiscalProductFields)
      .where(
        and(eq(fiscalProductFields.clientId, actor.clientId), eq(fiscalProductFields.productId, productId)),
      );
  } else {
    await db
      .insert(fiscalProductFields)
      .values({ clientId: actor.clientId, productId, fields })
      .onConflictDoUpdate({
        target: [fiscalProductFields.clientId, fiscalProductFields.productId],
        set: { fields },
      });
  }
  return productFiscal(db, actor, productId);
}

/**
 * The product import's fiscal columns (issue 32): each product's given fields are merged over what it
 * had (jsonb ||), in the import's transaction.
 */
export async function mergeProductFiscal(
  tx: Executor,
  clientId: number,
  rows: { productId: number; fields: ProductFiscalOverride }[],
) {
  if (rows.length === 0) return;
  await tx
    .insert(fiscalProductFields)
    .values(rows.map((r) => ({ clientId, productId: r.productId, fields: r.fields })))
    .onConflictDoUpdate({
      target: [fiscalProductFields.clientId, fiscalProductFields.productId],
      set: { fields: sql`${fiscalProductFields.fields} || excluded.fields` },
    });
}

/** The own fiscal fields of a sale's products (fiscalWithDefaults completes them). */
export async function fieldsOfProducts(
  db: Executor,
  clientId: number,
  productIds: number[],
): Promise<Map<number, ProductFiscalOverride>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ productId: fiscalProductFields.productId, fields: fiscalProductFields.fields })
    .from(fiscalProductFields)
    .where(
      sql`${fiscalProductFields.clientId} = ${clientId} and ${fiscalProductFields.productId} in (${sql.join(
        productIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  return new Map(rows.map((r) => [r.productId, r.fields]));
}

/** Days before the A1's expiry the bell starts warning, once a day (issue 32). */
export const CERTIFICATE_WARN_DAYS = 30;

/**
 * The certificate's bell (the daily job): each shop whose A1 ends within 30 days (or has ended) is
 * warned once a day - the UPDATE that records the day is the claim, so two instances or a repeated
 * run never ring twice the same day.
 */
export async function warnExpiringCertificates(
  ctx: AppContext,
  now = new Date(),
): Promise<{ warned: number }> {
  const today = now.toISOString().slice(0, 10);
  const result = (await ctx.db.execute(sql`
    update fiscal_settings f set certificate_warned_on = ${today}
    from clients c
    where c.id = f.client_id
      and f.certificate_sealed <> ''
      and f.certificate_not_after is not null
      and f.certificate_not_after < ${now.toISOString()}::timestamptz + ${`${CERTIFICATE_WARN_DAYS} days`}::interval
      and f.certificate_not_after > ${now.toISOString()}::timestamptz - interval '30 days'
      and (f.certificate_warned_on is null or f.certificate_warned_on <> ${today})
    returning f.client_id, f.certificate_not_after as not_after, c.time_zone`)) as unknown as {
    rows: { client_id: number; not_after: string | Date; time_zone: string | null }[];
  };
  for (const row of result.rows) {
    const notAfter = new Date(row.not_after);
    const days = Math.ceil((notAfter.getTime() - now.getTime()) / 86_400_000);
    const date = formatInZone(notAfter, row.time_zone ?? 'America/Sao_Paulo', 'date');
    ctx.notify(Number(row.client_id), {
      message: FISCAL_MESSAGES.certificateExpiring(days, date),
      alertColor: days <= 7 ? 'error' : 'warning',
    });
  }
  return { warned: result.rows.length };
}

/**
 * A received NF-e (a supplier's, issue 34) checked against the official NF-e 4.00 schema (PL_010,
 * nfe_v4.00.xsd, the same compiled XSDs the notes the shop issues are checked with). `nfeXml` is the
 * NFe element with its namespace (taken out of the nfeProc). Null when valid, else the first error.
 */
export function receivedNfeSchemaIssue(nfeXml: string): Promise<SchemaIssue | null> {
  return validateSchema(nfeXml, 'nfe_v4.00.xsd');
}
