/**
 * The months an account's purge empties of conversation events (account-deletion.ts): found from
 * the account's creation, not by a scan.
 */
import { describe, expect, it } from 'vitest';
import { eventMonths } from '../reports/event-months.ts';

describe("the months of an account's conversation events", () => {
  it("runs from the account's creation month to the month after now, across a year's end", () => {
    expect(eventMonths({ accountCreatedAt: '2026-11-03T10:00:00.000Z' }, new Date('2027-01-31T23:59:00.000Z'))).toEqual([
      '2026-11',
      '2026-12',
      '2027-01',
      '2027-02',
    ]);
    expect(eventMonths({ accountCreatedAt: '2026-11-28T01:00:00.000Z' }, new Date('2026-11-28T01:00:00.000Z'))).toEqual(['2026-11', '2026-12']);
  });

  it('starts at the month events were first written for a job that does not know when its account was made', () => {
    expect(eventMonths({}, new Date('2026-12-10T00:00:00.000Z'))).toEqual(['2026-11', '2026-12', '2027-01']);
  });
});
