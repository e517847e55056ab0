import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { assertProperty } from '../../../tests/support/property-runs.ts';
import { type BusinessHours, businessHoursSchema } from '#contracts/business-hours.ts';
import { isOpen, nextOpening, outOfHoursSpell, type Schedule, scheduleFor } from './business-hours.ts';
import { instantOf, wallClock } from './zoned-time.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const weekdays = [1, 2, 3, 4, 5];
/** A shop in São Paulo (UTC-3 all year): weekdays 08:00-12:00 and 13:00-18:00, Saturdays 09:00-13:00. */
const shop: BusinessHours = businessHoursSchema.parse({
  shifts: [
    ...weekdays.flatMap((weekday) => [
      { weekday, start: '08:00', end: '12:00' },
      { weekday, start: '13:00', end: '18:00' },
    ]),
    { weekday: 6, start: '09:00', end: '13:00' },
  ],
  holidays: [{ date: '2026-11-20', name: 'Consciência Negra' }],
  departments: [
    {
      departmentId: 'suporte',
      shifts: [
        { weekday: 5, start: '22:00', end: '24:00' },
        { weekday: 6, start: '00:00', end: '02:00' },
      ],
    },
  ],
});
const account = scheduleFor(shop, null);

describe('business hours in São Paulo (2026-11-27 is a Friday)', () => {
  it('takes the account zone by default', () => {
    expect(shop.timeZone).toBe('America/Sao_Paulo');
  });

  it('opens at a shift start and closes at its end (start included, end excluded)', () => {
    expect(isOpen(account, at('2026-11-27T10:59:59Z'))).toBe(false); // 07:59:59
    expect(isOpen(account, at('2026-11-27T11:00:00Z'))).toBe(true); // 08:00
    expect(isOpen(account, at('2026-11-27T14:59:00Z'))).toBe(true); // 11:59
    expect(isOpen(account, at('2026-11-27T15:00:00Z'))).toBe(false); // 12:00, lunch
    expect(isOpen(account, at('2026-11-27T16:00:00Z'))).toBe(true); // 13:00
    expect(isOpen(account, at('2026-11-27T21:00:00Z'))).toBe(false); // 18:00
  });

  it('reads the day in the account zone, not UTC: Friday 22:30 is Saturday in UTC', () => {
    // 2026-11-28T01:30Z is Friday 22:30 in São Paulo: closed, while Saturday 09:00 opens.
    expect(isOpen(account, at('2026-11-28T01:30:00Z'))).toBe(false);
    expect(iso(nextOpening(account, at('2026-11-28T01:30:00Z')))).toBe('2026-11-28T12:00:00.000Z');
  });

  it('opens next after lunch, on Saturday morning, and on Monday after Saturday', () => {
    expect(iso(nextOpening(account, at('2026-11-27T15:30:00Z')))).toBe('2026-11-27T16:00:00.000Z');
    expect(iso(nextOpening(account, at('2026-11-27T21:00:00Z')))).toBe('2026-11-28T12:00:00.000Z');
    expect(iso(nextOpening(account, at('2026-11-28T16:00:00Z')))).toBe('2026-11-30T11:00:00.000Z');
  });

  it('answers the instant itself when open', () => {
    expect(nextOpening(account, at('2026-11-27T12:00:00Z'))).toBe(at('2026-11-27T12:00:00Z'));
  });

  it('stays closed all of a holiday in the zone, and opens the day after', () => {
    // Friday 2026-11-20: 10:00 local would be open.
    expect(isOpen(account, at('2026-11-20T13:00:00Z'))).toBe(false);
    expect(iso(nextOpening(account, at('2026-11-19T21:00:00Z')))).toBe('2026-11-21T12:00:00.000Z');
    // 2026-11-21T01:00Z is still the 20th (22:00) in São Paulo; the 21st there starts at 03:00Z.
    expect(isOpen(scheduleFor({ ...shop, shifts: [{ weekday: 5, start: '00:00', end: '24:00' }] }, null), at('2026-11-21T01:00:00Z'))).toBe(false);
  });

  it('keeps the same hour in UTC all year (no DST in São Paulo since 2019)', () => {
    expect(iso(nextOpening(account, at('2026-01-05T00:00:00Z')))).toBe('2026-01-05T11:00:00.000Z');
    expect(iso(nextOpening(account, at('2026-07-06T00:00:00Z')))).toBe('2026-07-06T11:00:00.000Z');
  });

  it('uses a department’s own shifts, across midnight as two shifts', () => {
    const support = scheduleFor(shop, 'suporte');
    expect(support.owner).toBe('department:suporte');
    expect(isOpen(support, at('2026-11-27T14:00:00Z'))).toBe(false); // Friday 11:00: not its hours
    expect(iso(nextOpening(support, at('2026-11-27T14:00:00Z')))).toBe('2026-11-28T01:00:00.000Z'); // Friday 22:00
    expect(isOpen(support, at('2026-11-28T02:59:00Z'))).toBe(true); // Friday 23:59
    expect(isOpen(support, at('2026-11-28T03:00:00Z'))).toBe(true); // Saturday 00:00
    expect(isOpen(support, at('2026-11-28T05:00:00Z'))).toBe(false); // Saturday 02:00
    expect(scheduleFor(shop, 'vendas').owner).toBe('account');
  });

  it('names one out-of-hours spell for a whole closed stretch, and another for the next', () => {
    const evening = outOfHoursSpell(account, at('2026-11-27T21:00:00Z'));
    expect(evening).toBe('account@2026-11-28T12:00:00.000Z');
    expect(outOfHoursSpell(account, at('2026-11-28T08:00:00Z'))).toBe(evening); // 05:00 Saturday, same night
    expect(outOfHoursSpell(account, at('2026-11-28T12:30:00Z'))).toBeNull();
    expect(outOfHoursSpell(account, at('2026-11-28T16:00:00Z'))).toBe('account@2026-11-30T11:00:00.000Z');
  });

  it('never opens without shifts', () => {
    const none: Schedule = { owner: 'account', timeZone: 'America/Sao_Paulo', shifts: [], holidays: [] };
    expect(nextOpening(none, at('2026-11-27T12:00:00Z'))).toBeNull();
    expect(outOfHoursSpell(none, at('2026-11-27T12:00:00Z'))).toBe('account@never');
  });
});

