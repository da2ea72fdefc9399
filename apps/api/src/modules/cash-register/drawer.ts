import type { AppContext } from '../../context.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { kickDrawer } from '../printing/drawer.ts';
import { cashDrawerOpenings } from './schema.ts';

export type DrawerReason = 'sale' | 'withdrawal' | 'manual';

export const NO_DRAWER =
  'Nenhum agente de impressão abre a gaveta: pareie um agente para o perfil do cupom em Configurações > Impressoras';

/**
 * Opens the cash drawer of a register (issue 36) and logs it on the register: after a cash sale, a
 * sangria, or "Abrir gaveta". `key` makes it once per sale, movement or click (the kick's print job
 * and the log share it). False when there is no drawer to open (no agent for the receipt profile).
 */
export async function kickAndLog(
  ctx: AppContext,
  session: Pick<SessionUser, 'clientId' | 'userId'>,
  registerId: number,
  reason: DrawerReason,
  key: string,
): Promise<boolean> {
  const kick = await kickDrawer(ctx, session, `drawer-${key}`);
  if (!kick) return false;
  await ctx.db
    .insert(cashDrawerOpenings)
    .values({
      clientId: session.clientId,
      cashRegisterId: registerId,
      userId: session.userId,
      reason,
      key,
      printJobId: kick.jobId,
    })
    .onConflictDoNothing();
  ctx.changed(session.clientId, 'cash-register', registerId);
  return true;
}
