/** The local runtime's gate for API reads: at most `limit` at once, the others in arrival order. */
import { describe, expect, it } from 'vitest';
import { ReadGate } from '../../infra/local/read-gate.ts';

describe('read gate', () => {
  it('runs at most its limit at once, starts the waiting ones in arrival order, and frees a failed one’s slot', async () => {
    const gate = new ReadGate(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const task = (n: number, fail = false) =>
      gate.run(async () => {
        started.push(n);
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        if (fail) throw new Error(`task ${n}`);
        return n;
      });
    const results = [task(1, true), task(2), task(3), task(4)].map((p) => p.catch((e: Error) => e.message));
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([1, 2]);
    releases.shift()!();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([1, 2, 3]);
    while (releases.length) {
      releases.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(results)).toEqual(['task 1', 2, 3, 4]);
    expect(started).toEqual([1, 2, 3, 4]);
    expect(most).toBe(2);
  });
});
