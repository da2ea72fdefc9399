/**
 * The shop's zone as a name: its default and the check, apart from the conversions of `time.ts` so
 * that the web's entry (the session sets the zone at login) carries no date code (/login's budget).
 */

/** A new shop's zone (and the zone before a session says otherwise). */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/** True when `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone.length > 0;
  } catch {
    return false;
  }
}
