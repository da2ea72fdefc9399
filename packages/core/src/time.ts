/**
 * The shop's clock (issue 29): every conversion between an instant and a shop's wall clock, the shop's
 * "today" and every date shown or printed in pt-BR, for the API and the web. A shop's zone is its
 * IANA `time_zone` (the client setting; `user.client.timeZone` in the session): every function that
 * reads a wall clock takes it, none falls back to a zone of its own or the machine's. Calendar
 * arithmetic on YYYY-MM-DD texts, which needs no zone, is `date.ts`.
 *
 * Built on `Intl.DateTimeFormat` (the runtime's tz database, in Node and every browser): no date
 * library is kept for it, and the formatters are cached per zone and style.
 */

/**
 * A new shop's zone (the `clients.time_zone` column's default) and Balcão's own clock (its
 * subscription's billing dates). A shop's dates always use the shop's zone, never this.
 */
import { DEFAULT_TIME_ZONE, isValidTimeZone } from './timeZone.ts';

export { DEFAULT_TIME_ZONE, isValidTimeZone };

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const partsFormats = new Map<string, Intl.DateTimeFormat>();
function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(timeZone, format);
  }
  return format;
}

const instantOfInput = (at: Date | number | string) =>
  typeof at === 'number' ? at : typeof at === 'string' ? Date.parse(at) : at.getTime();

/**
 * The wall clock of an instant in `timeZone`, as the milliseconds of that clock's reading taken as if
 * it were UTC (seconds kept, milliseconds dropped): `new Date(wallTime(at, zone)).toISOString()` reads
 * the shop's date and time. The one instant -> wall-clock converter.
 */
export function wallTime(at: Date | number | string, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of partsFormat(timeZone).formatToParts(instantOfInput(at))) parts[p.type] = Number(p.value);
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The zone's offset at an instant, in milliseconds (wall clock minus UTC: -3 h in São Paulo). */
function offsetAt(instant: number, timeZone: string): number {
  return wallTime(instant, timeZone) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a wall-clock reading of `timeZone` happens (`wall` as `wallTime` gives it). A reading
 * the clock shows twice (a daylight saving fall-back) is its first instant; one it skips (a
 * spring-forward gap) moves forward by the gap, as a clock set by hand would. The one wall-clock ->
 * instant converter.
 */
export function instantAt(wall: number, timeZone: string): Date {
  const before = wall - offsetAt(wall - DAY, timeZone);
  const after = wall - offsetAt(wall + DAY, timeZone);
  const fits = (candidate: number) => wallTime(candidate, timeZone) === Math.floor(wall / 1000) * 1000;
  if (fits(Math.min(before, after))) return new Date(Math.min(before, after));
  if (fits(Math.max(before, after))) return new Date(Math.max(before, after));
  return new Date(before);
}

/** The shop's calendar date (YYYY-MM-DD) at `at`, by default now: the shop's "today". */
export function dateIn(timeZone: string, at: Date | number | string = new Date()): string {
  return new Date(wallTime(at, timeZone)).toISOString().slice(0, 10);
}

/** An instant -> "YYYY-MM-DDTHH:mm" on the shop's clock (a datetime-local input's value). */
export function isoToShopLocal(at: Date | number | string, timeZone: string): string {
  return new Date(wallTime(at, timeZone)).toISOString().slice(0, 16);
}

/** "2026-12-01T09:30" read on the shop's clock -> an ISO instant; null when not a date and time. */
export function shopLocalToIso(local: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const back = new Date(wall);
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  return instantAt(wall, timeZone).toISOString();
}

/**
 * How a date or time is written for people (pt-BR):
 * - `dateTime` "05/01/2026, 16:08" (screens, receipts, tickets)
 * - `date` "05/01/2026"
 * - `time` "16:08"
 * - `dayTime` "05/01, 16:08" (a delivery's promised time on the bag ticket)
 * - `sheet` "05/01/2026 16:08" (a CSV cell: no comma for spreadsheets to split on)
 */
type TimeStyle = 'dateTime' | 'date' | 'time' | 'dayTime' | 'sheet';

const STYLE_OPTIONS: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'short', timeStyle: 'short' },
  date: { dateStyle: 'short' },
  time: { hour: '2-digit', minute: '2-digit' },
  dayTime: { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' },
  sheet: { dateStyle: 'short', timeStyle: 'short' },
};

const styleFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant as the shop reads it, on its clock: `formatInZone(sale.createdAt, zone)` is
 * "05/01/2026, 16:08". Throws on a zone the runtime does not know (`isValidTimeZone`).
 */
export function formatInZone(
  at: Date | number | string,
  timeZone: string,
  style: TimeStyle = 'dateTime',
): string {
  const key = `${timeZone} ${style}`;
  let format = styleFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('pt-BR', { timeZone, ...STYLE_OPTIONS[style] });
    styleFormats.set(key, format);
  }
  const text = format.format(instantOfInput(at));
  return style === 'sheet' ? text.replace(',', '') : text;
}
