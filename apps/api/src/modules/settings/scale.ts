import type { ScaleSettings } from '@balcao/core/scale/weighedLabel';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';

/**
 * The weighed-item label layout of the shop's scale (issue 36): on the client's row (a platform table),
 * so the product module prices weighed lines by the scale's rounding in the statement it runs anyway.
 */

export async function findScaleSettings(db: Executor, actor: Actor): Promise<ScaleSettings> {
  const [row] = await db
    .select({
      enabled: clients.scaleLabelEnabled,
      codeLength: clients.scaleCodeLength,
      content: clients.scaleLabelContent,
      rounding: clients.scaleRounding,
    })
    .from(clients)
    .where(eq(clients.id, actor.clientId));
  if (!row) throw notFound('Cliente não encontrado');
  return row as ScaleSettings;
}

export async function saveScaleSettings(
  ctx: AppContext,
  actor: Actor,
  input: ScaleSettings,
): Promise<ScaleSettings> {
  await ctx.db
    .update(clients)
    .set({
      scaleLabelEnabled: input.enabled,
      scaleCodeLength: input.codeLength,
      scaleLabelContent: input.content,
      scaleRounding: input.rounding,
      updatedAt: new Date(),
    })
    .where(eq(clients.id, actor.clientId));
  ctx.changed(actor.clientId, 'settings');
  return findScaleSettings(ctx.db, actor);
}
