import { describe, expect, it } from 'vitest';
import { scaledBars } from '#media/ogg-opus-waveform.ts';

describe('a voice note waveform scaled to 0–100', () => {
  it('gives the loudest bar exactly 100, even where 100 * m / m is not 100 in floating point', () => {
    const m = 0.7258836419792158;
    expect(Math.floor((100 * m) / m)).toBe(99);
    expect([...scaledBars([m / 2, m, m / 4])]).toEqual([50, 100, 25]);
  });

  it('is all zeros for silence, and never above 100', () => {
    expect([...scaledBars([0, 0, 0])]).toEqual([0, 0, 0]);
    const bars = scaledBars(Array.from({ length: 64 }, () => Math.random()));
    expect(Math.max(...bars)).toBe(100);
    expect(bars.every((b) => b <= 100)).toBe(true);
  });
});
