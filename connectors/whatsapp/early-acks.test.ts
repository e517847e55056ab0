/** The waiting room of acks whose message is not stored yet: merging, retry schedule, expiry and bound. */
import { describe, expect, it } from 'vitest';
import { EarlyAcks } from './early-acks.ts';

describe('early acks', () => {
  it('merges later acks of one message as the domain does (forward only; error wins)', () => {
    const acks = new EarlyAcks({ keepMs: 1000, firstRetryMs: 10, max: 10 });
    acks.keep({ channelMessageId: 'M1', ack: 3 }, 0);
    acks.keep({ channelMessageId: 'M1', ack: 2 }, 1);
    expect(acks.take('M1')).toEqual({ channelMessageId: 'M1', ack: 3 });
    acks.keep({ channelMessageId: 'M2', ack: 2 }, 0);
    acks.keep({ channelMessageId: 'M2', ack: -2 }, 1);
    expect(acks.take('M2')).toEqual({ channelMessageId: 'M2', ack: -2 });
    expect(acks.take('M2')).toBeNull();
  });

  it('is due after the first delay, then after twice as long each time, and not again while a try is under way', () => {
    const acks = new EarlyAcks({ keepMs: 10_000, firstRetryMs: 100, max: 10 });
    acks.keep({ channelMessageId: 'M1', ack: 2 }, 0);
    expect(acks.due(99)).toEqual([]);
    expect(acks.due(100)).toEqual([{ channelMessageId: 'M1', ack: 2 }]);
    expect(acks.due(150)).toEqual([]);
    acks.again({ channelMessageId: 'M1', ack: 2 }, 150);
    expect(acks.due(349)).toEqual([]);
    expect(acks.due(350)).toHaveLength(1);
    acks.forget('M1');
    expect(acks.size).toBe(0);
  });

  it('drops acks kept past keepMs, and the oldest when full', () => {
    const acks = new EarlyAcks({ keepMs: 1000, firstRetryMs: 100, max: 2 });
    acks.keep({ channelMessageId: 'A', ack: 1 }, 0);
    acks.keep({ channelMessageId: 'B', ack: 1 }, 10);
    acks.keep({ channelMessageId: 'C', ack: 1 }, 20);
    expect(acks.take('A')).toBeNull();
    expect(acks.size).toBe(2);
    expect(acks.due(1015).map((a) => a.channelMessageId)).toEqual(['C']);
    expect(acks.size).toBe(1);
  });
});
