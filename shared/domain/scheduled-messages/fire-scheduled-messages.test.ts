import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { scheduledOccurrenceId } from './fire-scheduled-messages.ts';

describe("a scheduled occurrence's message id", () => {
  it('is the same for the same schedule and occurrence, whichever run builds it, and another for the next occurrence', () => {
    const due = Date.parse('2027-01-31T12:00:00Z');
    const id = scheduledOccurrenceId('01SCHEDULE', 3, due);
    expect(scheduledOccurrenceId('01SCHEDULE', 3, due)).toBe(id);
    expect(scheduledOccurrenceId('01SCHEDULE', 4, due)).not.toBe(id);
    expect(scheduledOccurrenceId('01OTHER', 3, due)).not.toBe(id);
  });

  it('is a ULID stamped with the due time, so the thread orders it there', () => {
    const due = Date.parse('2027-02-28T12:00:00Z');
    const id = scheduledOccurrenceId('01SCHEDULE', 2, due);
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(decodeTime(id)).toBe(due);
  });
});