describe('business hours in zones with DST', () => {
  const nineToFive = (timeZone: string): Schedule => ({
    owner: 'account',
    timeZone,
    shifts: weekdays.map((weekday) => ({ weekday, start: '09:00', end: '17:00' })),
    holidays: [],
  });

  it('New York: 09:00 is 14:00Z before the spring change and 13:00Z after it', () => {
    const ny = nineToFive('America/New_York');
    expect(isOpen(ny, at('2026-03-06T14:00:00Z'))).toBe(true);
    expect(isOpen(ny, at('2026-03-06T13:59:00Z'))).toBe(false);
    expect(iso(nextOpening(ny, at('2026-03-06T22:00:00Z')))).toBe('2026-03-09T13:00:00.000Z');
    expect(isOpen(ny, at('2026-03-09T13:00:00Z'))).toBe(true);
  });

  it('New York: after the autumn change 09:00 is 14:00Z again', () => {
    expect(iso(nextOpening(nineToFive('America/New_York'), at('2026-10-30T21:00:00Z')))).toBe('2026-11-02T14:00:00.000Z');
  });

  it('Lisbon: a shift starting in the skipped hour opens when the clock jumps over it', () => {
    // 2026-03-29 (Sunday): 01:00 becomes 02:00 (at 01:00Z). A shift from 01:30 is open from 02:00 local.
    const lisbon: Schedule = { owner: 'account', timeZone: 'Europe/Lisbon', shifts: [{ weekday: 0, start: '01:30', end: '03:00' }], holidays: [] };
    expect(iso(nextOpening(lisbon, at('2026-03-28T12:00:00Z')))).toBe('2026-03-29T01:00:00.000Z');
    expect(isOpen(lisbon, at('2026-03-29T00:59:00Z'))).toBe(false); // 00:59 local
    expect(isOpen(lisbon, at('2026-03-29T01:59:00Z'))).toBe(true);
    expect(isOpen(lisbon, at('2026-03-29T02:00:00Z'))).toBe(false); // 03:00 local
  });

  it('maps a wall time repeated in autumn to its first occurrence', () => {
    // New York, 2026-11-01: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    expect(iso(instantOf('2026-11-01', 90, 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
    // And 02:30 on 2026-03-08 never happens: the clock jumps from 02:00 EST to 03:00 EDT at 07:00Z.
    expect(iso(instantOf('2026-03-08', 150, 'America/New_York'))).toBe('2026-03-08T07:00:00.000Z');
  });
});

