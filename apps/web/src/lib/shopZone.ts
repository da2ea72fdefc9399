import { DEFAULT_TIME_ZONE, isValidTimeZone } from '@balcao/core/timeZone';

/**
 * The zone every date and time is shown in: the shop's (the session's `user.client.timeZone`), set by
 * the session provider when the session loads or changes. Apart from `format.ts` so the entry that
 * /login loads carries no date code.
 */
let zone = DEFAULT_TIME_ZONE;

/** Sets the zone every date and time is shown in; an unknown zone keeps the default. */
export function setShopTimeZone(timeZone: string = DEFAULT_TIME_ZONE) {
  zone = isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
}

/** The shop's time zone (the session's). */
export const shopTimeZone = () => zone;
