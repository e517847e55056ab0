import { describe, expect, it } from 'vitest';
import { formatInZone, minutesOf, nextOccurrenceAfter, occurrenceAt, occurrenceDate, type Recurrence } from './recurrence.ts';

const saoPaulo = 'America/Sao_Paulo';
const monthly = (anchorDate: string, timeZone = saoPaulo): Recurrence => ({ repeat: 'monthly', anchorDate, minutes: minutesOf('09:00'), timeZone });
const text = (r: Recurrence, index: number) => formatInZone(occurrenceAt(r, index)!, r.timeZone);

describe('scheduled message recurrence', () => {
  it('monthly on the 31st falls on the last day of shorter months and comes back to the 31st (a leap year and a common one)', () => {
    const r = monthly('2027-01-31');
    expect([0, 1, 2, 3, 4].map((i) => occurrenceDate(r, i))).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
    expect(occurrenceDate(monthly('2028-01-31'), 1)).toBe('2028-02-29');
    expect(occurrenceDate(monthly('2028-01-30'), 1)).toBe('2028-02-29');
    expect(occurrenceDate(monthly('2028-01-29'), 1)).toBe('2028-02-29');
    expect(text(r, 1)).toBe('28/02/2027 09:00');
  });

  it('crosses the year end: December to January for monthly, 31/12 to 01/01 for daily and weekly', () => {
    expect(occurrenceDate(monthly('2026-12-31'), 1)).toBe('2027-01-31');
    expect(occurrenceDate(monthly('2026-11-30'), 2)).toBe('2027-01-30');
    expect(occurrenceDate(monthly('2026-12-15'), 13)).toBe('2028-01-15');
    expect(occurrenceDate({ repeat: 'daily', anchorDate: '2026-12-31' }, 1)).toBe('2027-01-01');
    expect(occurrenceDate({ repeat: 'weekly', anchorDate: '2026-12-28' }, 1)).toBe('2027-01-04');
  });

  it('a one-off has one occurrence only', () => {
    const r: Recurrence = { repeat: 'once', anchorDate: '2026-12-01', minutes: 600, timeZone: saoPaulo };
    expect(occurrenceAt(r, 0)).toBe(Date.parse('2026-12-01T13:00:00Z'));
    expect(occurrenceAt(r, 1)).toBeNull();
    expect(nextOccurrenceAfter(r, 0, Date.parse('2026-11-01T00:00:00Z'))).toBeNull();
  });

  it("reads the time on the account's zone, not the server's: 09:00 in São Paulo, Lisbon and Tokyo", () => {
    expect(occurrenceAt(monthly('2027-01-31'), 0)).toBe(Date.parse('2027-01-31T12:00:00Z'));
    expect(occurrenceAt(monthly('2027-01-31', 'Asia/Tokyo'), 0)).toBe(Date.parse('2027-01-31T00:00:00Z'));
    // Lisbon keeps 09:00 across its DST change: UTC in winter, UTC+1 in summer.
    const lisbon = monthly('2027-03-15', 'Europe/Lisbon');
    expect(occurrenceAt(lisbon, 0)).toBe(Date.parse('2027-03-15T09:00:00Z'));
    expect(occurrenceAt(lisbon, 1)).toBe(Date.parse('2027-04-15T08:00:00Z'));
    expect(text(lisbon, 1)).toBe('15/04/2027 09:00');
  });

  it('a schedule fired late skips what it missed: the next occurrence is the first after now', () => {
    const daily: Recurrence = { repeat: 'daily', anchorDate: '2026-12-01', minutes: 8 * 60, timeZone: saoPaulo };
    // The runtime was stopped from the 1st to the 4th at noon: the next one is the 5th at 08:00.
    const now = Date.parse('2026-12-04T15:00:00Z');
    expect(nextOccurrenceAfter(daily, 0, now)).toEqual({ index: 4, at: Date.parse('2026-12-05T11:00:00Z') });
    // On time, the next is simply the next day.
    expect(nextOccurrenceAfter(daily, 0, Date.parse('2026-12-01T11:00:30Z'))).toEqual({ index: 1, at: Date.parse('2026-12-02T11:00:00Z') });
    const monthlyOn31 = monthly('2027-01-31');
    const afterFeb = nextOccurrenceAfter(monthlyOn31, 1, Date.parse('2027-02-28T12:00:30Z'));
    expect(afterFeb && formatInZone(afterFeb.at, saoPaulo)).toBe('31/03/2027 09:00');
  });

  it('formats dd/MM/yyyy HH:mm in the zone', () => {
    expect(formatInZone(Date.parse('2027-01-01T02:30:00Z'), saoPaulo)).toBe('31/12/2026 23:30');
    expect(minutesOf('23:59')).toBe(1439);
  });
});
