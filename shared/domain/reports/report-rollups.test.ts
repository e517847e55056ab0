/**
 * The reports' rollups against a brute-force recount (ADR-0234): generated
 * conversation histories are written to the table (dynalite) in a shuffled order, each event's
 * stream record reaching the consumer's body after its write and again later (redelivery, out of
 * order); GET /reports' answer (the domain call behind it) then equals a recount over the raw
 * events: counts exactly, medians and 90th percentiles in the exact value's bucket (within
 * 2^(1/8) − 1 from 1 s up, 500 ms below). Periods cross a UTC month, New York's spring DST change
 * and local midnights away from UTC's. A rebuild answers the same again. A day not over measures its
 * waiting conversations to the moment of the report.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertProperty } from '../../../tests/support/property-runs.ts';
import { type LocalTable, startLocalTable } from '../../../tests/support/local-table.ts';
import type { DurationFigures, ReportAnswer, ReportFigures } from '#contracts/reports.ts';
import { putAccountSetting } from '#db/account-settings.ts';
import type { ConversationEventItem } from '#db/conversation-timers.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { putReportDay, reportDaysBetween } from '#db/report-days.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { maxWaitingStarts, rollUpDay } from './day-rollup.ts';
import { bucketOf } from './duration-histogram.ts';
import { rebuildReportDays, rollUpEventDays } from './report-rollups.ts';
import { getReport } from './report-summary.ts';

let local: LocalTable;
let ports: Ports;

beforeAll(async () => {
  local = await startLocalTable('report-rollups-test');
  ports = { ...(local.ports as Ports), clock: () => new Date(), newId: (at?: number) => ulid(at) } as Ports;
});

afterAll(async () => {
  await local.close();
});

const zones = ['America/Sao_Paulo', 'America/New_York', 'Asia/Tokyo', 'UTC'] as const;
const agents = ['u-ana', 'u-bia', 'u-caio'] as const;
const departments = [null, 'd-fin', 'd-sup'] as const;
const connections = ['s-zap', 's-bot'] as const;
/** Starts between 26 Feb and 10 Mar 2026 (UTC): the end of February, New York's DST change on 8 Mar. */
const windowStart = Date.parse('2026-02-26T00:00:00Z');
const windowMs = 12 * 86_400_000;

const conversation = fc.record({
  startOffset: fc.integer({ min: 0, max: windowMs }),
  startedBy: fc.constantFrom(null, ...agents),
  departmentId: fc.constantFrom(...departments),
  serviceId: fc.constantFrom(...connections),
  firstResponse: fc.option(
    fc.record({ waitMs: fc.oneof(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 3 * 86_400_000 })), by: fc.constantFrom(...agents) }),
  ),
  resolution: fc.option(
    fc.record({
      afterMs: fc.integer({ min: 0, max: 2 * 86_400_000 }),
      by: fc.constantFrom(null, ...agents),
      inactivity: fc.boolean(),
      score: fc.option(fc.integer({ min: 1, max: 5 })),
    }),
  ),
});

type Conversation = typeof conversation extends fc.Arbitrary<infer T> ? T : never;

function eventsOf(accountId: string, conversations: Conversation[]): ConversationEventItem[] {
  const events: ConversationEventItem[] = [];
  conversations.forEach((c, i) => {
    const contactId = `c-${i}`;
    const protocol = `P${i}`;
    const start = windowStart + c.startOffset;
    const event = (kind: ConversationEventItem['kind'], at: number, userId: string | null, extra: Partial<ConversationEventItem> = {}) => {
      const iso = new Date(at).toISOString();
      events.push({
        ...keys.conversationEvent(accountId, iso, contactId, kind),
        type: entityTypes.conversationEvent,
        accountId,
        contactId,
        serviceId: c.serviceId,
        protocol,
        kind,
        at: iso,
        userId,
        departmentId: c.departmentId,
        ...extra,
      });
    };
    event('started', start, c.startedBy);
    let last = start;
    if (c.firstResponse) {
      last = start + c.firstResponse.waitMs;
      event('first_response', last, c.firstResponse.by, { waitMs: c.firstResponse.waitMs });
    }
    if (c.resolution) {
      const at = last + c.resolution.afterMs;
      event('resolved', at, c.resolution.by, { handledMs: at - start, by: c.resolution.inactivity ? 'inactivity' : 'team' });
      if (c.resolution.score) event('rated', at + 1000, c.resolution.by, { score: c.resolution.score });
    }
  });
  return events;
}

