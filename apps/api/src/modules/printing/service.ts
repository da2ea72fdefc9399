import type { KdsItem } from '@balcao/core/kds';
import {
  type PrintDocument,
  type PrinterProfile,
  type PrintingSettings,
  type PrintingSettingsInput,
  type PrintJob,
  type PrintJobKind,
  reprintDocument,
  type Sector,
  testPageDocument,
} from '@balcao/core/printing';
import { type AnyColumn, and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, conflict, invalid, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { isSameVersion } from '../../lib/pg.ts';
import { shopClock } from '../../lib/shopToday.ts';
import { assertNotStale, staleEdit, versionOf } from '../../lib/version.ts';
import { categoryService } from '../product-category/service.ts';
import { findReceiptShop } from '../settings/company.ts';
import { type ProfileRow, selectJobs, toPrintJob } from './jobRows.ts';
import { categorySectors, printerProfiles, printingSettings, printJobs, printSectors } from './schema.ts';
import { deliverWaitingJobs } from './stations.ts';

const PROFILE_NOT_FOUND = 'Perfil de impressora não encontrado';
const SECTOR_NOT_FOUND = 'Setor não encontrado';
const JOB_NOT_FOUND = 'Impressão não encontrada';
const SECTOR_WITHOUT_PROFILE = 'Este setor não tem impressora: escolha um perfil para ele';
const CATEGORY_NOT_FOUND = 'Categoria não encontrada';

function toProfile(row: ProfileRow): PrinterProfile {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    paperWidth: row.paperWidth as PrinterProfile['paperWidth'],
    columns: row.columns as PrinterProfile['columns'],
    codePage: row.codePage as PrinterProfile['codePage'],
    copies: row.copies,
    cut: row.cut,
  };
}

const active = (t: { deletedAt: AnyColumn }) => isNull(t.deletedAt);

async function activeProfiles(db: Executor, clientId: number): Promise<ProfileRow[]> {
  return db
    .select()
    .from(printerProfiles)
    .where(and(eq(printerProfiles.clientId, clientId), active(printerProfiles)))
    .orderBy(asc(printerProfiles.position), asc(printerProfiles.id));
}

/** GET /v1/printing/settings: the printer page (profiles, sectors with categories, receipt options). */
export async function getPrintingSettings(db: Executor, actor: Actor): Promise<PrintingSettings> {
  const { clientId } = actor;
  const [profiles, sectors, mappings, [settings]] = await Promise.all([
    activeProfiles(db, clientId),
    db
      .select()
      .from(printSectors)
      .where(and(eq(printSectors.clientId, clientId), active(printSectors)))
      .orderBy(asc(printSectors.position), asc(printSectors.id)),
    db
      .select()
      .from(categorySectors)
      .where(eq(categorySectors.clientId, clientId))
      .orderBy(asc(categorySectors.categoryId)),
    db
      .select({
        autoPrint: printingSettings.autoPrintReceipt,
        profileId: printingSettings.receiptProfileId,
        updatedAt: printingSettings.updatedAt,
        updatedById: printingSettings.updatedBy,
        updatedByName: users.name,
      })
      .from(printingSettings)
      .leftJoin(users, eq(users.id, printingSettings.updatedBy))
      .where(eq(printingSettings.clientId, clientId)),
  ]);
  const keyOf = new Map(profiles.map((p) => [p.id, p.key]));
  return {
    profiles: profiles.map(toProfile),
    sectors: sectors.map(
      (s): Sector => ({
        id: s.id,
        key: s.key,
        name: s.name,
        profileKey: s.profileId === null ? null : (keyOf.get(s.profileId) ?? null),
        categoryIds: mappings.filter((m) => m.sectorId === s.id).map((m) => m.categoryId),
      }),
    ),
    receipt: {
      autoPrint: settings?.autoPrint ?? false,
      profileKey: settings?.profileId ? (keyOf.get(settings.profileId) ?? null) : null,
    },
    updatedAt: settings ? settings.updatedAt.toISOString() : null,
    updatedBy:
      settings?.updatedById && settings.updatedByName
        ? { id: settings.updatedById, name: settings.updatedByName }
        : null,
  };
}

/**
 * PUT /v1/printing/settings: the whole page in one transaction. Profiles and sectors are matched by
 * key (new keys are created, missing ones removed: kept for their jobs, no longer listed); the
 * version is the settings row's updatedAt (required once the page was saved, 409 when stale).
 */
