/**
 * The rate limits slide: for request times drawn around window edges (seeded, so a failure
 * reproduces), no interval of one window length ever holds more allowed requests than the limit,
 * and a request is refused only when that many were allowed in the window before it. Against
 * dynalite behind the local DynamoDB front, as the runtime stores them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalTable, startLocalTable } from '../../../tests/support/local-table.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { Table } from '#db/client.ts';
import { readCounter, releaseHit, takeHit } from '#db/rate-counters.ts';
import { consume, type Limit, take, withinFailureBudget } from './rate-limits.ts';
import { DomainError } from '#domain/errors.ts';
import type { Ports } from '#domain/ports.ts';

let local: LocalTable;
let table: Table;

beforeAll(async () => {
  local = await startLocalTable('rate-limits-test');
  table = local.ports.table;
});

afterAll(async () => {
  await local.close();
});

/** Ports with a clock the test moves; the rate limits use nothing else. */
function portsAt(clock: { now: number }): Ports {
  return { table, clock: () => new Date(clock.now) } as unknown as Ports;
}

/** A small seeded generator (mulberry32). */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const refused = (promise: Promise<unknown>) =>
  promise.then(
    () => false,
    (error: unknown) => {
      if (error instanceof DomainError && error.kind === 'tooMany' && error.message === errorTexts.tooManyAttempts) return true;
      throw error;
    },
  );

/** Most allowed requests in any half-open interval of one window length (one starting at each allowed request suffices). */
function busiestWindow(allowed: number[], windowMs: number): number {
  return Math.max(0, ...allowed.map((start) => allowed.filter((at) => at >= start && at < start + windowMs).length));
}

let subjects = 0;