// The recount: local dates, weekdays and hours through Intl directly, the day's end by search.
const formats = new Map(
  zones.map((zone) => [
    zone,
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      weekday: 'short',
    }),
  ]),
);
const localParts = (at: number, zone: string) => {
  const parts = Object.fromEntries(
    formats
      .get(zone as (typeof zones)[number])!
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday!),
  };
};
function localDayEnd(at: number, zone: string): number {
  const date = localParts(at, zone).date;
  let [low, high] = [at, at + 27 * 3_600_000];
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (localParts(mid, zone).date === date) low = mid;
    else high = mid;
  }
  return high;
}

function nearestRank(samples: number[], p: number): number | null {
  if (!samples.length) return null;
  const sorted = samples.slice().sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1]!;
}

interface Recount {
  opened: number;
  resolved: number;
  waiting: number;
  firstResponse: number[];
  resolution: number[];
  waitingTime: number[];
  ratings: number[];
}

function recount(all: ConversationEventItem[], zone: string, from: string, to: string, belongs: (e: ConversationEventItem) => boolean): Recount {
  const inPeriod = (e: ConversationEventItem) => {
    const date = localParts(Date.parse(e.at), zone).date;
    return date >= from && date <= to;
  };
  const events = all.filter((e) => inPeriod(e) && belongs(e));
  const started = events.filter((e) => e.kind === 'started');
  const waiting = started.filter((s) => {
    const date = localParts(Date.parse(s.at), zone).date;
    return !all.some(
      (e) => e.contactId === s.contactId && (e.kind === 'first_response' || e.kind === 'resolved') && localParts(Date.parse(e.at), zone).date === date,
    );
  });
  return {
    opened: started.length,
    resolved: events.filter((e) => e.kind === 'resolved').length,
    waiting: waiting.length,
    firstResponse: events.filter((e) => e.kind === 'first_response').map((e) => e.waitMs!),
    resolution: events.filter((e) => e.kind === 'resolved').map((e) => e.handledMs!),
    waitingTime: waiting.map((s) => localDayEnd(Date.parse(s.at), zone) - Date.parse(s.at)),
    ratings: [1, 2, 3, 4, 5].map((score) => events.filter((e) => e.kind === 'rated' && e.score === score).length),
  };
}

function expectDurations(got: DurationFigures, samples: number[], what: string) {
  expect(got.count, what).toBe(samples.length);
  for (const [p, value] of [
    [0.5, got.median],
    [0.9, got.p90],
  ] as const) {
    const exact = nearestRank(samples, p);
    if (exact === null) {
      expect(value, what).toBeNull();
      continue;
    }
    expect(bucketOf(value!), `${what} p${p * 100}: ${value} for ${exact}`).toBe(bucketOf(exact));
    expect(Math.abs(value! - exact), `${what} p${p * 100}`).toBeLessThanOrEqual(Math.max(500, exact * (2 ** (1 / 8) - 1)) + 1);
  }
}

function expectFigures(got: ReportFigures, want: Recount, what: string) {
  expect({ opened: got.opened, resolved: got.resolved, waiting: got.waiting, ratings: got.ratings.distribution }, what).toEqual({
    opened: want.opened,
    resolved: want.resolved,
    waiting: want.waiting,
    ratings: want.ratings,
  });
  const count = want.ratings.reduce((a, b) => a + b, 0);
  const average = count ? Math.round((want.ratings.reduce((sum, n, i) => sum + n * (i + 1), 0) / count) * 100) / 100 : null;
  expect(got.ratings.average, what).toBe(average);
  expectDurations(got.firstResponse, want.firstResponse, `${what} firstResponse`);
  expectDurations(got.resolution, want.resolution, `${what} resolution`);
  expectDurations(got.waitingTime, want.waitingTime, `${what} waitingTime`);
}

