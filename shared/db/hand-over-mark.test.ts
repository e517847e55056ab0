import { describe, expect, it } from 'vitest';
import { onlyHandOverMarked } from '#db/outbound-messages.ts';

const message = { type: 'Message', id: 'm1', ack: 0, sendAttempt: 1, text: 'Oi' };

describe('the hand-over mark is bookkeeping for realtime', () => {
  it('is a change of the mark alone when nothing else of the message changed', () => {
    expect(onlyHandOverMarked({ ...message, handedOverAttempt: 1 }, message)).toBe(true);
    expect(onlyHandOverMarked(message, { ...message, handedOverAttempt: 1 })).toBe(true);
  });

  it('is not when anything else changed, nothing changed, or the item is not a message', () => {
    expect(onlyHandOverMarked({ ...message, handedOverAttempt: 1, ack: 1 }, message)).toBe(false);
    expect(onlyHandOverMarked(message, message)).toBe(false);
    expect(onlyHandOverMarked({ ...message, handedOverAttempt: 1 }, undefined)).toBe(false);
    expect(onlyHandOverMarked({ type: 'Contact', handedOverAttempt: 1 }, { type: 'Contact' })).toBe(false);
  });
});
