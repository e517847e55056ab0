/** The month partitions an account's (or a contact's) conversation events may be in (keys.conversationEvent, ADR-0234). */

/** The month conversation events were first written (reports, ADR-0234): a job that does not know its account's creation starts there. */
const firstEventsMonth = '2026-11';

/**
 * The months ('2026-11') that may hold the account's conversation events, found without a scan:
 * from the account's creation to the month after now (an event's time may run a little ahead of
 * this clock, a channel's timestamp at a month's end).
 */
export function eventMonths(job: { accountCreatedAt?: string | null }, now: Date): string[] {
  const start = job.accountCreatedAt?.slice(0, 7) ?? firstEventsMonth;
  let year = Number(start.slice(0, 4));
  let month = Number(start.slice(5, 7));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
  const months: string[] = [];
  for (;;) {
    const current = `${year}-${String(month).padStart(2, '0')}`;
    if (current > last) return months;
    months.push(current);
    month = month === 12 ? 1 : month + 1;
    if (month === 1) year++;
  }
}
