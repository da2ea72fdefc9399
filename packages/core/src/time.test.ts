import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TIME_ZONE,
  dateIn,
  formatInZone,
  instantAt,
  isoToShopLocal,
  isValidTimeZone,
  shopLocalToIso,
  wallTime,
} from './time.ts';

const SAO_PAULO = 'America/Sao_Paulo'; // UTC-3
const MANAUS = 'America/Manaus'; // UTC-4
const NORONHA = 'America/Noronha'; // UTC-2

describe("the shop's clock: three shops, one instant", () => {
  // 02:30 UTC on March 10th: still the 9th in São Paulo and Manaus, already the 10th in Noronha.
  const nearMidnight = '2026-03-10T02:30:00.000Z';

  it('gives each shop its own today near midnight UTC', () => {
    expect(dateIn(SAO_PAULO, nearMidnight)).toBe('2026-03-09');
    expect(dateIn(MANAUS, nearMidnight)).toBe('2026-03-09');
    expect(dateIn(NORONHA, nearMidnight)).toBe('2026-03-10');
    // An hour later São Paulo turns the day too; Manaus does not.
    const later = '2026-03-10T03:30:00.000Z';
    expect(dateIn(SAO_PAULO, later)).toBe('2026-03-10');
    expect(dateIn(MANAUS, later)).toBe('2026-03-09');
    expect(dateIn(NORONHA, new Date(later))).toBe('2026-03-10');
    expect(dateIn(MANAUS, Date.parse(later))).toBe('2026-03-09');
  });

  it('reads the wall clock of an instant in each zone', () => {
    expect(isoToShopLocal(nearMidnight, SAO_PAULO)).toBe('2026-03-09T23:30');
    expect(isoToShopLocal(nearMidnight, MANAUS)).toBe('2026-03-09T22:30');
    expect(isoToShopLocal(nearMidnight, NORONHA)).toBe('2026-03-10T00:30');
    expect(new Date(wallTime(nearMidnight, MANAUS)).toISOString()).toBe('2026-03-09T22:30:00.000Z');
  });

  it("puts a schedule typed on the shop's clock at that shop's instant", () => {
    expect(shopLocalToIso('2026-12-01T09:30', SAO_PAULO)).toBe('2026-12-01T12:30:00.000Z');
    expect(shopLocalToIso('2026-12-01T09:30', MANAUS)).toBe('2026-12-01T13:30:00.000Z');
    expect(shopLocalToIso('2026-12-01T09:30', NORONHA)).toBe('2026-12-01T11:30:00.000Z');
    // Just after midnight on the shop's clock is the day before in UTC nowhere here, the same day.
    expect(shopLocalToIso('2026-03-10T00:10', NORONHA)).toBe('2026-03-10T02:10:00.000Z');
    expect(shopLocalToIso('2026-03-09T23:50', MANAUS)).toBe('2026-03-10T03:50:00.000Z');
  });

  it('goes back and forth without drift', () => {
    for (const zone of [SAO_PAULO, MANAUS, NORONHA]) {
      for (const local of ['2026-01-01T00:00', '2026-03-09T23:59', '2026-07-15T12:34']) {
        expect(isoToShopLocal(shopLocalToIso(local, zone) as string, zone)).toBe(local);
      }
    }
  });

  it('refuses what is not a date and time', () => {
    expect(shopLocalToIso('amanhã', SAO_PAULO)).toBeNull();
    expect(shopLocalToIso('2026-02-30T10:00', SAO_PAULO)).toBeNull();
    expect(shopLocalToIso('2026-02-10T24:00', SAO_PAULO)).toBeNull();
  });

  it('writes dates and times in pt-BR on the shop clock', () => {
    expect(formatInZone(nearMidnight, SAO_PAULO)).toBe('09/03/2026, 23:30');
    expect(formatInZone(nearMidnight, MANAUS)).toBe('09/03/2026, 22:30');
    expect(formatInZone(nearMidnight, NORONHA)).toBe('10/03/2026, 00:30');
    expect(formatInZone(nearMidnight, NORONHA, 'date')).toBe('10/03/2026');
    expect(formatInZone(nearMidnight, MANAUS, 'time')).toBe('22:30');
    expect(formatInZone(nearMidnight, SAO_PAULO, 'dayTime')).toBe('09/03, 23:30');
    expect(formatInZone(new Date(nearMidnight), NORONHA, 'sheet')).toBe('10/03/2026 00:30');
  });
});

describe('daylight saving (São Paulo had it until 2019)', () => {
  it('moves a time the clock skipped forward by the gap', () => {
    // 2018-11-04: 00:00 became 01:00.
    expect(shopLocalToIso('2018-11-04T00:30', SAO_PAULO)).toBe('2018-11-04T03:30:00.000Z');
    expect(isoToShopLocal('2018-11-04T03:30:00.000Z', SAO_PAULO)).toBe('2018-11-04T01:30');
  });

  it('takes the first of a time the clock showed twice', () => {
    // 2019-02-17: 00:00 went back to 23:00 of the 16th, so 23:30 happened at 01:30Z and 02:30Z.
    expect(shopLocalToIso('2019-02-16T23:30', SAO_PAULO)).toBe('2019-02-17T01:30:00.000Z');
    expect(isoToShopLocal('2019-02-17T02:30:00.000Z', SAO_PAULO)).toBe('2019-02-16T23:30');
  });

  it('keeps an instant a plain hour when the offset is the same on both sides', () => {
    expect(instantAt(Date.UTC(2026, 5, 1, 8, 0), MANAUS).toISOString()).toBe('2026-06-01T12:00:00.000Z');
  });
});

describe('zones', () => {
  it('knows IANA zones and refuses others', () => {
    expect(isValidTimeZone(MANAUS)).toBe(true);
    expect(isValidTimeZone(DEFAULT_TIME_ZONE)).toBe(true);
    expect(isValidTimeZone('Not/AZone')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});
