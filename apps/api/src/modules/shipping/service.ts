import type { Deleted } from '@balcao/core/responses';
import {
  computeDriverFee,
  computeShippingFee,
  type DeliveryQuote,
  type DeliveryQuoteInput,
  type DriverFeeMode,
  type FeeMode,
  type ShippingRuleSet,
  type ShippingSettingData,
} from '@balcao/core/shipping';
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { isSameVersion, mapUnique } from '../../lib/pg.ts';
import { assertNotStale, versionOf } from '../../lib/version.ts';
import type { Routing } from './routing.ts';
import { shippingSettings } from './schema.ts';

/**
 * Own delivery rule sets (issue 15): CRUD, the default one, and the freight of an address. The session
 * reads the rule sets through `findShippingSettings`; account creation makes the first one.
 */

const RULE_SET_NOT_FOUND = 'Regra de entrega não encontrada';
const DEFAULT_TAKEN =
  'Outra regra de entrega acabou de virar a padrão. Recarregue a página e tente novamente.';

type Row = typeof shippingSettings.$inferSelect;

function toRuleSet(row: Row): ShippingRuleSet {
  return {
    ...row,
    feeMode: row.feeMode as FeeMode,
    driverFeeMode: row.driverFeeMode as DriverFeeMode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toColumns(input: ShippingSettingData) {
  const { updatedAt: _version, ...columns } = input;
  return columns;
}

/** The client's rule sets, oldest first (the session takes the first; the default is flagged). */
export async function findShippingSettings(db: Executor, clientId: number): Promise<ShippingRuleSet[]> {
  const rows = await db
    .select()
    .from(shippingSettings)
    .where(eq(shippingSettings.clientId, clientId))
    .orderBy(asc(shippingSettings.id));
  return rows.map(toRuleSet);
}

/** A new shop's first rule set: a fixed fee of zero, the default. */
export async function createDefaultRuleSet(tx: Executor, clientId: number): Promise<void> {
  await tx.insert(shippingSettings).values({ clientId, name: 'Entrega padrão', isDefault: true });
}

async function findRow(db: Executor, clientId: number, id: number, lock = false): Promise<Row> {
  const query = db
    .select()
    .from(shippingSettings)
    .where(and(eq(shippingSettings.id, id), eq(shippingSettings.clientId, clientId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(RULE_SET_NOT_FOUND);
  return row;
}

export async function findRuleSet(db: Executor, actor: Actor, id: number): Promise<ShippingRuleSet> {
  return toRuleSet(await findRow(db, actor.clientId, id));
}

/** The rule set the PDV uses when none is picked: the default, else the first active one. */
export async function findDefaultRuleSet(db: Executor, clientId: number): Promise<ShippingRuleSet | null> {
  const [row] = await db
    .select()
    .from(shippingSettings)
    .where(and(eq(shippingSettings.clientId, clientId), eq(shippingSettings.active, true)))
    .orderBy(desc(shippingSettings.isDefault), asc(shippingSettings.id))
    .limit(1);
  return row ? toRuleSet(row) : null;
}

const UNIQUE = { shipping_settings_default_uq: DEFAULT_TAKEN };

/**
 * Keeps one default per shop: a rule set saved as the default takes it from the others; when the
 * default is switched off or removed, the first other active rule set becomes it.
 */
async function settleDefault(
  tx: Executor,
  clientId: number,
  savedId: number | null,
  savedIsDefault: boolean,
) {
  if (savedIsDefault && savedId !== null) {
    await tx
      .update(shippingSettings)
      .set({ isDefault: false })
      .where(
        and(
          eq(shippingSettings.clientId, clientId),
          eq(shippingSettings.isDefault, true),
          ne(shippingSettings.id, savedId),
        ),
      );
    return;
  }
  const [current] = await tx
    .select({ id: shippingSettings.id })
    .from(shippingSettings)
    .where(
      and(
        eq(shippingSettings.clientId, clientId),
        eq(shippingSettings.isDefault, true),
        eq(shippingSettings.active, true),
      ),
    )
    .limit(1);
  if (current) return;
  // No active default: the first active one takes it (a lone inactive default stays flagged).
  const [next] = await tx
    .select({ id: shippingSettings.id })
    .from(shippingSettings)
    .where(and(eq(shippingSettings.clientId, clientId), eq(shippingSettings.active, true)))
    .orderBy(asc(shippingSettings.id))
    .limit(1);
  if (!next) return;
  await tx
    .update(shippingSettings)
    .set({ isDefault: sql`${shippingSettings.id} = ${next.id}` })
    .where(eq(shippingSettings.clientId, clientId));
}

export async function createRuleSet(
  db: Db,
  actor: Actor,
  input: ShippingSettingData,
): Promise<ShippingRuleSet> {
  return mapUnique(
    () =>
      db.transaction(async (tx) => {
        const isDefault = input.isDefault && input.active;
        if (isDefault)
          await tx
            .update(shippingSettings)
            .set({ isDefault: false })
            .where(and(eq(shippingSettings.clientId, actor.clientId), eq(shippingSettings.isDefault, true)));
        const [row] = await tx
          .insert(shippingSettings)
          .values({ ...toColumns(input), isDefault, clientId: actor.clientId })
          .returning();
        await settleDefault(tx, actor.clientId, row.id, isDefault);
        return toRuleSet(await findRow(tx, actor.clientId, row.id));
      }),
    UNIQUE,
  );
}

/** Updates a rule set; `input.updatedAt` is required and must match (else 409: a stale edit). */
export async function updateRuleSet(
  db: Db,
  actor: Actor,
  id: number,
  input: ShippingSettingData,
): Promise<ShippingRuleSet> {
  const version = versionOf(input.updatedAt);
  return mapUnique(
    () =>
      db.transaction(async (tx) => {
        await findRow(tx, actor.clientId, id, true);
        const isDefault = input.isDefault && input.active;
        if (isDefault)
          await tx
            .update(shippingSettings)
            .set({ isDefault: false })
            .where(
              and(
                eq(shippingSettings.clientId, actor.clientId),
                eq(shippingSettings.isDefault, true),
                ne(shippingSettings.id, id),
              ),
            );
        const updated = await tx
          .update(shippingSettings)
          .set({ ...toColumns(input), isDefault, updatedAt: new Date() })
          .where(and(eq(shippingSettings.id, id), isSameVersion(shippingSettings.updatedAt, version)))
          .returning({ id: shippingSettings.id });
        assertNotStale(updated);
        await settleDefault(tx, actor.clientId, id, isDefault);
        return toRuleSet(await findRow(tx, actor.clientId, id));
      }),
    UNIQUE,
  );
}

export async function deleteRuleSet(db: Db, actor: Actor, id: number): Promise<Deleted> {
  return db.transaction(async (tx) => {
    await findRow(tx, actor.clientId, id, true);
    await tx.delete(shippingSettings).where(eq(shippingSettings.id, id));
    await settleDefault(tx, actor.clientId, null, false);
    return { id };
  });
}

/**
 * The own-delivery freight of an address (PDV's delivery step, the delivery panel): the rule set's
 * fee rule (core `computeShippingFee`), with the distance from the routing service for distance
 * tiers (or the one the operator typed when it cannot answer) and the driver's pay.
 */
export async function quoteDelivery(
  db: Executor,
  actor: Actor,
  input: DeliveryQuoteInput & { subtotalCents: number },
  routing: Routing,
): Promise<DeliveryQuote> {
  const rules = input.settingId
    ? await findRuleSet(db, actor, input.settingId)
    : await findDefaultRuleSet(db, actor.clientId);
  if (!rules) throw notFound('Nenhuma regra de entrega ativa. Cadastre uma em Configurações de entrega.');
  const address = input.address;
  let distanceKm: number | null = input.distanceKm ?? null;
  let distanceSource: DeliveryQuote['distanceSource'] = distanceKm == null ? 'none' : 'typed';
  const needsDistance = rules.feeMode === 'distance' || rules.driverFeeMode === 'per_km';
  if (needsDistance && distanceKm == null && address && rules.originZipCode) {
    distanceKm = await routing.distanceKm(rules.originZipCode, address);
    if (distanceKm != null) distanceSource = 'routing';
  }
  const result = computeShippingFee(rules, {
    subtotalCents: input.subtotalCents,
    neighborhood: address?.neighborhood,
    zipCode: address?.zipCode,
    distanceKm,
  });
  const driver = computeDriverFee(rules, { neighborhood: address?.neighborhood, distanceKm });
  const head = {
    settingId: rules.id,
    settingName: rules.name,
    distanceSource,
    driverFeeCents: driver?.feeCents ?? null,
  };
  if (!result.ok)
    return {
      ...head,
      ok: false,
      feeCents: null,
      timeMinutes: null,
      reason: result.message,
      code: result.code,
      free: false,
      distanceKm,
    };
  return {
    ...head,
    ok: true,
    feeCents: result.feeCents,
    timeMinutes: result.timeMinutes,
    reason: result.reason,
    code: 'ok',
    free: result.free,
    distanceKm: result.distanceKm ?? distanceKm,
  };
}