describe('sliding-window rate limits', () => {
  const limit: Limit = { scope: 'test', max: 5, windowSeconds: 60 };
  const windowMs = limit.windowSeconds * 1000;

  it('gives no second budget at a window edge', async () => {
    const clock = { now: 10 * windowMs - 100 };
    const ports = portsAt(clock);
    const subject = `edge-${++subjects}`;
    for (let i = 0; i < 5; i++) await consume(ports, [[limit, subject]]);
    clock.now += 200; // a fixed window would start afresh here
    expect(await refused(consume(ports, [[limit, subject]]))).toBe(true);
    clock.now += windowMs - 200 - 1; // 1 ms before the first hit leaves the window
    expect(await refused(consume(ports, [[limit, subject]]))).toBe(true);
    clock.now += 1;
    expect(await refused(consume(ports, [[limit, subject]]))).toBe(false);
  });

  it('never lets more than the limit into any window-length interval, and refuses only a full window (seeded runs)', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const next = random(seed);
      const subject = `prop-${seed}-${++subjects}`;
      // Times bunched around the edges of fixed windows (k × window ± a few seconds), in order.
      const times = Array.from({ length: 24 }, () => Math.floor(1 + next() * 3) * windowMs + Math.round((next() - 0.5) * 10_000)).sort((a, b) => a - b);
      const clock = { now: 0 };
      const ports = portsAt(clock);
      const allowed: number[] = [];
      for (const at of times) {
        clock.now = at;
        const before = allowed.filter((t) => t > at - windowMs).length;
        const wasRefused = await refused(consume(ports, [[limit, subject]]));
        expect(wasRefused, `seed ${seed}: at ${at} with ${before} in the window`).toBe(before >= limit.max);
        if (!wasRefused) allowed.push(at);
      }
      expect(busiestWindow(allowed, windowMs), `seed ${seed}`).toBeLessThanOrEqual(limit.max);
    }
  }, 120_000);

  it('lets concurrent callers take no more than the budget', async () => {
    const ports = portsAt({ now: 50 * windowMs });
    const subject = `race-${++subjects}`;
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => refused(consume(ports, [[limit, subject]]))));
    expect(outcomes.filter((r) => !r)).toHaveLength(limit.max);
  }, 30_000);

  it('takes a crowd of 60 concurrent tries on a budget of 10 exactly 10 times, and never fails one (no lost race escapes)', async () => {
    const crowd: Limit = { scope: 'crowd', max: 10, windowSeconds: 900 };
    const ports = portsAt({ now: 60 * windowMs });
    for (let round = 0; round < 3; round++) {
      const subject = `crowd-${++subjects}`;
      const outcomes = await Promise.all(Array.from({ length: 60 }, () => refused(take(ports, [[crowd, subject]]))));
      expect(outcomes.filter((r) => !r)).toHaveLength(crowd.max);
      expect(await readCounter(table, crowd.scope, subject, crowd.windowSeconds, 60 * windowMs)).toBe(crowd.max);
    }
  }, 60_000);

  it('a budget of 50 taken by 60 at once: 50 pass, the rest are refused, none fails', async () => {
    const wide: Limit = { scope: 'wide', max: 50, windowSeconds: 900 };
    const ports = portsAt({ now: 61 * windowMs });
    const subject = `wide-${++subjects}`;
    const outcomes = await Promise.all(Array.from({ length: 60 }, () => refused(take(ports, [[wide, subject]]))));
    expect(outcomes.filter((r) => !r)).toHaveLength(wide.max);
  }, 60_000);

  it('failure budgets: a failed attempt keeps its unit, a successful one gives it back; attempts in flight count', async () => {
    const clock = { now: 80 * windowMs + 30_000 };
    const ports = portsAt(clock);
    const subject = `fail-${++subjects}`;
    const failing = () => withinFailureBudget(ports, [[limit, subject]], () => Promise.reject(new Error('wrong password')));
    for (let i = 0; i < 3; i++) await expect(failing()).rejects.toThrow('wrong password');
    for (let i = 0; i < 4; i++) expect(await withinFailureBudget(ports, [[limit, subject]], async () => 'ok')).toBe('ok');
    expect(await readCounter(table, limit.scope, subject, limit.windowSeconds, clock.now)).toBe(3);
    // Five attempts at once, each slow: two fit beside the three failures, three are refused before they run.
    let ran = 0;
    const slow = () =>
      withinFailureBudget(ports, [[limit, subject]], async () => {
        ran++;
        await new Promise((r) => setTimeout(r, 30));
      });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => refused(slow())));
    expect(outcomes.filter((r) => r)).toHaveLength(3);
    expect(ran).toBe(2);
    expect(await readCounter(table, limit.scope, subject, limit.windowSeconds, clock.now)).toBe(3);
  });

  it('refusing one budget gives back the unit taken from the other', async () => {
    const ports = portsAt({ now: 90 * windowMs });
    const full = `full-${++subjects}`;
    const other = `other-${++subjects}`;
    for (let i = 0; i < limit.max; i++) await consume(ports, [[limit, full]]);
    expect(
      await refused(
        take(ports, [
          [limit, other],
          [limit, full],
        ]),
      ),
    ).toBe(true);
    expect(await readCounter(table, limit.scope, other, limit.windowSeconds, 90 * windowMs)).toBe(0);
  });

  it('prunes hits that left the window while others take and give back at the same time', async () => {
    const subject = `prune-${++subjects}`;
    const early = 100 * windowMs;
    for (let i = 0; i < 4; i++) expect(await takeHit(table, limit.scope, subject, limit, early + i)).toBe(early + i);
    const later = early + windowMs + 10; // all four have left the window
    const [taken, , ...more] = await Promise.all([
      takeHit(table, limit.scope, subject, limit, later),
      releaseHit(table, limit.scope, subject, early + 1),
      ...Array.from({ length: 6 }, (_, i) => takeHit(table, limit.scope, subject, limit, later + 1 + i)),
    ]);
    expect([taken, ...more].filter((at) => at !== undefined)).toHaveLength(limit.max);
    expect(await readCounter(table, limit.scope, subject, limit.windowSeconds, later + 10)).toBe(limit.max);
    await releaseHit(table, limit.scope, subject, later);
    expect(await readCounter(table, limit.scope, subject, limit.windowSeconds, later + 10)).toBe(limit.max - (taken === undefined ? 0 : 1));
  });
});
