import {
  type Coupon,
  type CouponEvaluation,
  type CouponInput,
  type CouponRuleCode,
  type DiscountType,
  evaluateCoupon,
  fromHundredths,
  toHundredths,
} from '@balcao/core/coupon';
import { CHANGES_MARGIN_MS, type Changes, type ChangesQueryParsed } from '@balcao/core/offline';
import type { Deleted } from '@balcao/core/responses';
import { and, asc, count, desc, eq, getTableColumns, gt, gte, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, duplicate, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { isSameVersion, mapUnique } from '../../lib/pg.ts';
import { shopTodaySql } from '../../lib/shopToday.ts';
import { assertNotStale, optionalVersionOf } from '../../lib/version.ts';
import { coupons, couponUses } from './schema.ts';

const COUPON_NOT_FOUND = 'Cupom não encontrado';
const COUPON_CODE_TAKEN = 'Já existe um cupom com este código';

type CouponRow = typeof coupons.$inferSelect;

/** Row -> the API's coupon (spec 3): decimal numbers for amounts, ISO text for timestamps. */
function toCoupon(row: CouponRow): Coupon {
  return {
    id: row.id,
    code: row.code,
    discountType: row.discountType as DiscountType,
    discountValue: fromHundredths(row.discountValueHundredths),
    startDate: row.startDate,
    endDate: row.endDate,
    isSingleUse: row.isSingleUse,
    maxUsesPerUser: row.maxUsesPerUser,
    minSaleAmount: fromHundredths(row.minSaleAmountCents),
    status: row.status as Coupon['status'],
    client: { id: row.clientId },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toColumns(input: CouponInput) {
  return {
    code: input.code,
    discountType: input.discountType,
    discountValueHundredths: toHundredths(input.discountValue),
    startDate: input.startDate,
    endDate: input.endDate,
    isSingleUse: input.isSingleUse,
    maxUsesPerUser: input.maxUsesPerUser,
    minSaleAmountCents: toHundredths(input.minSaleAmount),
    status: input.status,
  };
}

const notDeleted = ne(coupons.status, 'deleted');
const sameCode = (code: string) => eq(sql`lower(${coupons.code})`, code.toLowerCase());

/** The partial unique index answers a save that raced past the check with the same 409. */
const UNIQUE = { coupons_client_code_uq: COUPON_CODE_TAKEN };

async function assertCodeFree(db: Executor, clientId: number, code: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: coupons.id })
    .from(coupons)
    .where(
      and(
        eq(coupons.clientId, clientId),
        sameCode(code),
        notDeleted,
        exceptId ? ne(coupons.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw duplicate(COUPON_CODE_TAKEN);
}

/** The client's coupons that are not deleted, newest first (spec 7: a plain array). */
export async function listCoupons(db: Executor, actor: Actor): Promise<Coupon[]> {
  const rows = await db
    .select()
    .from(coupons)
    .where(and(eq(coupons.clientId, actor.clientId), notDeleted))
    .orderBy(desc(coupons.createdAt), desc(coupons.id));
  return rows.map(toCoupon);
}

async function findRow(db: Executor, clientId: number, id: number, lock = false): Promise<CouponRow> {
  const query = db
    .select()
    .from(coupons)
    .where(and(eq(coupons.id, id), eq(coupons.clientId, clientId), notDeleted))
    .limit(1);
  // NO KEY UPDATE: serializes the uses without waiting for (or deadlocking with) the foreign-key
  // checks of rows that point at the coupon, which a sale inserts before it locks the coupon.
  const [row] = lock ? await query.for('no key update') : await query;
  if (!row) throw notFound(COUPON_NOT_FOUND);
  return row;
}

/** One coupon of the client; 404 when it is another client's, deleted or unknown. */
export async function findCoupon(db: Executor, actor: Actor, id: number): Promise<Coupon> {
  return toCoupon(await findRow(db, actor.clientId, id));
}

export async function createCoupon(db: Db, actor: Actor, input: CouponInput): Promise<Coupon> {
  await assertCodeFree(db, actor.clientId, input.code);
  const [row] = await mapUnique(
    () =>
      db
        .insert(coupons)
        .values({ ...toColumns(input), clientId: actor.clientId })
        .returning(),
    UNIQUE,
  );
  return toCoupon(row);
}

/** Updates a coupon; `input.updatedAt` is required and must match the record (else 409: a stale edit). */
/**
 * Updates a coupon with the create's payload (spec 7). With a version (the body's updatedAt or an
 * If-Match header) a stale copy gets 409; without one the update is taken (last write wins).
 */
export async function updateCoupon(
  db: Db,
  actor: Actor,
  id: number,
  input: CouponInput,
  ifMatch?: string,
): Promise<Coupon> {
  const version = optionalVersionOf(input.updatedAt, ifMatch);
  return mapUnique(
    () =>
      db.transaction(async (tx) => {
        await findRow(tx, actor.clientId, id, true);
        await assertCodeFree(tx, actor.clientId, input.code, id);
        const updated = await tx
          .update(coupons)
          .set({ ...toColumns(input), updatedAt: new Date() })
          .where(
            and(eq(coupons.id, id), version === null ? undefined : isSameVersion(coupons.updatedAt, version)),
          )
          .returning();
        assertNotStale(updated);
        return toCoupon(updated[0]);
      }),
    UNIQUE,
  );
}

/** Soft delete (PRODUCT.md): status deleted, kept for the sales that used it, no longer listed. */
export async function deleteCoupon(db: Executor, actor: Actor, id: number): Promise<Deleted> {
  const [row] = await db
    .update(coupons)
    .set({ status: 'deleted', updatedAt: new Date() })
    .where(and(eq(coupons.id, id), eq(coupons.clientId, actor.clientId), notDeleted))
    .returning({ id: coupons.id });
  if (!row) throw notFound(COUPON_NOT_FOUND);
  return { id: row.id };
}

// ---------------------------------------------------------------------------------------------------
// Coupons at sale

export type CouponSaleRequest = {
  code: string;
  subtotalCents: number;
  customerId?: number | null;
  /** The shop's date; defaults to today in the shop's time zone (read with the coupon). */
  today?: string;
};

export type AppliedCoupon = { coupon: Coupon; discountCents: number };

/** Uses of a coupon that count (sales not canceled): by anybody, and by the customer when given. */
async function countCouponUses(
  db: Executor,
  couponId: number,
  customerId: number | null | undefined,
): Promise<{ usesTotal: number; usesByCustomer: number }> {
  const [row] = await db
    .select({
      usesTotal: count(),
      usesByCustomer:
        customerId == null
          ? sql<number>`0`
          : sql<number>`count(*) filter (where ${couponUses.customerId} = ${customerId})`,
    })
    .from(couponUses)
    .where(and(eq(couponUses.couponId, couponId), isNull(couponUses.canceledAt)));
  return { usesTotal: Number(row.usesTotal), usesByCustomer: Number(row.usesByCustomer) };
}

/** The coupon of a code, with the shop's date (its time zone) read in the same statement. */
async function findByCode(
  db: Executor,
  clientId: number,
  code: string,
  lock: boolean,
): Promise<CouponRow & { shopToday: string }> {
  const query = db
    .select({ ...getTableColumns(coupons), shopToday: sql<string>`${shopTodaySql(clientId)}::text` })
    .from(coupons)
    .where(and(eq(coupons.clientId, clientId), sameCode(code.trim()), notDeleted))
    .limit(1);
  // NO KEY UPDATE: serializes the uses without waiting for (or deadlocking with) the foreign-key
  // checks of rows that point at the coupon, which a sale inserts before it locks the coupon.
  const [row] = lock ? await query.for('no key update') : await query;
  if (!row) throw notFound(COUPON_NOT_FOUND);
  return row;
}

/** Single-use or limited per customer: the only rules that depend on the uses recorded so far. */
export const hasUseLimit = (coupon: Coupon) => coupon.isSingleUse || coupon.maxUsesPerUser > 0;

async function evaluateRow(
  db: Executor,
  { shopToday, ...row }: CouponRow & { shopToday: string },
  request: CouponSaleRequest,
) {
  const coupon = toCoupon(row);
  // A coupon without use limits needs no count (one query less on every sale that uses it).
  const uses = hasUseLimit(coupon)
    ? await countCouponUses(db, row.id, request.customerId)
    : { usesTotal: 0, usesByCustomer: 0 };
  const evaluation = evaluateCoupon(coupon, {
    subtotalCents: request.subtotalCents,
    customerId: request.customerId ?? null,
    ...uses,
    today: request.today ?? shopToday,
  });
  return { coupon, evaluation };
}

/** A refused coupon as an API error: the Portuguese reason as the message. */
class CouponRefused extends AppError {
  constructor(
    readonly rule: CouponRuleCode,
    reason: string,
    statusCode: 409 | 422,
  ) {
    super(statusCode, reason, [{ path: 'code', message: reason }]);
  }
}

function refused(evaluation: Extract<CouponEvaluation, { ok: false }>, statusCode: 409 | 422) {
  return new CouponRefused(evaluation.code, evaluation.reason, statusCode);
}

/** Rules that a concurrent sale can make fail between the check and the use. */
const USED_UP: readonly CouponRuleCode[] = ['single_use_used', 'per_user_limit'];

/**
 * Checks a code against a sale without recording anything: 404 or 422 (POST /v1/coupon/validate).
 * The checkout asks with `forSale`: a coupon already used up is then a 409, as when `useCoupon` finds
 * it used up under the lock.
 */
export async function checkCoupon(
  db: Executor,
  actor: Actor,
  request: CouponSaleRequest,
  options: { forSale?: boolean } = {},
): Promise<AppliedCoupon> {
  const row = await findByCode(db, actor.clientId, request.code, false);
  const { coupon, evaluation } = await evaluateRow(db, row, request);
  if (!evaluation.ok)
    throw refused(evaluation, options.forSale && USED_UP.includes(evaluation.code) ? 409 : 422);
  return { coupon, discountCents: evaluation.discountCents };
}

/**
 * For the sale checkout, inside its transaction, after the sale's own rows (the coupon row is then
 * held the shortest): records the use. `checked` is what `checkCoupon` answered earlier in the same
 * transaction. A coupon with use limits (single use, per customer) is locked (SELECT ... FOR NO KEY UPDATE)
 * and every rule is checked again against the uses recorded so far: two sales racing for a single-use
 * coupon, the second waits for the first's commit, then sees its use and gets 409. A coupon without
 * limits is not locked (the uses do not change its answer), so any number of tills use it at once.
 * Unknown code 404, other refusals 422. Returns the discount and the use id.
 */
export async function useCoupon(
  tx: Executor,
  actor: Actor,
  request: CouponSaleRequest & { saleId?: number | null },
  checked?: AppliedCoupon,
): Promise<AppliedCoupon & { useId: number }> {
  const clientId = actor.clientId;
  let applied = checked;
  if (!applied || hasUseLimit(applied.coupon)) {
    const row = await findByCode(tx, clientId, request.code, true);
    const { coupon, evaluation } = await evaluateRow(tx, row, request);
    if (!evaluation.ok) throw refused(evaluation, USED_UP.includes(evaluation.code) ? 409 : 422);
    applied = { coupon, discountCents: evaluation.discountCents };
  }
  const [use] = await tx
    .insert(couponUses)
    .values({
      couponId: applied.coupon.id,
      clientId,
      saleId: request.saleId ?? null,
      customerId: request.customerId ?? null,
      discountCents: applied.discountCents,
    })
    .returning({ id: couponUses.id });
  return { ...applied, useId: use.id };
}

/** A canceled sale frees its coupon use (PRODUCT.md): the use stays recorded but no longer counts. */
export async function cancelCouponUses(tx: Executor, actor: Actor, saleId: number): Promise<number> {
  const rows = await tx
    .update(couponUses)
    .set({ canceledAt: new Date() })
    .where(
      and(
        eq(couponUses.clientId, actor.clientId),
        eq(couponUses.saleId, saleId),
        isNull(couponUses.canceledAt),
      ),
    )
    .returning({ id: couponUses.id });
  return rows.length;
}

/**
 * GET /v1/coupon/changes (issue 21): the coupons changed since `since` (every one without it), deleted
 * ones included with their status (a delete is an update here), paged by id, for the PDV's local copy.
 */
export async function couponChanges(
  db: Executor,
  actor: Actor,
  query: ChangesQueryParsed,
): Promise<Changes<Coupon>> {
  const until = new Date();
  const since = query.since ? new Date(new Date(query.since).getTime() - CHANGES_MARGIN_MS) : null;
  const rows = await db
    .select()
    .from(coupons)
    .where(
      and(
        eq(coupons.clientId, actor.clientId),
        gt(coupons.id, query.afterId),
        since ? gte(coupons.updatedAt, since) : undefined,
      ),
    )
    .orderBy(asc(coupons.id))
    .limit(query.limit + 1);
  const items = rows.slice(0, query.limit);
  return {
    items: items.map(toCoupon),
    deletedIds: [],
    until: until.toISOString(),
    nextAfterId: rows.length > query.limit ? items[items.length - 1].id : null,
  };
}
