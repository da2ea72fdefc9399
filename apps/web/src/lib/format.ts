import { DEFAULT_TIME_ZONE, dateIn, formatInZone, isValidTimeZone } from '@balcao/core/time';

/**
 * Dates and times as the shop reads them: always in the shop's time zone (the client setting the
 * session carries, `user.client.timeZone`), whatever the browser's. The session provider calls
 * `setShopTimeZone` with it when the session loads or changes; until then a new shop's default zone.
 * The conversions and the pt-BR styles are core's time module (`@balcao/core/time`).
 */
let zone = DEFAULT_TIME_ZONE;

/** Sets the zone every date and time is shown in; an unknown zone keeps the default. */
export function setShopTimeZone(timeZone: string = DEFAULT_TIME_ZONE) {
  if (timeZone === zone) return; // every session render calls it
  zone = isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
}

/** The shop's time zone (the session's). */
export const shopTimeZone = () => zone;

/** An API timestamp in the shop's time zone: "05/01/2026, 09:05". */
export const formatDateTime = (at: string | Date) => formatInZone(at, zone);

/** The date alone in the shop's time zone: "05/01/2026". */
export const formatDate = (at: string | Date) => formatInZone(at, zone, 'date');

/** The time alone in the shop's time zone: "09:05". */
export const formatTime = (at: string | Date) => formatInZone(at, zone, 'time');

/** The shop's calendar date now, as YYYY-MM-DD. */
export const shopToday = () => dateIn(zone);