describe('a tenant in another zone, whatever the server’s zone', () => {
  const serverZone = process.env.TZ;
  afterEach(() => {
    if (serverZone === undefined) delete process.env.TZ;
    else process.env.TZ = serverZone;
  });

  it('Tokyo 09:00-18:00 opens at 00:00Z even on a server set to another zone', () => {
    const tokyo: Schedule = { owner: 'account', timeZone: 'Asia/Tokyo', shifts: [{ weekday: 5, start: '09:00', end: '18:00' }], holidays: [] };
    for (const zone of ['UTC', 'America/Sao_Paulo', 'Pacific/Kiritimati']) {
      process.env.TZ = zone;
      expect(isOpen(tokyo, at('2026-11-27T00:00:00Z'))).toBe(true);
      expect(isOpen(tokyo, at('2026-11-26T23:59:00Z'))).toBe(false);
      expect(wallClock(at('2026-11-27T00:00:00Z'), 'Asia/Tokyo')).toEqual({ date: '2026-11-27', weekday: 5, minutes: 540 });
      expect(iso(nextOpening(tokyo, at('2026-11-27T09:00:00Z')))).toBe('2026-12-04T00:00:00.000Z');
    }
  });
});

describe('next opening, for any schedule and instant', () => {
  const time = fc.integer({ min: 0, max: 48 }).map((half) => `${String(Math.floor(half / 2)).padStart(2, '0')}:${half % 2 ? '30' : '00'}`);
  const shift = fc
    .record({ weekday: fc.integer({ min: 0, max: 6 }), a: time, b: time })
    .filter(({ a, b }) => a !== b)
    .map(({ weekday, a, b }) => {
      const [start, end] = [a, b].sort() as [string, string];
      return { weekday, start, end };
    });
  const schedule = fc.record({
    owner: fc.constant('account'),
    timeZone: fc.constantFrom('America/Sao_Paulo', 'America/New_York', 'Europe/Lisbon', 'Asia/Tokyo', 'Asia/Kolkata', 'America/Manaus'),
    shifts: fc.array(shift, { maxLength: 6 }),
    holidays: fc.array(
      fc.integer({ min: 0, max: 20 }).map((d) => new Date(Date.parse('2026-03-01T00:00:00Z') + d * 86_400_000).toISOString().slice(0, 10)),
      { maxLength: 5 },
    ),
  });
  const instant = fc.integer({ min: Date.parse('2026-03-01T00:00:00Z'), max: Date.parse('2026-03-15T00:00:00Z') });
  const quarter = 15 * 60_000;

  it('is open, and nothing on the quarter hours before it is', () => {
    assertProperty(
      fc.property(schedule, instant, (s, from) => {
        const opening = nextOpening(s, from);
        if (opening === null) {
          // Never opens: closed at every quarter hour of the next two weeks.
          for (let t = from; t < from + 14 * 86_400_000; t += quarter) expect(isOpen(s, t)).toBe(false);
          return;
        }
        expect(isOpen(s, opening)).toBe(true);
        expect(opening).toBeGreaterThanOrEqual(from);
        if (opening > from) expect(isOpen(s, opening - 60_000)).toBe(false);
        for (let t = from; t < opening; t += quarter) expect(isOpen(s, t)).toBe(false);
        expect(outOfHoursSpell(s, from)).toBe(opening === from ? null : `account@${new Date(opening).toISOString()}`);
      }),
      { quick: 200, full: 5_000 },
    );
  }, 120_000);
});
