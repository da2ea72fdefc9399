import { dateIn, formatInZone } from '@balcao/core/time';
import { setShopTimeZone, shopTimeZone } from './shopZone.ts';

export { setShopTimeZone, shopTimeZone };

/**
 * Dates and times as the shop reads them: always in the shop's time zone (the client setting the
 * session carries, `user.client.timeZone`), whatever the browser's. The session provider calls
 * `setShopTimeZone` with it when the session loads or changes; until then a new shop's default zone.
 * The conversions and the pt-BR styles are core's time module (`@balcao/core/time`).
 */

/** An API timestamp in the shop's time zone: "05/01/2026, 09:05". */
export const formatDateTime = (at: string | Date) => formatInZone(at, shopTimeZone());

/** The date alone in the shop's time zone: "05/01/2026". */
export const formatDate = (at: string | Date) => formatInZone(at, shopTimeZone(), 'date');

/** The time alone in the shop's time zone: "09:05". */
export const formatTime = (at: string | Date) => formatInZone(at, shopTimeZone(), 'time');

/** The shop's calendar date now, as YYYY-MM-DD. */
export const shopToday = () => dateIn(shopTimeZone());
