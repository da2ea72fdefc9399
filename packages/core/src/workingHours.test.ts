import { describe, expect, it } from 'vitest';
import {
  EMPTY_WORKING_HOURS,
  openStatus,
  openStatusText,
  type WorkingHours,
  workingHoursInputSchema,
} from './workingHours.ts';

const SP = 'America/Sao_Paulo'; // UTC-3 all year since 2019 (no DST)

/** A week: Mon-Fri 08:00-12:00 and 13:00-18:00; Friday and Saturday nights 18:00-02:00; Sunday closed. */
function week(): WorkingHours {
  const day = [
    { start: '08:00', end: '12:00' },
    { start: '13:00', end: '18:00' },
  ];
  return {
    ...EMPTY_WORKING_HOURS,
    weekly: [
      [],
      day,
      day,
      day,
      day,
      [
        { start: '08:00', end: '12:00' },
        { start: '18:00', end: '02:00' },
      ],
      [{ start: '18:00', end: '02:00' }],
    ],
  };
}

// 2026-11-20 is a Friday. São Paulo wall clock = UTC - 3h.
const sp = (isoLocal: string) => new Date(`${isoLocal}-03:00`);

describe('openStatus', () => {
  it('is open inside an interval and tells when it closes', () => {
    const s = openStatus(week(), sp('2026-11-18T10:00:00'), SP);
    expect(s.open).toBe(true);
    expect(s.nextChange?.toISOString()).toBe(sp('2026-11-18T12:00:00').toISOString());
    expect(openStatusText(s, sp('2026-11-18T10:00:00'), SP)).toBe('Aberto · fecha às 12:00');
  });

  it('is closed during the lunch pause and reopens at 13:00', () => {
    const s = openStatus(week(), sp('2026-11-18T12:30:00'), SP);
    expect(s.open).toBe(false);
    expect(s.nextChange?.toISOString()).toBe(sp('2026-11-18T13:00:00').toISOString());
    expect(openStatusText(s, sp('2026-11-18T12:30:00'), SP)).toBe('Fechado · abre às 13:00');
  });

  it('an interval ends exactly at its end minute', () => {
    expect(openStatus(week(), sp('2026-11-18T17:59:00'), SP).open).toBe(true);
    expect(openStatus(week(), sp('2026-11-18T18:00:00'), SP).open).toBe(false);
  });

  it('crosses midnight: Friday 18:00-02:00 is open at Saturday 01:30 and closes at 02:00', () => {
    const s = openStatus(week(), sp('2026-11-21T01:30:00'), SP);
    expect(s.open).toBe(true);
    expect(s.nextChange?.toISOString()).toBe(sp('2026-11-21T02:00:00').toISOString());
    expect(openStatus(week(), sp('2026-11-21T02:00:00'), SP).open).toBe(false);
  });

  it('Saturday night into Sunday: open at Sunday 00:30, then the next opening is Monday 08:00', () => {
    expect(openStatus(week(), sp('2026-11-22T00:30:00'), SP).open).toBe(true);
    const s = openStatus(week(), sp('2026-11-22T10:00:00'), SP);
    expect(s.open).toBe(false);
    expect(s.nextChange?.toISOString()).toBe(sp('2026-11-23T08:00:00').toISOString());
    expect(openStatusText(s, sp('2026-11-22T10:00:00'), SP)).toBe('Fechado · abre seg 08:00');
  });

  it('reads the schedule on the shop clock: the same instant differs by time zone', () => {
    const instant = new Date('2026-11-18T11:30:00Z'); // 08:30 in São Paulo, 07:30 in Manaus, 20:30 in Tokyo
    expect(openStatus(week(), instant, SP).open).toBe(true);
    expect(openStatus(week(), instant, 'America/Manaus').open).toBe(false);
    expect(openStatus(week(), instant, 'America/Manaus').nextChange?.toISOString()).toBe(
      '2026-11-18T12:00:00.000Z',
    );
    expect(openStatus(week(), instant, 'Asia/Tokyo').open).toBe(false);
  });

  it('keeps wall-clock hours across a DST change in a zone that has one', () => {
    // New York leaves DST on 2026-11-01: 08:00 local is 12:00Z before and 13:00Z after.
    const before = openStatus(week(), new Date('2026-10-30T12:30:00Z'), 'America/New_York');
    const after = openStatus(week(), new Date('2026-11-02T12:30:00Z'), 'America/New_York');
    expect(before.open).toBe(true);
    expect(after.open).toBe(false);
    expect(after.nextChange?.toISOString()).toBe('2026-11-02T13:00:00.000Z');
  });

  it('an exception closes a holiday and another sets special hours', () => {
    const hours: WorkingHours = {
      ...week(),
      exceptions: [
        { date: '2026-11-18', closed: true, intervals: [], note: 'Feriado' },
        { date: '2026-11-19', closed: false, intervals: [{ start: '10:00', end: '14:00' }], note: '' },
      ],
    };
    expect(openStatus(hours, sp('2026-11-18T10:00:00'), SP).open).toBe(false);
    expect(openStatus(hours, sp('2026-11-18T10:00:00'), SP).nextChange?.toISOString()).toBe(
      sp('2026-11-19T10:00:00').toISOString(),
    );
    expect(openStatus(hours, sp('2026-11-19T09:00:00'), SP).open).toBe(false);
    expect(openStatus(hours, sp('2026-11-19T13:00:00'), SP).open).toBe(true);
    expect(openStatus(hours, sp('2026-11-19T13:00:00'), SP).nextChange?.toISOString()).toBe(
      sp('2026-11-19T14:00:00').toISOString(),
    );
  });

  it('a pause closes the shop until its end, then the schedule rules', () => {
    const paused: WorkingHours = {
      ...week(),
      pause: { paused: true, reason: 'Falta de energia', until: sp('2026-11-18T11:00:00').toISOString() },
    };
    const s = openStatus(paused, sp('2026-11-18T10:00:00'), SP);
    expect(s).toMatchObject({ open: false, paused: true, pauseReason: 'Falta de energia' });
    expect(s.nextChange?.toISOString()).toBe(sp('2026-11-18T11:00:00').toISOString());
    expect(openStatusText(s, sp('2026-11-18T10:00:00'), SP)).toBe(
      'Fechado (Falta de energia) · abre às 11:00',
    );
    expect(openStatus(paused, sp('2026-11-18T11:00:00'), SP).open).toBe(true);
    // A pause ending in closed time reopens at the next interval.
    const lunch = { ...paused, pause: { ...paused.pause, until: sp('2026-11-18T12:10:00').toISOString() } };
    expect(openStatus(lunch, sp('2026-11-18T10:00:00'), SP).nextChange?.toISOString()).toBe(
      sp('2026-11-18T13:00:00').toISOString(),
    );
    // Without an end it stays closed.
    const open = { ...paused, pause: { ...paused.pause, until: null } };
    expect(openStatus(open, sp('2026-11-18T10:00:00'), SP)).toMatchObject({ open: false, nextChange: null });
  });

  it('a shop with no hours is closed with no next change', () => {
    expect(openStatus(EMPTY_WORKING_HOURS, new Date(), SP)).toMatchObject({ open: false, nextChange: null });
  });
});

