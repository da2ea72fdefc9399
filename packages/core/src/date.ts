/**
 * Calendar dates as ISO text (YYYY-MM-DD): arithmetic that needs no time zone and reads no clock.
 * A shop's "today", and every instant read on a shop's clock, is the time module (`time.ts`).
 */

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

const longDate = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'UTC',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
});

/** "2026-11-22" -> "domingo, 22 de novembro" (the calendar date as written, no zone involved). */
export function formatDateLong(iso: string): string {
  return longDate.format(new Date(`${iso}T12:00:00Z`));
}
