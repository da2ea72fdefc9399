import { KDS_DEFAULTS } from '@balcao/core/kds';
import { type SQL, sql } from 'drizzle-orm';
import { kdsScreens, kdsSettings, printJobs } from './schema.ts';

/**
 * Issue 35: the print jobs a kitchen display holds back from the printer, as a condition on
 * `print_jobs`: a production ticket already bumped on its screen, or one of a sector whose screen
 * said it was alive within the shop's silence limit. A screen silent past the limit holds nothing:
 * the next hand-out (an enqueue, a station connecting, the delivery sweep) prints its tickets.
 */
export function heldByScreenSql(clientId: number): SQL {
  return sql`(${printJobs.readyAt} is not null or (${printJobs.kind} = 'ticket' and ${printJobs.sectorId} in (
    select ${kdsScreens.sectorId} from ${kdsScreens}
    where ${kdsScreens.clientId} = ${clientId}
      and ${kdsScreens.lastSeenAt} > now() - make_interval(secs => coalesce(
        (select ${kdsSettings.silenceSeconds} from ${kdsSettings} where ${kdsSettings.clientId} = ${clientId}),
        ${KDS_DEFAULTS.silenceSeconds})))))`;
}
