import { describe, expect, it } from 'vitest';
import { pickRoundRobin, type RoundRobinMember } from './round-robin.ts';

const member = (userId: string, openCount = 0, online = true): RoundRobinMember => ({ userId, online, openCount });

describe('round-robin assignment', () => {
  const team = [member('u-caio'), member('u-ana'), member('u-bia')];

  it('takes turns in a fixed order after the last one picked, wrapping around', () => {
    expect(pickRoundRobin(team, null, 5)).toBe('u-ana');
    expect(pickRoundRobin(team, 'u-ana', 5)).toBe('u-bia');
    expect(pickRoundRobin(team, 'u-bia', 5)).toBe('u-caio');
    expect(pickRoundRobin(team, 'u-caio', 5)).toBe('u-ana');
  });

  it('continues after a last pick who has left the department', () => {
    expect(pickRoundRobin(team, 'u-b', 5)).toBe('u-bia');
  });

  it('skips members offline or at the cap, and answers null when nobody fits', () => {
    const busy = [member('u-ana', 5), member('u-bia', 0, false), member('u-caio', 4)];
    expect(pickRoundRobin(busy, null, 5)).toBe('u-caio');
    expect(pickRoundRobin(busy, null, 4)).toBeNull();
    expect(pickRoundRobin([], null, 5)).toBeNull();
  });
});
