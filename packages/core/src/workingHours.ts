import { isIsoDate } from './date.ts';
import { instantAt, wallTime } from './time.ts';
import { z } from './zod.ts';

/**
 * Working hours (issue 14): per weekday several intervals (an interval whose end is not after its
 * start crosses midnight), exceptions by date (a holiday closed, a special day with its own
 * intervals) and a pause with a reason and an optional end. `openStatus` is the one rule that says
 * whether the shop is open at an instant, in the shop's time zone, and when that changes next.
 */

export const WEEKDAYS = ['Domingo', 'Segunda', 'Terça', 'Quarta', 'Quinta', 'Sexta', 'Sábado'] as const;
const WEEKDAYS_SHORT = ['dom', 'seg', 'ter', 'qua', 'qui', 'sex', 'sáb'] as const;

const WORKING_HOURS_MESSAGES = {
  time: 'Use o formato HH:MM (00:00 a 23:59)',
  sameTime: 'O início e o fim não podem ser iguais',
  overlap: 'Os horários do dia se sobrepõem',
  date: 'Data inválida',
  duplicateDate: 'Já existe uma exceção para esta data',
  pauseReason: 'Informe o motivo da pausa',
  pauseUntil: 'Data e hora de fim da pausa inválidas',
  tooMany: 'Use no máximo 6 horários por dia',
} as const;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of an HH:MM text. */
function minutesOf(time: string): number {
  const m = TIME.exec(time);
  if (!m) throw new Error(`invalid time ${time}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

const timeSchema = z.string().trim().regex(TIME, WORKING_HOURS_MESSAGES.time);

export const intervalSchema = z
  .object({ start: timeSchema, end: timeSchema })
  .refine((i) => i.start !== i.end, { message: WORKING_HOURS_MESSAGES.sameTime, path: ['end'] });
export type Interval = z.infer<typeof intervalSchema>;

/** [start, end) in minutes of the day; an end not after the start runs into the next day. */
function spanOf(interval: Interval): [number, number] {
  const start = minutesOf(interval.start);
  let end = minutesOf(interval.end);
  if (end <= start) end += 24 * 60;
  return [start, end];
}

/** The intervals of one day: at most 6, none overlapping another (a crossing one counts whole). */
const dayIntervalsSchema = z
  .array(intervalSchema)
  .max(6, WORKING_HOURS_MESSAGES.tooMany)
  .superRefine((intervals, ctx) => {
    const valid = intervals.filter((i) => TIME.test(i.start) && TIME.test(i.end) && i.start !== i.end);
    if (valid.length !== intervals.length) return;
    const spans = valid.map(spanOf).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) {
      if (spans[i][0] < spans[i - 1][1]) {
        ctx.addIssue({ code: 'custom', message: WORKING_HOURS_MESSAGES.overlap });
        return;
      }
    }
  });

const workingHoursExceptionSchema = z.object({
  date: z.string().trim().refine(isIsoDate, WORKING_HOURS_MESSAGES.date),
  /** Closed all day (a holiday); otherwise open only in `intervals`. */
  closed: z.boolean(),
  intervals: dayIntervalsSchema.default([]),
  note: z.string().trim().max(100, 'Use no máximo 100 caracteres').default(''),
});

const pauseSchema = z
  .object({
    paused: z.boolean(),
    reason: z.string().trim().max(200, 'Use no máximo 200 caracteres').default(''),
    /** ISO instant the pause ends; null: until switched off. */
    until: z
      .string()
      .trim()
      .nullish()
      .transform((v) => v || null)
      .refine((v) => v === null || !Number.isNaN(Date.parse(v)), WORKING_HOURS_MESSAGES.pauseUntil),
  })
  .superRefine((p, ctx) => {
    if (p.paused && p.reason.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: WORKING_HOURS_MESSAGES.pauseReason });
    }
  });

/** What the working-hours page saves. `weekly[0]` is Sunday. */
export const workingHoursInputSchema = z
  .object({
    weekly: z.array(dayIntervalsSchema).length(7),
    exceptions: z.array(workingHoursExceptionSchema).max(366).default([]),
    pause: pauseSchema,
    /** The version edited; null for the first save. */
    updatedAt: z.string().nullable().optional(),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.exceptions.forEach((e, i) => {
      if (seen.has(e.date)) {
        ctx.addIssue({
          code: 'custom',
          path: ['exceptions', i, 'date'],
          message: WORKING_HOURS_MESSAGES.duplicateDate,
        });
      }
      seen.add(e.date);
    });
  });
export type WorkingHoursInput = z.input<typeof workingHoursInputSchema>;
export type WorkingHours = Pick<z.output<typeof workingHoursInputSchema>, 'weekly' | 'exceptions' | 'pause'>;

/** A shop with no hours saved: closed every day (the page starts from a typical week). */
export const EMPTY_WORKING_HOURS: WorkingHours = {
  weekly: [[], [], [], [], [], [], []],
  exceptions: [],
  pause: { paused: false, reason: '', until: null },
};

// ---------------------------------------------------------------------------------------------------
// The rule

const MINUTE = 60_000;
const DAY = 24 * 60;

/** The wall clock of `instant` in `timeZone`, as minutes since 1970-01-01 00:00 of that clock. */
function localMinutes(instant: Date, timeZone: string): number {
  return Math.floor(wallTime(instant, timeZone) / MINUTE);
}

/** The instant a wall-clock minute of `timeZone` happens (the first one, should a clock repeat). */
function instantOf(local: number, timeZone: string): Date {
  return instantAt(local * MINUTE, timeZone);
}

function isoOfDay(day: number): string {
  return new Date(day * DAY * MINUTE).toISOString().slice(0, 10);
}

type OpenStatus = {
  open: boolean;
  /** Closed by the pause switch (then `pauseReason` says why). */
  paused: boolean;
  pauseReason: string | null;
  /** When open turns to closed or back; null when nothing changes in the next 8 days. */
  nextChange: Date | null;
};

/** The open spans, as wall-clock minutes, of the days around `today` (merged, in order). */
function openSpans(hours: WorkingHours, today: number): [number, number][] {
  const exceptions = new Map(hours.exceptions.map((e) => [e.date, e]));
  const spans: [number, number][] = [];
  for (let day = today - 1; day <= today + 8; day++) {
    const exception = exceptions.get(isoOfDay(day));
    const weekday = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
    const intervals = exception ? (exception.closed ? [] : exception.intervals) : hours.weekly[weekday];
    for (const interval of intervals ?? []) {
      const [start, end] = spanOf(interval);
      spans.push([day * DAY + start, day * DAY + end]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged;
}

/** Open or closed at a wall-clock minute, and the next minute that changes it (null: none known). */
function scheduleAt(spans: [number, number][], local: number): { open: boolean; next: number | null } {
  for (const [start, end] of spans) {
    if (local < start) return { open: false, next: start };
    if (local < end) return { open: true, next: end };
  }
  return { open: false, next: null };
}

/**
 * Is the shop open at `now`? The weekly intervals and the date exceptions are read on the shop's
 * wall clock (`timeZone`); an exception replaces its date's weekday intervals, and an interval that
 * crosses midnight belongs to the day it starts on (Friday 18:00-02:00 is open early Saturday even
 * when Saturday is an exception). A pause closes the shop until its end.
 */
export function openStatus(hours: WorkingHours, now: Date, timeZone: string): OpenStatus {
  const local = localMinutes(now, timeZone);
  const spans = openSpans(hours, Math.floor(local / DAY));
  const until = hours.pause.until ? new Date(hours.pause.until) : null;
  if (hours.pause.paused && (!until || until > now)) {
    let nextChange: Date | null = null;
    if (until) {
      const after = scheduleAt(
        openSpans(hours, Math.floor(localMinutes(until, timeZone) / DAY)),
        localMinutes(until, timeZone),
      );
      nextChange = after.open ? until : after.next === null ? null : instantOf(after.next, timeZone);
    }
    return { open: false, paused: true, pauseReason: hours.pause.reason || null, nextChange };
  }
  const at = scheduleAt(spans, local);
  return {
    open: at.open,
    paused: false,
    pauseReason: null,
    nextChange: at.next === null ? null : instantOf(at.next, timeZone),
  };
}

/**
 * The top bar's text: "Aberto · fecha às 18:00", "Fechado · abre às 08:00" (today), "abre sex 08:00"
 * (another day), "Pausado: {motivo}".
 */
export function openStatusText(status: OpenStatus, now: Date, timeZone: string): string {
  const head = status.open ? 'Aberto' : 'Fechado';
  const pause = status.paused && status.pauseReason ? ` (${status.pauseReason})` : '';
  if (!status.nextChange) return `${head}${pause}`;
  const next = localMinutes(status.nextChange, timeZone);
  const sameDay = Math.floor(next / DAY) === Math.floor(localMinutes(now, timeZone) / DAY);
  const hhmm = `${String(Math.floor((next % DAY) / 60)).padStart(2, '0')}:${String(next % 60).padStart(2, '0')}`;
  const when = sameDay
    ? `às ${hhmm}`
    : `${WEEKDAYS_SHORT[(((Math.floor(next / DAY) + 4) % 7) + 7) % 7]} ${hhmm}`;
  return `${head}${pause} · ${status.open ? 'fecha' : 'abre'} ${when}`;
}

export type WorkingHoursData = z.output<typeof workingHoursInputSchema>;

// ---------------------------------------------------------------------------------------------------
// What the API answers

const intervalAnswer = z.object({ start: z.string(), end: z.string() });

export const workingHoursSettingsSchema = z.object({
  weekly: z.array(z.array(intervalAnswer)),
  exceptions: z.array(
    z.object({ date: z.string(), closed: z.boolean(), intervals: z.array(intervalAnswer), note: z.string() }),
  ),
  pause: z.object({ paused: z.boolean(), reason: z.string(), until: z.string().nullable() }),
  updatedAt: z.string().nullable(),
  updatedBy: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type WorkingHoursSettings = z.infer<typeof workingHoursSettingsSchema>;

/** Open or closed now, for the top bar and the PDV's warning. */
export const workingHoursStatusSchema = z.object({
  /** The shop uses working hours (checkIsOpen): otherwise nothing is shown. */
  enabled: z.boolean(),
  open: z.boolean(),
  paused: z.boolean(),
  pauseReason: z.string().nullable(),
  nextChange: z.string().nullable(),
  timeZone: z.string(),
  /** The server's clock when answered. */
  now: z.string(),
});
export type WorkingHoursStatus = z.infer<typeof workingHoursStatusSchema>;
