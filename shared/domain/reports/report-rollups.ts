/**
 * Writing the reports' daily rollups (ADR-0234). The stream consumer hands the
 * conversation events it got; each (account, local day) they fall on is computed again, whole, from
 * that day's events read strongly, so a redelivered, late or out-of-order event changes nothing
 * but what the day's events say. A rebuild does the same for a period on demand.
 */
import type { ReportRebuild, ReportRebuildAnswer } from '#contracts/reports.ts';
import type { ConversationEventItem } from '#db/conversation-timers.ts';
import { conversationEventsBetween, putReportDay } from '#db/report-days.ts';
import { accountBusinessHours } from '../business-hours/settings.ts';
import { nextDate, wallClock } from '../business-hours/zoned-time.ts';
import type { Ports } from '../ports.ts';
import { dayBounds, rollUpDay } from './day-rollup.ts';

/** What writing rollups needs of the ports: the table and the clock. */
type RollupPorts = Pick<Ports, 'table' | 'clock'>;

/** Computes one local day's rollup from its events and stores it; answers how many events it read. */
async function rollUpReportDay(ports: RollupPorts, accountId: string, date: string, timeZone: string, options: { replace?: boolean } = {}): Promise<number> {
  const { start, end } = dayBounds(date, timeZone);
  const events = await conversationEventsBetween(ports.table, accountId, new Date(start).toISOString(), new Date(end).toISOString());
  await putReportDay(ports.table, rollUpDay(accountId, date, timeZone, events, ports.clock().toISOString()), options);
  return events.length;
}

/** The days the events fall on, by account, in each account's zone; each computed once. */
export async function rollUpEventDays(ports: RollupPorts, events: readonly Pick<ConversationEventItem, 'accountId' | 'at'>[]): Promise<void> {
  const byAccount = new Map<string, Set<string>>();
  for (const event of events) {
    const ats = byAccount.get(event.accountId) ?? new Set<string>();
    ats.add(event.at);
    byAccount.set(event.accountId, ats);
  }
  for (const [accountId, ats] of byAccount) {
    const { timeZone } = (await accountBusinessHours(ports, accountId)).hours;
    const dates = new Set([...ats].map((at) => wallClock(Date.parse(at), timeZone).date));
    for (const date of dates) await rollUpReportDay(ports, accountId, date, timeZone);
  }
}

/**
 * Every day of the period computed again from its events, in the account's zone now, replacing what
 * was stored (POST /reports/rebuild for the account's admins, scripts/rebuild-report-days.ts for operators).
 */
export async function rebuildReportDays(ports: RollupPorts, accountId: string, period: ReportRebuild): Promise<ReportRebuildAnswer> {
  const { timeZone } = (await accountBusinessHours(ports, accountId)).hours;
  const dates: string[] = [];
  for (let date = period.from; date <= period.to; date = nextDate(date)) dates.push(date);
  let events = 0;
  // A few days at a time: each is a Query and a Put.
  for (let i = 0; i < dates.length; i += 8) {
    const counts = await Promise.all(dates.slice(i, i + 8).map((date) => rollUpReportDay(ports, accountId, date, timeZone, { replace: true })));
    events += counts.reduce((sum, n) => sum + n, 0);
  }
  return { days: dates.length, events };
}
