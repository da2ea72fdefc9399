import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../lib/actor.ts';
import { printAgents, printingSettings } from './schema.ts';
import { enqueuePrintJob } from './service.ts';

/**
 * The cash drawer kick (issue 36): the drawer hangs on the receipt printer (its RJ11 port), so the
 * pulse (ESC p) goes as a `drawer` job to the receipt profile, and only a print agent takes it (a
 * browser would print it). Without an agent paired for that profile there is no drawer to open:
 * null, and no job waits for nothing.
 */
export async function kickDrawer(
  ctx: AppContext,
  actor: Actor,
  idempotencyKey: string,
): Promise<{ jobId: number } | null> {
  // One statement (it runs after every cash sale): the receipt profile, if a live agent prints it.
  const [found] = await ctx.db
    .select({ profileId: printingSettings.receiptProfileId })
    .from(printingSettings)
    .where(
      and(
        eq(printingSettings.clientId, actor.clientId),
        sql`exists (select 1 from ${printAgents} where ${printAgents.clientId} = ${actor.clientId}
          and ${printAgents.revokedAt} is null and ${printAgents.tokenHash} is not null
          and ${printAgents.profileIds} @> to_jsonb(${printingSettings.receiptProfileId}))`,
      ),
    );
  const profileId = found?.profileId;
  if (!profileId) return null;
  const { job } = await enqueuePrintJob(ctx, actor, {
    profileId,
    kind: 'drawer',
    payload: { title: 'Abertura de gaveta', lines: ['Abertura de gaveta'] },
    idempotencyKey,
  });
  return { jobId: job.id };
}
