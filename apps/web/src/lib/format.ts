import { todayIso } from '@balcao/core/date';

/**
 * Dates and times as the shop reads them: always in the shop's time zone (a client setting, default
 * America/Sao_Paulo), whatever the browser's. The session provider calls `setShopTimeZone` with
 * `user.client.timeZone` when the session loads or changes.
 */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

let zone = DEFAULT_TIME_ZONE;
let formatters = makeFormatters(zone);

function makeFormatters(timeZone: string) {
  return {
    dateTime: new Intl.DateTimeFormat('pt-BR', { timeZone, dateStyle: 'short', timeStyle: 'short' }),
    date: new Intl.DateTimeFormat('pt-BR', { timeZone, dateStyle: 'short' }),
    time: new Intl.DateTimeFormat('pt-BR', { timeZone, hour: '2-digit', minute: '2-digit' }),
  };
}

/** Sets the zone every date and time is shown in; an unknown zone keeps the default. */
export function setShopTimeZone(timeZone: string = DEFAULT_TIME_ZONE) {
  if (timeZone === zone) return;
  try {
    formatters = makeFormatters(timeZone);
    zone = timeZone;
  } catch {
    formatters = makeFormatters(DEFAULT_TIME_ZONE);
    zone = DEFAULT_TIME_ZONE;
  }
}

export const shopTimeZone = () => zone;

const toDate = (at: string | Date) => (typeof at === 'string' ? new Date(at) : at);

/** An API timestamp in the shop's time zone: "05/01/2026, 09:05". */
export const formatDateTime = (at: string | Date) => formatters.dateTime.format(toDate(at));

/** The date alone in the shop's time zone: "05/01/2026". */
export const formatDate = (at: string | Date) => formatters.date.format(toDate(at));

/** The time alone in the shop's time zone: "09:05". */
export const formatTime = (at: string | Date) => formatters.time.format(toDate(at));

/** The shop's calendar date now, as YYYY-MM-DD. */
export const shopToday = () => todayIso(new Date(), zone);
