/**
 * The session's time zone as the session provider hands it over (`user.client.timeZone`), kept apart
 * from lib/format.ts so /login's bundle, where the provider lives, does not carry core's time module.
 * Read it through `shopTimeZone()` (lib/format.ts), which checks it and falls back to the default.
 */
let sessionZone: string | undefined;

/** Sets the zone every date and time is shown in (undefined: the default zone). */
export function setShopTimeZone(timeZone?: string) {
  sessionZone = timeZone;
}

export const sessionTimeZone = () => sessionZone;
