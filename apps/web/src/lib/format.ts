import { DEFAULT_TIME_ZONE, dateIn, formatInZone, isValidTimeZone } from '@balcao/core/time';
import { sessionTimeZone } from './shopZone.ts';

/**
 * Dates and times as the shop reads them: always in the shop's time zone (the client setting the
 * session carries, `user.client.timeZone`), whatever the browser's. The session provider hands it over
 * with `setShopTimeZone` (lib/shopZone.ts) when the session loads or changes; until then, or for a zone
 * this browser does not know, a new shop's default zone. The conversions and the pt-BR styles are
 * core's time module (`@balcao/core/time`).
 */
export { setShopTimeZone } from './shopZone.ts';

let checked: { given: string | undefined; zone: string } = { given: undefined, zone: DEFAULT_TIME_ZONE };

/** The shop's time zone (the session's, once checked). */
export function shopTimeZone(): string {
  const given = sessionTimeZone();
  if (given !== checked.given) {
    checked = { given, zone: given && isValidTimeZone(given) ? given : DEFAULT_TIME_ZONE };
  }
  return checked.zone;
}

/** An API timestamp in the shop's time zone: "05/01/2026, 09:05". */
export const formatDateTime = (at: string | Date) => formatInZone(at, shopTimeZone());

/** The date alone in the shop's time zone: "05/01/2026". */
export const formatDate = (at: string | Date) => formatInZone(at, shopTimeZone(), 'date');

/** The time alone in the shop's time zone: "09:05". */
export const formatTime = (at: string | Date) => formatInZone(at, shopTimeZone(), 'time');

/** The shop's calendar date now, as YYYY-MM-DD. */
export const shopToday = () => dateIn(shopTimeZone());
