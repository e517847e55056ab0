import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultRebalance, type FairShare, fairShare, placement, type RebalanceOptions, sessionsToLetGo, sessionsToTake } from '#connectors/fleet-placement.ts';
import { assertProperty } from '../support/property-runs.ts';

const now = 1_000_000;
const member = (workerId: string, sessions: number, capacity?: number, expiresAt = now + 10_000) => ({ workerId, sessions, capacity, expiresAt });

describe('placing a command whose connection nobody holds', () => {
  it('goes to the live worker with the most room, by sessions over capacity', () => {
    const beats = [member('a', 20, 33), member('b', 5, 33), member('c', 10, 33)];
    expect(placement(beats, now)).toBe('b');
  });

  it('skips dead workers, full workers and the excluded one; none left: undefined', () => {
    const beats = [member('dead', 0, 33, now - 1), member('full', 33, 33), member('me', 0, 33)];
    expect(placement(beats, now)).toBe('me');
    expect(placement(beats, now, new Set(['me']))).toBeUndefined();
  });

  it('spreads between workers about as loaded as each other, at random', () => {
    const beats = [member('a', 10, 33), member('b', 10, 33), member('c', 30, 33)];
    expect(placement(beats, now, new Set(), () => 0)).toBe('a');
    expect(placement(beats, now, new Set(), () => 0.99)).toBe('b');
  });
});

describe('the fair share', () => {
  it('is the sessions wanted over the live workers, rounded up, capped by the capacity, with a slack of one before letting go', () => {
    expect(fairShare(100, 3)).toEqual({ share: 34, over: 35 });
    expect(fairShare(100, 3, 30)).toEqual({ share: 30, over: 31 });
    expect(fairShare(5, 0)).toEqual({ share: 5, over: 6 });
  });
});

describe('letting go and taking at a scan', () => {
  const fair = (share: number): FairShare => ({ share, over: share + 1 });

  it('lets half the excess go, rounded up, at most the cap per scan, never below the share; all of it when the rest would be within the slack', () => {
    expect(sessionsToLetGo(60, fair(45), 0)).toBe(8);
    expect(sessionsToLetGo(52, fair(45), 45)).toBe(4);
    expect(sessionsToLetGo(100, fair(45), 45)).toBe(10);
    expect(sessionsToLetGo(48, fair(45), 45)).toBe(3);
    expect(sessionsToLetGo(47, fair(45), 45)).toBe(2);
    expect(sessionsToLetGo(56, fair(45), 45, { letGoFraction: 0.5, letGoPerScan: 2 })).toBe(2);
    expect(sessionsToLetGo(47, fair(45), 45, { letGoFraction: 1, letGoPerScan: 10 })).toBe(2);
    expect(sessionsToLetGo(60, fair(45), 0, { letGoFraction: 0.5, letGoPerScan: 0 })).toBe(0);
  });

  it('within the slack lets one go only while another worker is more than the slack under the share', () => {
    expect(sessionsToLetGo(46, fair(45), 44)).toBe(0);
    expect(sessionsToLetGo(46, fair(45), 43)).toBe(1);
    expect(sessionsToLetGo(45, fair(45), 0)).toBe(0);
  });

  it('takes up to the share and the capacity, counting the sessions being opened', () => {
    expect(sessionsToTake(0, 0, 45)).toBe(45);
    expect(sessionsToTake(40, 3, 45)).toBe(2);
    expect(sessionsToTake(20, 0, 45, 33)).toBe(13);
    expect(sessionsToTake(50, 0, 45)).toBe(0);
  });

  it('never both lets go and takes at one scan', () => {
    for (let held = 0; held < 80; held++)
      for (const least of [0, 20, 44, 45, 60]) if (sessionsToLetGo(held, fair(45), least) > 0) expect(sessionsToTake(held, 0, 45)).toBe(0);
  });
});

/**
 * The fleet at the granularity of scans, on the decision functions: each round every live worker
 * scans once, in a random order, knowing the others' counts as of their last beat (the round
 * before); sessions let go are free at once, and taken by whoever scans next with room. Events
 * (a worker joining, one leaving or dying, whose sessions go free) happen between rounds.
 */
class Fleet {
  /** Holder of each session wanted (undefined: free). */
  readonly holder: (string | undefined)[];
  readonly workers: string[] = [];
  private beats = new Map<string, number>();
  private named = 0;
  /** Per session, times it was let go since `watch()`. */
  letGo: number[];
  /** Per worker, its counts since `watch()`. */
  history = new Map<string, number[]>();

  constructor(
    wanted: number,
    private readonly random: () => number,
    private readonly options: RebalanceOptions = defaultRebalance,
    private readonly capacity = Number.POSITIVE_INFINITY,
  ) {
    this.holder = Array.from({ length: wanted }, () => undefined);
    this.letGo = this.holder.map(() => 0);
  }

  count(workerId: string): number {
    return this.holder.filter((h) => h === workerId).length;
  }

  counts(): number[] {
    return this.workers.map((w) => this.count(w));
  }

  join(): string {
    const id = `w${++this.named}`;
    this.workers.push(id);
    this.beats.set(id, 0);
    return id;
  }

  leave(index: number): void {
    const [gone] = this.workers.splice(index % this.workers.length, 1);
    this.beats.delete(gone!);
    for (let i = 0; i < this.holder.length; i++) if (this.holder[i] === gone) this.holder[i] = undefined;
  }

  watch(): void {
    this.letGo = this.holder.map(() => 0);
    this.history = new Map(this.workers.map((w) => [w, [this.count(w)]]));
  }

