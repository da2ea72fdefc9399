import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { secretBox } from '../../lib/secrets.ts';
import {
  loadAccount,
  type MelhorEnvioSecrets,
  type MelhorEnvioStored,
  melhorEnvioHosts,
  saveMelhorEnvioTokens,
} from './carrierAccounts.ts';
import { CarrierError } from './carrierHttp.ts';
import { melhorEnvioToken } from './melhorEnvio.ts';
import { carrierAccounts } from './schema.ts';

/**
 * Melhor Envio OAuth tokens kept alive (issue 31 item 16): the access token lasts 30 days and the
 * refresh token 45; a shop that quotes rarely would otherwise have to authorize again. A background
 * job (jobs.ts) refreshes every connected account whose access token ends within `REFRESH_AHEAD_MS`
 * (day 25 of 30: far from the refresh token's 45 days). When the carrier refuses the refresh token,
 * or the access token is about to end and the carrier cannot be reached, the shop is warned in the
 * bell (ctx.notify) with what to do. A refused refresh token is dropped (it will never work again),
 * so the warning is given once.
 */

const REFRESH_AHEAD_MS = 5 * 24 * 60 * 60_000;
/** An unreachable carrier is only worth a warning when the access token ends within this. */
const WARN_UNREACHABLE_MS = 24 * 60 * 60_000;

export const ME_RECONNECT_WARNING =
  'O acesso ao Melhor Envio expirou e não foi possível renová-lo. Conecte novamente em Configurações > Melhor Envio.';
export const ME_REFRESH_UNREACHABLE_WARNING =
  'Não foi possível renovar o acesso ao Melhor Envio, que expira em breve. Tentaremos de novo; se continuar, conecte novamente em Configurações > Melhor Envio.';

export async function refreshMelhorEnvioTokens(
  ctx: Pick<AppContext, 'config' | 'notify'>,
  db: Executor,
): Promise<{ refreshed: number; failed: number }> {
  const { config } = ctx;
  if (!config.secretsKey) return { refreshed: 0, failed: 0 };
  const box = secretBox(config.secretsKey);
  const due = await db
    .select({ clientId: carrierAccounts.clientId, tokenExpiresAt: carrierAccounts.tokenExpiresAt })
    .from(carrierAccounts)
    .where(
      and(
        eq(carrierAccounts.carrier, 'melhor_envio'),
        eq(carrierAccounts.enabled, true),
        isNotNull(carrierAccounts.tokenExpiresAt),
        lt(carrierAccounts.tokenExpiresAt, new Date(Date.now() + REFRESH_AHEAD_MS)),
      ),
    );
  let refreshed = 0;
  let failed = 0;
  for (const { clientId, tokenExpiresAt } of due) {
    const account = await loadAccount<MelhorEnvioStored, MelhorEnvioSecrets>(
      db,
      clientId,
      'melhor_envio',
      box,
    );
    const { settings, secrets } = account;
    if (secrets.connection !== 'oauth' || !secrets.refreshToken) continue;
    try {
      const tokens = await melhorEnvioToken(
        melhorEnvioHosts(config.shipping, settings).oauthUrl,
        settings.userAgent || config.shipping.userAgent,
        {
          grant_type: 'refresh_token',
          refresh_token: secrets.refreshToken,
          client_id: settings.clientId,
          client_secret: secrets.clientSecret ?? '',
        },
        AbortSignal.timeout(config.shipping.carrierTimeoutMs),
      );
      await saveMelhorEnvioTokens(db, clientId, box, tokens);
      refreshed++;
    } catch (error) {
      if (!(error instanceof CarrierError)) throw error;
      failed++;
      // A quote may have refreshed it meanwhile (the refresh token is used once): nothing to say.
      const [now] = await db
        .select({ tokenExpiresAt: carrierAccounts.tokenExpiresAt })
        .from(carrierAccounts)
        .where(and(eq(carrierAccounts.clientId, clientId), eq(carrierAccounts.carrier, 'melhor_envio')));
      if (now?.tokenExpiresAt?.getTime() !== tokenExpiresAt?.getTime()) continue;
      if (error.kind === 'auth') {
        await dropRefreshToken(db, clientId, box, secrets);
        ctx.notify(clientId, { message: ME_RECONNECT_WARNING, alertColor: 'warning' });
      } else if ((tokenExpiresAt?.getTime() ?? 0) - Date.now() < WARN_UNREACHABLE_MS) {
        ctx.notify(clientId, { message: ME_REFRESH_UNREACHABLE_WARNING, alertColor: 'warning' });
      }
    }
  }
  return { refreshed, failed };
}

/** The carrier refused the refresh token: it never works again, keep the access token while it lasts. */
async function dropRefreshToken(
  db: Executor,
  clientId: number,
  box: ReturnType<typeof secretBox>,
  secrets: MelhorEnvioSecrets,
) {
  await db
    .update(carrierAccounts)
    .set({ secrets: box.seal({ ...secrets, refreshToken: undefined }) })
    .where(and(eq(carrierAccounts.clientId, clientId), eq(carrierAccounts.carrier, 'melhor_envio')));
}
