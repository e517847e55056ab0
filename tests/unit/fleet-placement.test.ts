import { describe, expect, it } from 'vitest';
import { fairShare, placement } from '#connectors/fleet-placement.ts';

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