const session = (accountId: string, userId: string, isAdmin: boolean) =>
  ({ accountId, user: { id: userId, name: userId, isAdmin }, claims: {} }) as unknown as AccountSession;

function checkAnswer(answer: ReportAnswer, events: ConversationEventItem[], zone: string, from: string, to: string) {
  expectFigures(
    answer.totals,
    recount(events, zone, from, to, () => true),
    'totals',
  );
  for (const day of answer.days)
    expectFigures(
      day,
      recount(events, zone, day.date, day.date, () => true),
      day.date,
    );
  for (const agent of agents) {
    const row = answer.agents.find((r) => r.id === agent);
    const want = recount(events, zone, from, to, (e) => e.userId === agent);
    if (row) expectFigures(row, want, agent);
    else expect(want.opened + want.resolved + want.firstResponse.length + want.ratings.reduce((a, b) => a + b, 0), agent).toBe(0);
  }
  for (const department of departments) {
    const row = answer.departments.find((r) => r.id === (department ?? 'none'));
    if (row)
      expectFigures(
        row,
        recount(events, zone, from, to, (e) => e.departmentId === department),
        `department ${department}`,
      );
  }
  for (const connection of connections) {
    const row = answer.connections.find((r) => r.id === connection);
    if (row)
      expectFigures(
        row,
        recount(events, zone, from, to, (e) => e.serviceId === connection),
        connection,
      );
  }
  const heat = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const e of events.filter((e) => e.kind === 'started')) {
    const local = localParts(Date.parse(e.at), zone);
    if (local.date >= from && local.date <= to) heat[local.weekday]![local.hour]!++;
  }
  expect(answer.busiestHours).toEqual(heat);
}