export async function savePrintingSettings(
  ctx: AppContext,
  actor: Actor,
  input: PrintingSettingsInput,
): Promise<PrintingSettings> {
  const { clientId } = actor;
  const categoryIds = [...new Set(input.sectors.flatMap((s) => s.categoryIds))];
  for (const id of categoryIds) {
    if (!(await categoryService.exists(ctx.db, actor, id))) {
      const index = input.sectors.findIndex((s) => s.categoryIds.includes(id));
      throw invalid(CATEGORY_NOT_FOUND, [
        { path: `sectors.${index}.categoryIds`, message: CATEGORY_NOT_FOUND },
      ]);
    }
  }
  await ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ updatedAt: printingSettings.updatedAt })
      .from(printingSettings)
      .where(eq(printingSettings.clientId, clientId))
      .for('update');
    if (current) {
      const version = versionOf(input.updatedAt ?? undefined);
      const same = await tx
        .select({ clientId: printingSettings.clientId })
        .from(printingSettings)
        .where(
          and(eq(printingSettings.clientId, clientId), isSameVersion(printingSettings.updatedAt, version)),
        );
      assertNotStale(same);
    } else {
      if (input.updatedAt) throw staleEdit();
      const [created] = await tx
        .insert(printingSettings)
        .values({ clientId, updatedBy: actor.userId })
        .onConflictDoNothing()
        .returning({ clientId: printingSettings.clientId });
      // Another first save committed meanwhile: this one was made on a copy without it.
      if (!created) throw staleEdit();
    }

    const now = new Date();
    const existing = await activeProfiles(tx, clientId);
    const profileIds = new Map<string, number>();
    for (const [position, p] of input.profiles.entries()) {
      const values = {
        name: p.name,
        paperWidth: p.paperWidth,
        columns: p.columns,
        codePage: p.codePage,
        copies: p.copies,
        cut: p.cut,
        position,
      };
      const found = existing.find((e) => e.key === p.key);
      if (found) {
        await tx.update(printerProfiles).set(values).where(eq(printerProfiles.id, found.id));
        profileIds.set(p.key, found.id);
      } else {
        const [row] = await tx
          .insert(printerProfiles)
          .values({ clientId, key: p.key, ...values })
          .returning({ id: printerProfiles.id });
        profileIds.set(p.key, row.id);
      }
    }
    const removedProfiles = existing.filter((e) => !profileIds.has(e.key)).map((e) => e.id);
    if (removedProfiles.length)
      await tx
        .update(printerProfiles)
        .set({ deletedAt: now })
        .where(inArray(printerProfiles.id, removedProfiles));

    const sectors = await tx
      .select()
      .from(printSectors)
      .where(and(eq(printSectors.clientId, clientId), active(printSectors)));
    const sectorIds = new Map<string, number>();
    for (const [position, s] of input.sectors.entries()) {
      const values = {
        name: s.name,
        profileId: s.profileKey === null ? null : (profileIds.get(s.profileKey) ?? null),
        position,
      };
      const found = sectors.find((e) => e.key === s.key);
      if (found) {
        await tx.update(printSectors).set(values).where(eq(printSectors.id, found.id));
        sectorIds.set(s.key, found.id);
      } else {
        const [row] = await tx
          .insert(printSectors)
          .values({ clientId, key: s.key, ...values })
          .returning({ id: printSectors.id });
        sectorIds.set(s.key, row.id);
      }
    }
    const removedSectors = sectors.filter((e) => !sectorIds.has(e.key)).map((e) => e.id);
    if (removedSectors.length)
      await tx.update(printSectors).set({ deletedAt: now }).where(inArray(printSectors.id, removedSectors));

    await tx.delete(categorySectors).where(eq(categorySectors.clientId, clientId));
    const mappings = input.sectors.flatMap((s) =>
      s.categoryIds.map((categoryId) => ({ clientId, categoryId, sectorId: sectorIds.get(s.key) as number })),
    );
    if (mappings.length) await tx.insert(categorySectors).values(mappings);

    await tx
      .update(printingSettings)
      .set({
        autoPrintReceipt: input.receipt.autoPrint,
        receiptProfileId:
          input.receipt.profileKey === null ? null : (profileIds.get(input.receipt.profileKey) ?? null),
        updatedBy: actor.userId,
        updatedAt: now,
      })
      .where(eq(printingSettings.clientId, clientId));
  });
  ctx.changed(clientId, 'printing');
  return getPrintingSettings(ctx.db, actor);
}

/** The sector a product category prints in (the comandas' kitchen tickets route by it), or null. */
export async function sectorOfCategory(
  db: Executor,
  actor: Actor,
  categoryId: number,
): Promise<number | null> {
  const [row] = await db
    .select({ sectorId: categorySectors.sectorId })
    .from(categorySectors)
    .where(and(eq(categorySectors.clientId, actor.clientId), eq(categorySectors.categoryId, categoryId)));
  return row?.sectorId ?? null;
}

