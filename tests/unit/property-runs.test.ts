import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty, propertyRuns, propertySeed } from '../support/property-runs.ts';

describe('property runs and seeds', () => {
  it('makes the quick count unless CONVERSA_PROPERTY_RUNS says full or a number, and refuses anything else', () => {
    const runs = { quick: 5, full: 50 };
    expect(propertyRuns(runs, undefined)).toBe(5);
    expect(propertyRuns(runs, 'full')).toBe(50);
    expect(propertyRuns(runs, '7')).toBe(7);
    expect(() => propertyRuns(runs, 'lots')).toThrow(/CONVERSA_PROPERTY_RUNS must be "full" or a whole number/);
    expect(propertySeed('42')).toBe(42);
    expect(() => propertySeed('x')).toThrow(/CONVERSA_PROPERTY_SEED/);
  });

  it('fails a false property with the line that replays it, and the replay fails the same way', async () => {
    const failing = () =>
      assertProperty(
        fc.property(fc.integer({ min: 0, max: 1000 }), (n) => n < 500),
        { quick: 200, full: 200 },
      );
    let first = '';
    try {
      failing();
    } catch (error) {
      first = (error as Error).message;
    }
    const replay = /replay with CONVERSA_PROPERTY_SEED=(\d+) CONVERSA_PROPERTY_RUNS=200$/.exec(first);
    expect(replay, first).not.toBeNull();
    const before = process.env.CONVERSA_PROPERTY_SEED;
    process.env.CONVERSA_PROPERTY_SEED = replay![1];
    try {
      expect(failing).toThrow(first.split('\n')[0]!);
    } finally {
      if (before === undefined) delete process.env.CONVERSA_PROPERTY_SEED;
      else process.env.CONVERSA_PROPERTY_SEED = before;
    }
    await expect(
      assertProperty(
        fc.asyncProperty(fc.integer({ min: 0 }), async (n) => n < 0),
        { quick: 3, full: 3 },
      ),
    ).rejects.toThrow(/replay with/);
  });
});