describe('report rollups', () => {
  it('answer what a recount of the raw events answers, whatever the order and redelivery of the stream', async () => {
    await assertProperty(
      fc.asyncProperty(
        fc.constantFrom(...zones),
        fc.array(conversation, { minLength: 1, maxLength: 8 }),
        fc.infiniteStream(fc.nat()),
        async (zone, conversations, choices) => {
          const accountId = ulid();
          await putAccountSetting(
            ports.table,
            accountId,
            'business-hours',
            { timeZone: zone, shifts: [], holidays: [], departments: [] },
            { userId: 'u-ana', now: new Date().toISOString() },
          );
          const events = eventsOf(accountId, conversations);
          const pick = (n: number) => choices.next().value % n;
          // Written in a shuffled order, a few at a time; each batch's records delivered with some earlier ones again.
          const order = events.slice();
          for (let i = order.length - 1; i > 0; i--) {
            const j = pick(i + 1);
            [order[i], order[j]] = [order[j]!, order[i]!];
          }
          for (let i = 0; i < order.length; ) {
            const batch = order.slice(i, i + 1 + pick(4));
            await Promise.all(batch.map((item) => ports.table.doc.send(new PutCommand({ TableName: ports.table.name, Item: item }))));
            const again = order.slice(0, i).filter(() => pick(5) === 0);
            await rollUpEventDays(ports, [...again, ...batch]);
            i += batch.length;
          }
          const dates = events.map((e) => localParts(Date.parse(e.at), zone).date).sort();
          const [from, to] = [dates[0]!, dates.at(-1)!];
          const answer = await getReport(ports, session(accountId, 'u-ana', true), { from, to, compare: 'previous' });
          checkAnswer(answer, events, zone, from, to);
          expect(answer.previous?.totals.opened).toBe(0);

          // A period inside: the later half, compared with the one before it.
          const middle = dates[Math.floor(dates.length / 2)]!;
          const later = await getReport(ports, session(accountId, 'u-ana', true), { from: middle, to, compare: 'previous' });
          checkAnswer(later, events, zone, middle, to);
          const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);
          expect(dayMs(middle) - dayMs(later.previous!.to)).toBe(86_400_000);
          expect(dayMs(later.previous!.to) - dayMs(later.previous!.from)).toBe((later.days.length - 1) * 86_400_000);
          expectFigures(
            later.previous!.totals,
            recount(events, zone, later.previous!.from, later.previous!.to, () => true),
            'previous',
          );

          // A member: their own figures alone.
          const own = await getReport(ports, session(accountId, 'u-bia', false), { from, to });
          expect(own.scope).toBe('own');
          expectFigures(
            own.totals,
            recount(events, zone, from, to, (e) => e.userId === 'u-bia'),
            'own',
          );
          expect(own.agents.every((r) => r.id === 'u-bia')).toBe(true);
          expect([own.departments, own.connections]).toEqual([[], []]);

          // Rebuilt from the events, the same answer.
          await rebuildReportDays(ports, accountId, { from, to });
          expect(await getReport(ports, session(accountId, 'u-ana', true), { from, to, compare: 'previous' })).toEqual(answer);
        },
      ),
      { quick: 5, full: 100 },
    );
  }, 60_000);

  it('measures a waiting conversation of a day not over to the moment of the report, of a day over to its end', async () => {
    const accountId = ulid();
    // No business hours saved: the default zone, São Paulo (UTC−3). Noon there, a customer waiting since 11:30.
    const noon = Date.parse('2026-06-10T15:00:00Z');
    const events = eventsOf(accountId, [
      { startOffset: noon - 30 * 60_000 - windowStart, startedBy: null, departmentId: null, serviceId: 's-zap', firstResponse: null, resolution: null },
    ]);
    await ports.table.doc.send(new PutCommand({ TableName: ports.table.name, Item: events[0] }));
    const at = (instant: number) => ({ ...ports, clock: () => new Date(instant) }) as Ports;
    await rollUpEventDays(at(noon), events);
    const period = { from: '2026-06-10', to: '2026-06-10' };
    const today = await getReport(at(noon), session(accountId, 'u-ana', true), period);
    expect(today.totals.waiting).toBe(1);
    expect(bucketOf(today.totals.waitingTime.median!)).toBe(bucketOf(30 * 60_000));
    const tomorrow = await getReport(at(noon + 86_400_000), session(accountId, 'u-ana', true), period);
    expect(bucketOf(tomorrow.totals.waitingTime.p90!)).toBe(bucketOf(12.5 * 3_600_000));
  });

  it('keeps an even sample of the waiting starts of a day past the cap, and counts them all', () => {
    const start = Date.parse('2026-02-26T00:00:00Z');
    const events = eventsOf(
      'A',
      Array.from({ length: maxWaitingStarts + 500 }, (_, i) => ({
        startOffset: i * 10_000,
        startedBy: null,
        departmentId: null,
        serviceId: 's-zap',
        firstResponse: null,
        resolution: null,
      })),
    );
    const day = rollUpDay('A', '2026-02-26', 'UTC', events, new Date().toISOString());
    expect(day.total.waiting).toBe(maxWaitingStarts + 500);
    expect(day.total.waitingStarts).toHaveLength(maxWaitingStarts);
    expect([day.total.waitingStarts[0], day.total.waitingStarts.at(-1)]).toEqual([start, start + (maxWaitingStarts + 499) * 10_000]);
    expect(day.total.waitingStarts.every((at, i, all) => i === 0 || at > all[i - 1]!)).toBe(true);
  });

  it('keeps the rollup of more events when a recomputation from an older read comes last', async () => {
    const accountId = ulid();
    const events = eventsOf(accountId, [
      { startOffset: 3_600_000, startedBy: null, departmentId: null, serviceId: 's-zap', firstResponse: { waitMs: 60_000, by: 'u-ana' }, resolution: null },
    ]);
    const newer = rollUpDay(accountId, '2026-02-26', 'UTC', events, new Date().toISOString());
    const older = rollUpDay(accountId, '2026-02-26', 'UTC', events.slice(0, 1), new Date().toISOString());
    expect(await putReportDay(ports.table, newer)).toBe(true);
    expect(await putReportDay(ports.table, older)).toBe(false);
    const [stored] = await reportDaysBetween(ports.table, accountId, '2026-02-26', '2026-02-26');
    expect(stored).toMatchObject({ eventCount: 2, total: { opened: 1, waiting: 0, firstResponse: { [String(bucketOf(60_000))]: 1 } } });
  });
});