// ---------------------------------------------------------------------------------------------
// Print jobs

export async function findPrintJob(db: Executor, actor: Actor, id: number): Promise<PrintJob> {
  const [row] = await selectJobs(db).where(and(eq(printJobs.clientId, actor.clientId), eq(printJobs.id, id)));
  if (!row) throw notFound(JOB_NOT_FOUND);
  return toPrintJob(row);
}

/** The shop's latest jobs (newest first); `mine` = only the ones the actor sent. */
export async function listPrintJobs(db: Executor, actor: Actor, mine: boolean): Promise<PrintJob[]> {
  const rows = await selectJobs(db)
    .where(
      and(eq(printJobs.clientId, actor.clientId), mine ? eq(printJobs.createdBy, actor.userId) : undefined),
    )
    .orderBy(desc(printJobs.id))
    .limit(50);
  const now = Date.now();
  return rows.map((row) => toPrintJob(row, now));
}

async function profileFor(
  db: Executor,
  clientId: number,
  target: { profileId?: number; sectorId?: number },
): Promise<{ profile: ProfileRow; sectorId: number | null }> {
  if (target.sectorId !== undefined) {
    const [sector] = await db
      .select({ profileId: printSectors.profileId })
      .from(printSectors)
      .where(
        and(eq(printSectors.clientId, clientId), eq(printSectors.id, target.sectorId), active(printSectors)),
      );
    if (!sector) throw notFound(SECTOR_NOT_FOUND);
    if (sector.profileId === null) throw new AppError(422, SECTOR_WITHOUT_PROFILE);
    return { profile: await profileById(db, clientId, sector.profileId), sectorId: target.sectorId };
  }
  return { profile: await profileById(db, clientId, target.profileId as number), sectorId: null };
}

async function profileById(db: Executor, clientId: number, id: number): Promise<ProfileRow> {
  const [profile] = await db
    .select()
    .from(printerProfiles)
    .where(and(eq(printerProfiles.clientId, clientId), eq(printerProfiles.id, id), active(printerProfiles)));
  if (!profile) throw notFound(PROFILE_NOT_FOUND);
  return profile;
}

type EnqueueInput = {
  profileId?: number;
  sectorId?: number;
  kind: PrintJobKind;
  payload: PrintDocument;
  idempotencyKey: string;
  reprintOf?: number;
  /** A production ticket's lines as data: the kitchen display's card (issue 35). */
  items?: KdsItem[];
};

/**
 * THE print job interface (test pages, reprints, the sale receipt, the comandas' kitchen tickets):
 * queues a job for a profile (or a sector's profile) under the sender's idempotency key, then hands
 * it to one connected station of that profile, if any. A retried send (same key) answers the same
 * job and prints nothing more; jobs that found no station wait and go to the first that connects.
 */
export async function enqueuePrintJob(
  ctx: AppContext,
  actor: Actor,
  input: EnqueueInput,
): Promise<{ job: PrintJob; replayed: boolean }> {
  const { clientId } = actor;
  const [existing] = await ctx.db
    .select({ id: printJobs.id })
    .from(printJobs)
    .where(and(eq(printJobs.clientId, clientId), eq(printJobs.idempotencyKey, input.idempotencyKey)));
  if (existing) return { job: await findPrintJob(ctx.db, actor, existing.id), replayed: true };

  const { profile, sectorId } = await profileFor(ctx.db, clientId, input);
  const payload = await withShopLogo(ctx.db, actor, input.kind, input.payload);
  const [inserted] = await ctx.db
    .insert(printJobs)
    .values({
      clientId,
      profileId: profile.id,
      sectorId,
      kind: input.kind,
      payload,
      idempotencyKey: input.idempotencyKey,
      reprintOf: input.reprintOf ?? null,
      items: input.items ?? null,
      createdBy: actor.userId,
    })
    .onConflictDoNothing()
    .returning({ id: printJobs.id });
  if (!inserted) {
    // Two sends with one key raced: the other insert won; answer its job.
    const [first] = await ctx.db
      .select({ id: printJobs.id })
      .from(printJobs)
      .where(and(eq(printJobs.clientId, clientId), eq(printJobs.idempotencyKey, input.idempotencyKey)));
    return { job: await findPrintJob(ctx.db, actor, first.id), replayed: true };
  }
  await deliverWaitingJobs(ctx, clientId);
  ctx.changed(clientId, 'print-job', inserted.id);
  return { job: await findPrintJob(ctx.db, actor, inserted.id), replayed: false };
}

/**
 * A receipt carries the shop's logo (the stored file's path, which the print agent prints as a raster
 * image); whatever logo a caller sent is replaced by the shop's own, and other kinds carry none. Only a
 * label job carries raw printer commands.
 */
