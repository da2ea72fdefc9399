/**
 * Calendar dates as ISO text (YYYY-MM-DD). A shop's "today" is the date in Brazil (America/Sao_Paulo),
 * the same on the server and in the browser, whatever the machine's time zone is.
 */

export const SHOP_TIME_ZONE = 'America/Sao_Paulo';

const isoFormats = new Map<string, Intl.DateTimeFormat>();
const isoInZone = (timeZone: string) => {
  let format = isoFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    isoFormats.set(timeZone, format);
  }
  return format;
};

/** The shop's date at `now` (default: the current instant) in its time zone, as YYYY-MM-DD. */
export function todayIso(now: Date = new Date(), timeZone: string = SHOP_TIME_ZONE): string {
  return isoInZone(timeZone).format(now);
}

/** True for a real calendar date written YYYY-MM-DD (no 2025-02-30). */
export function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** Adds whole days to an ISO date (negative goes back). */
export function addDays(iso: string, days: number): string {
  const [year, month, day] = iso.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** "2025-03-09" (or an ISO date-time, split at T) -> "09/03/2025". Empty for empty input. */
export function formatDateBr(iso: string | null | undefined): string {
  if (!iso) return '';
  const [date] = iso.split('T');
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}
