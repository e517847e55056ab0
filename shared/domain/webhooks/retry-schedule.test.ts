import { describe, expect, it } from 'vitest';
import { maxWebhookAttempts, nextAttemptAt } from './retry-schedule.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The whole schedule from `at`, each wait jittered by `random`. */
function schedule(random: () => number): number[] {
  const times = [0];
  for (let attempt = 1; ; attempt++) {
    const next = nextAttemptAt(attempt, times.at(-1)!, random);
    if (next === null) return times;
    times.push(next);
  }
}

describe('webhook retry schedule', () => {
  it('backs off exponentially-ish and gives up after eight attempts, about a day after the first', () => {
    const times = schedule(() => 0.5);
    expect(times).toHaveLength(maxWebhookAttempts);
    expect(times.slice(1, 4)).toEqual([1 * MINUTE, 6 * MINUTE, 36 * MINUTE]);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThanOrEqual(gaps[i - 1]!);
    expect(times.at(-1)! / HOUR).toBeGreaterThan(23);
    expect(times.at(-1)! / HOUR).toBeLessThan(24);
  });

  it('moves each wait by at most 10% either way', () => {
    const low = schedule(() => 0);
    const high = schedule(() => 0.999_999);
    expect(low[1]).toBe(0.9 * MINUTE);
    expect(high[1]).toBe(1.1 * MINUTE);
    expect(low.at(-1)! / HOUR).toBeGreaterThan(21);
    expect(high.at(-1)! / HOUR).toBeLessThan(26);
  });
});