  private shuffled<T>(items: T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** One scan of each live worker; true when nothing moved. */
  round(): boolean {
    let moved = false;
    for (const w of this.shuffled(this.workers)) {
      const mine = this.holder.flatMap((h, i) => (h === w ? [i] : []));
      const share = fairShare(this.holder.length, this.workers.length, this.capacity);
      const others = this.workers.filter((o) => o !== w).map((o) => this.beats.get(o) ?? 0);
      const least = others.length ? Math.min(...others) : Number.POSITIVE_INFINITY;
      const out = sessionsToLetGo(mine.length, share, least, this.options);
      const take = sessionsToTake(mine.length, 0, share.share, this.capacity);
      expect(out > 0 && take > 0).toBe(false);
      for (const i of this.shuffled(mine).slice(0, out)) {
        this.holder[i] = undefined;
        this.letGo[i]!++;
        moved = true;
      }
      const free = this.shuffled(this.holder.flatMap((h, i) => (h === undefined ? [i] : [])));
      for (const i of free.slice(0, take)) {
        this.holder[i] = w;
        moved = true;
      }
    }
    for (const w of this.workers) {
      this.beats.set(w, this.count(w));
      this.history.get(w)?.push(this.count(w));
    }
    return !moved;
  }

  /** Rounds until one moves nothing (at most `limit`): how many moved something. */
  settle(limit = 200): number {
    for (let rounds = 0; rounds < limit; rounds++) if (this.round()) return rounds;
    return limit;
  }
}

/** A small deterministic generator (mulberry32), seeded by fast-check. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the fleet evening out over scans', () => {
  const loaded = (options?: RebalanceOptions) => {
    const fleet = new Fleet(180, seeded(7), options);
    for (let i = 0; i < 3; i++) fleet.join();
    fleet.settle();
    expect(fleet.counts()).toEqual([60, 60, 60]);
    fleet.join();
    fleet.watch();
    return fleet;
  };

  it('a worker joining three that hold 60 each has its share within 4 scans (8 with the former two per scan), each session moved once', () => {
    const fleet = loaded();
    // 8, 4, 3 let go by each; one scan more when the newcomer scans before the others in the last round.
    expect(fleet.settle()).toBeLessThanOrEqual(4);
    expect(fleet.counts()).toEqual([45, 45, 45, 45]);
    expect(Math.max(...fleet.letGo)).toBe(1);
    expect(fleet.letGo.reduce((a, b) => a + b, 0)).toBe(45);

    const before = loaded({ letGoFraction: 1, letGoPerScan: 2, startEveryMs: 0 });
    expect(before.settle()).toBeGreaterThanOrEqual(8);
  });

  it('a worker joining three that hold 100 each: the cap per scan bounds each batch, within 5 scans', () => {
    const fleet = new Fleet(300, seeded(3));
    for (let i = 0; i < 3; i++) fleet.join();
    fleet.settle();
    fleet.join();
    fleet.watch();
    // 10, 8, 4, 3 let go by each (the first capped); 13 scans at two per scan.
    expect(fleet.settle()).toBeLessThanOrEqual(5);
    expect(fleet.counts()).toEqual([75, 75, 75, 75]);
    expect(Math.max(...fleet.letGo)).toBe(1);
  });

  it('after any joins and leaves, settles within a few scans, counts moving only towards the share and no session moved twice (fast-check)', () => {
    const event = fc.oneof(
      fc.constant({ kind: 'join' as const }),
      fc.nat(20).map((index) => ({ kind: 'leave' as const, index })),
      fc.constant({ kind: 'scan' as const }),
    );
    assertProperty(
      fc.property(
        fc.integer({ min: 1, max: 320 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(event, { maxLength: 30 }),
        fc.nat(),
        (wanted, first, events, seed) => {
          const fleet = new Fleet(wanted, seeded(seed));
          for (let i = 0; i < first; i++) fleet.join();
          for (const e of events) {
            if (e.kind === 'join') fleet.join();
            else if (e.kind === 'leave' && fleet.workers.length > 1) fleet.leave(e.index);
            fleet.round();
          }
          fleet.watch();
          const { share, over } = fairShare(wanted, fleet.workers.length);
          const excess = Math.max(0, ...fleet.counts().map((n) => n - share));
          const rounds = fleet.settle();
          // Half the excess per scan (at most the cap), plus a scan for the beats to catch up and one to take the last.
          expect(rounds).toBeLessThanOrEqual(Math.ceil(excess / defaultRebalance.letGoPerScan) + Math.ceil(Math.log2(excess + 1)) + 2);
          const counts = fleet.counts();
          expect(counts.reduce((a, b) => a + b, 0)).toBe(wanted);
          expect(Math.max(...counts)).toBeLessThanOrEqual(over);
          expect(Math.max(...counts) > share && Math.min(...counts) < share - 1).toBe(false);
          // Settled: nothing moves through many more scans.
          for (let i = 0; i < 20; i++) expect(fleet.round()).toBe(true);
          expect(Math.max(0, ...fleet.letGo)).toBeLessThanOrEqual(1);
          for (const history of fleet.history.values()) {
            const rising = history.every((n, i) => i === 0 || n >= history[i - 1]!);
            const falling = history.every((n, i) => i === 0 || n <= history[i - 1]!);
            expect(rising || falling).toBe(true);
          }
        },
      ),
      { quick: 60, full: 2000 },
    );
    // The full runs (CONVERSA_PROPERTY_RUNS=full) take several seconds.
  }, 120_000);
});
