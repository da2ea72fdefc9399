import { ACTION, can } from '@balcao/core/routes';
import { DEFAULT_DISCOUNT_LIMITS, type DiscountLimitedType } from '@balcao/core/settings';
import type { UserTypeId } from '@balcao/core/userTypes';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { systemSettings } from './schema.ts';

/**
 * What the settings module offers the sale: the discount limit of a user type (issue 12 point 9).
 * Approvers (ACTION.approve) have none; a limited type has the saved limit or the default.
 */

type DiscountLimitOfType = { line: number; sale: number } | null;

/**
 * The stored limit of a user type as a scalar subquery (jsonb `{line, sale}` or null): the
 * checkout's first statement selects it with the open register, so no statement is added.
 */
export function discountLimitSql(clientId: number, userTypeId: number): SQL {
  return sql`(select s.discount_limits -> ${String(userTypeId)} from system_settings s where s.client_id = ${clientId})`;
}

/** The limit that applies: null for approvers and types with no limit, else stored or default. */
export function effectiveDiscountLimit(userTypeId: UserTypeId, stored: unknown): DiscountLimitOfType {
  if (can(userTypeId, ACTION.approve)) return null;
  const fallback = DEFAULT_DISCOUNT_LIMITS[userTypeId as DiscountLimitedType] ?? null;
  if (!fallback) return null;
  const s = typeof stored === 'string' ? JSON.parse(stored) : stored;
  if (s && typeof s === 'object' && typeof s.line === 'number' && typeof s.sale === 'number') {
    return { line: s.line, sale: s.sale };
  }
  return fallback;
}

/** The session user's limit (the PDV shows it and asks for an approval before sending). */
export async function findDiscountLimit(
  db: Executor,
  actor: { clientId: number; userTypeId: UserTypeId },
): Promise<DiscountLimitOfType> {
  const [row] = await db
    .select({ limits: systemSettings.discountLimits })
    .from(systemSettings)
    .where(eq(systemSettings.clientId, actor.clientId));
  return effectiveDiscountLimit(actor.userTypeId, row?.limits?.[String(actor.userTypeId)]);
}