describe('workingHoursInputSchema', () => {
  const base = { weekly: week().weekly, exceptions: [], pause: { paused: false, reason: '', until: null } };
  it('accepts a week with a midnight crossing', () => {
    expect(workingHoursInputSchema.safeParse(base).success).toBe(true);
  });
  it('refuses bad times, equal ends, overlaps, duplicated dates and a pause without reason', () => {
    const issues = (input: unknown) =>
      workingHoursInputSchema.safeParse(input).error?.issues.map((i) => i.message) ?? [];
    const weekly = (day: unknown) => [day, [], [], [], [], [], []];
    expect(issues({ ...base, weekly: weekly([{ start: '25:00', end: '10:00' }]) })).toContain(
      'Use o formato HH:MM (00:00 a 23:59)',
    );
    expect(issues({ ...base, weekly: weekly([{ start: '10:00', end: '10:00' }]) })).toContain(
      'O início e o fim não podem ser iguais',
    );
    expect(
      issues({
        ...base,
        weekly: weekly([
          { start: '08:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ]),
      }),
    ).toContain('Os horários do dia se sobrepõem');
    expect(
      issues({
        ...base,
        weekly: weekly([
          { start: '20:00', end: '02:00' },
          { start: '01:00', end: '03:00' },
        ]),
      }),
    ).toEqual([]); // 01:00 of this day is before 20:00: the crossing one ends on the next day
    const day = { date: '2026-12-25', closed: true, intervals: [], note: 'Natal' };
    expect(issues({ ...base, exceptions: [day, day] })).toContain('Já existe uma exceção para esta data');
    expect(issues({ ...base, exceptions: [{ ...day, date: '2026-02-30' }] })).toContain('Data inválida');
    expect(issues({ ...base, pause: { paused: true, reason: '', until: null } })).toContain(
      'Informe o motivo da pausa',
    );
  });
});
