/** The per-connection pace of sends, on fake timers. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendPacer } from './send-pace.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Asks for `count` turns of `key` at once; answers the fake clock's time at which each was given. */
function turns(pacer: ReturnType<typeof sendPacer>, key: string, count: number, given: { key: string; at: number; n: number }[]) {
  for (let n = 0; n < count; n++) void pacer.turn(key).then(() => given.push({ key, at: Date.now() - 1_000_000, n }));
}

describe('the send pacer', () => {
  it('gives a connection one turn at once, then one every interval, in the order asked', async () => {
    const pacer = sendPacer({ intervalMs: 1000, jitterMs: 0 });
    const given: { key: string; at: number; n: number }[] = [];
    turns(pacer, 'S1', 3, given);
    await vi.advanceTimersByTimeAsync(0);
    expect(given).toEqual([{ key: 'S1', at: 0, n: 0 }]);
    await vi.advanceTimersByTimeAsync(999);
    expect(given).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(given.map((g) => [g.n, g.at])).toEqual([
      [0, 0],
      [1, 1000],
    ]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(given.map((g) => [g.n, g.at])).toEqual([
      [0, 0],
      [1, 1000],
      [2, 2000],
    ]);
  });

  it('counts the gap from when the previous send said it started, not from its turn', async () => {
    const pacer = sendPacer({ intervalMs: 1000, jitterMs: 0 });
    const given: { key: string; at: number; n: number }[] = [];
    turns(pacer, 'S1', 2, given);
    await vi.advanceTimersByTimeAsync(0);
    expect(given.map((g) => g.at)).toEqual([0]);
    // The first send's hand-over write took 150 ms: it calls the channel at 150.
    await vi.advanceTimersByTimeAsync(150);
    pacer.started('S1');
    await vi.advanceTimersByTimeAsync(1000 - 150);
    expect(given).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(149);
    expect(given).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(given.map((g) => g.at)).toEqual([0, 1150]);
  });

  it('does not hold up another connection', async () => {
    const pacer = sendPacer({ intervalMs: 1000, jitterMs: 0 });
    const given: { key: string; at: number; n: number }[] = [];
    turns(pacer, 'S1', 2, given);
    turns(pacer, 'S2', 1, given);
    await vi.advanceTimersByTimeAsync(0);
    expect(given.map((g) => [g.key, g.at])).toEqual([
      ['S1', 0],
      ['S2', 0],
    ]);
  });

  it('a send long after the last one goes at once; one soon after waits only the rest of the interval', async () => {
    const pacer = sendPacer({ intervalMs: 1000, jitterMs: 0 });
    const given: { key: string; at: number; n: number }[] = [];
    turns(pacer, 'S1', 1, given);
    await vi.advanceTimersByTimeAsync(5000);
    turns(pacer, 'S1', 1, given);
    await vi.advanceTimersByTimeAsync(0);
    expect(given.map((g) => g.at)).toEqual([0, 5000]);
    await vi.advanceTimersByTimeAsync(400);
    turns(pacer, 'S1', 1, given);
    await vi.advanceTimersByTimeAsync(599);
    expect(given).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(given.map((g) => g.at)).toEqual([0, 5000, 6000]);
  });

  it('varies each gap by up to the jitter either way', async () => {
    // random() 0 → interval - jitter; 1 → interval + jitter.
    const draws = [0, 1];
    const pacer = sendPacer({ intervalMs: 1000, jitterMs: 200, random: () => draws.shift() ?? 0.5 });
    const given: { key: string; at: number; n: number }[] = [];
    turns(pacer, 'S1', 3, given);
    await vi.advanceTimersByTimeAsync(5000);
    expect(given.map((g) => g.at)).toEqual([0, 1200, 2200]);
  });

  it('forgets an idle connection once no gap can apply, and paces it afresh', async () => {
    const pacer = sendPacer({ intervalMs: 1000, jitterMs: 100 });
    const given: { key: string; at: number; n: number }[] = [];
    turns(pacer, 'S1', 1, given);
    await vi.advanceTimersByTimeAsync(1100);
    expect(vi.getTimerCount()).toBe(0);
    turns(pacer, 'S1', 1, given);
    await vi.advanceTimersByTimeAsync(0);
    expect(given.map((g) => g.at)).toEqual([0, 1100]);
  });
});