async function withShopLogo(
  db: Executor,
  actor: Actor,
  kind: PrintJobKind,
  payload: PrintDocument,
): Promise<PrintDocument> {
  const { logo: _ignored, raw, ...document } = payload;
  // Raw printer commands belong to label jobs only.
  if (kind === 'label') return raw === undefined ? document : { ...document, raw };
  if (kind !== 'receipt') return document;
  const { logoUrl } = await findReceiptShop(db, actor);
  return logoUrl ? { ...document, logo: logoUrl } : document;
}

/** When each of these jobs was bumped "pronto" on its kitchen display (issue 35): the ready ones only. */
export async function readyTimesOf(db: Executor, actor: Actor, ids: number[]): Promise<Map<number, Date>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: printJobs.id, readyAt: printJobs.readyAt })
    .from(printJobs)
    .where(
      and(
        eq(printJobs.clientId, actor.clientId),
        inArray(printJobs.id, ids),
        sql`${printJobs.readyAt} is not null`,
      ),
    );
  return new Map(rows.map((r) => [r.id, r.readyAt as Date]));
}

/** A test page on a profile. */
export async function printTestPage(
  ctx: AppContext,
  actor: Actor,
  profileId: number,
  idempotencyKey: string,
) {
  const profile = await profileById(ctx.db, actor.clientId, profileId);
  const { timeZone } = await shopClock(ctx.db, actor.clientId);
  return enqueuePrintJob(ctx, actor, {
    profileId,
    kind: 'test',
    payload: testPageDocument(toProfile(profile), new Date(), timeZone),
    idempotencyKey,
  });
}

/** An explicit reprint: a new job with the same document marked REIMPRESSÃO, on the same profile. */
export async function reprintJob(ctx: AppContext, actor: Actor, id: number, idempotencyKey: string) {
  const original = await findPrintJob(ctx.db, actor, id);
  const target =
    original.sectorId !== null ? { sectorId: original.sectorId } : { profileId: original.profile.id };
  return enqueuePrintJob(ctx, actor, {
    ...target,
    kind: original.kind,
    payload: reprintDocument(original.payload, original.profile.columns),
    idempotencyKey,
    reprintOf: original.id,
  });
}

/**
 * Sends a failed or unconfirmed job again (to whichever station of its profile is connected). A job
 * already printed is not sent again (409: a new copy is a reprint).
 */
export async function retryPrintJob(ctx: AppContext, actor: Actor, id: number): Promise<PrintJob> {
  const job = await findPrintJob(ctx.db, actor, id);
  if (job.status === 'printed')
    throw conflict('Esta impressão já foi feita: use Reimprimir para outra cópia');
  if (job.status === 'sent')
    throw conflict('Esta impressão foi enviada há pouco: aguarde a confirmação da estação');
  await ctx.db
    .update(printJobs)
    .set({ status: 'pending', stationId: null, stationName: null, error: null, sentAt: null })
    .where(and(eq(printJobs.id, id), inArray(printJobs.status, ['pending', 'sent', 'failed'])));
  await deliverWaitingJobs(ctx, actor.clientId);
  ctx.changed(actor.clientId, 'print-job', id);
  return findPrintJob(ctx.db, actor, id);
}

/** A station confirms a job printed (again: answered as it is). */
export async function confirmPrinted(ctx: AppContext, actor: Actor, id: number): Promise<PrintJob> {
  const job = await findPrintJob(ctx.db, actor, id);
  if (job.status === 'printed') return job;
  if (job.status === 'pending') throw conflict('Esta impressão ainda não foi enviada a uma estação');
  await ctx.db
    .update(printJobs)
    .set({ status: 'printed', printedAt: new Date(), error: null })
    .where(and(eq(printJobs.id, id), sql`${printJobs.status} <> 'printed'`));
  ctx.changed(actor.clientId, 'print-job', id);
  return findPrintJob(ctx.db, actor, id);
}

/** A station says it could not print: the sender sees the error and may retry. */
export async function reportPrintFailure(
  ctx: AppContext,
  actor: Actor,
  id: number,
  error: string,
): Promise<PrintJob> {
  const job = await findPrintJob(ctx.db, actor, id);
  if (job.status === 'printed') throw conflict('Esta impressão já foi confirmada');
  if (job.status === 'pending') throw conflict('Esta impressão ainda não foi enviada a uma estação');
  await ctx.db
    .update(printJobs)
    .set({ status: 'failed', error: error || 'A estação não conseguiu imprimir' })
    .where(and(eq(printJobs.id, id), inArray(printJobs.status, ['sent', 'failed'])));
  ctx.changed(actor.clientId, 'print-job', id);
  return findPrintJob(ctx.db, actor, id);
}
