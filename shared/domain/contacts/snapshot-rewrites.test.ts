import { describe, expect, it } from 'vitest';
import { SnapshotRewrites, snapshotRewrite } from './snapshot-rewrites.ts';

function clocked() {
  let now = 1_000_000;
  const rewrites = new SnapshotRewrites(() => now);
  return { rewrites, advance: (ms: number) => (now += ms) };
}

/** What the consumer does with a batch: note, and write when due for the account's contacts. */
function batch(rewrites: SnapshotRewrites, accountId: string, changes: number, contacts: number): boolean {
  if (!rewrites.note(accountId, changes) || !rewrites.due(accountId, contacts)) return false;
  rewrites.written(accountId);
  return true;
}

describe('contact snapshot rewrites', () => {
  it('wait for changes worth a share of the account: 50 for a small one, 2 % of a large one', () => {
    const { rewrites, advance } = clocked();
    for (let i = 0; i < 49; i++) {
      expect(batch(rewrites, 'small', 1, 500)).toBe(false);
      advance(1000);
    }
    expect(batch(rewrites, 'small', 1, 500)).toBe(true);
    // 50,000 contacts: 1,000 changes.
    expect(batch(rewrites, 'large', 999, 50_000)).toBe(false);
    advance(1000);
    expect(batch(rewrites, 'large', 1, 50_000)).toBe(true);
  });

  it('write a few changes an hour after the first of them, with the next batch', () => {
    const { rewrites, advance } = clocked();
    expect(batch(rewrites, 'A', 3, 500)).toBe(false);
    advance(snapshotRewrite.maxPendingMs - 1);
    expect(batch(rewrites, 'A', 1, 500)).toBe(false);
    advance(1);
    expect(batch(rewrites, 'A', 1, 500)).toBe(true);
    // Counting starts again after the write.
    advance(snapshotRewrite.minIntervalMs);
    expect(batch(rewrites, 'A', 1, 500)).toBe(false);
  });

  it('write at most every 10 s per account, however many changes come', () => {
    const { rewrites, advance } = clocked();
    expect(batch(rewrites, 'A', 100, 500)).toBe(true);
    advance(snapshotRewrite.minIntervalMs - 1);
    expect(batch(rewrites, 'A', 500, 500)).toBe(false);
    advance(1);
    expect(batch(rewrites, 'A', 1, 500)).toBe(true);
  });

  it('forget accounts with nothing pending, and pending counts two hours old, so the map stays small', () => {
    const { rewrites, advance } = clocked();
    for (let i = 0; i < 100; i++) batch(rewrites, `written-${i}`, 60, 500);
    for (let i = 0; i < 100; i++) batch(rewrites, `quiet-${i}`, 1, 500);
    expect(rewrites.size).toBe(200);
    advance(60_000);
    batch(rewrites, 'other', 1, 500);
    // The written ones are gone; the quiet ones still wait for their hour.
    expect(rewrites.size).toBe(101);
    advance(2 * snapshotRewrite.maxPendingMs);
    batch(rewrites, 'other', 1, 500);
    expect(rewrites.size).toBe(1);
  });
});
