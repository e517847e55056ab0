/**
 * GET /reports (docs/product.md#reports): a period's figures from its days' rollups (ADR-0234), never from the raw events or messages. Admins see the account's, with a row per
 * agent, department and connection; a member sees their own figures alone (the agent's slice of
 * every day). Days are the account's zone's; a day without a rollup had no events.
 */
import type { DurationFigures, RatingFigures, ReportAnswer, ReportFigures, ReportQuery, ReportRow } from '#contracts/reports.ts';
import { daysBetween } from '#contracts/reports.ts';
import type { ReportDayItem, StoredFigures } from '#db/report-days.ts';

/** What the report reads of a day: the whole, or a member's slice in the same shape. */
type Day = Pick<ReportDayItem, 'date' | 'weekday' | 'timeZone' | 'total' | 'agents' | 'departments' | 'connections'>;
import { agentReportDaysBetween, reportDaysBetween } from '#db/report-days.ts';
import { accountServices } from '#db/services.ts';
import { accountUsers } from '#db/users.ts';
import { accountBusinessHours } from '../business-hours/settings.ts';
import { nextDate } from '../business-hours/zoned-time.ts';
import { accountDepartments } from '../departments/departments.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { dayBounds, emptyFigures, noDepartment } from './day-rollup.ts';
import { addDuration, type DurationHistogram, histogramCount, mergeHistograms, percentile } from './duration-histogram.ts';

export const noDepartmentName = 'Sem departamento';
export const goneName = 'Removido';

/** Days' figures added up: the waiting conversations' starts become waiting times (a histogram, as the other durations). */
type FigureSum = Omit<StoredFigures, 'waitingStarts'> & { waitingTime: DurationHistogram };

const emptySum = (): FigureSum => {
  const { waitingStarts: _, ...rest } = emptyFigures();
  return { ...rest, waitingTime: {} };
};

/** Adds one day's figures to a running sum; its waiting conversations waited until `until` (the day's end, or now for a day not over). */
function addFigures(into: FigureSum, from: StoredFigures | undefined, until: number): void {
  if (!from) return;
  into.opened += from.opened;
  into.resolved += from.resolved;
  into.waiting += from.waiting;
  mergeHistograms(into.firstResponse, from.firstResponse);
  mergeHistograms(into.resolution, from.resolution);
  for (const start of from.waitingStarts ?? []) addDuration(into.waitingTime, until - start);
  mergeHistograms(into.ratings, from.ratings);
  mergeHistograms(into.hours, from.hours);
}

const durations = (histogram: DurationHistogram): DurationFigures => ({
  count: histogramCount(histogram),
  median: percentile(histogram, 0.5),
  p90: percentile(histogram, 0.9),
});

function ratingsOf(counts: Record<string, number>): RatingFigures {
  const distribution = [1, 2, 3, 4, 5].map((score) => counts[String(score)] ?? 0) as RatingFigures['distribution'];
  const count = distribution.reduce((sum, n) => sum + n, 0);
  const sum = distribution.reduce((total, n, i) => total + n * (i + 1), 0);
  return { count, average: count ? Math.round((sum / count) * 100) / 100 : null, distribution };
}

/** The answer's figures from summed ones. */
function figuresOf(stored: FigureSum): ReportFigures {
  return {
    opened: stored.opened,
    resolved: stored.resolved,
    waiting: stored.waiting,
    firstResponse: durations(stored.firstResponse),
    resolution: durations(stored.resolution),
    waitingTime: durations(stored.waitingTime),
    ratings: ratingsOf(stored.ratings),
  };
}

function datesOf(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = nextDate(date)) dates.push(date);
  return dates;
}

function rows(
  days: readonly Day[],
  group: 'agents' | 'departments' | 'connections',
  names: ReadonlyMap<string, string>,
  until: (day: Day) => number,
): ReportRow[] {
  const sums = new Map<string, FigureSum>();
  for (const day of days) {
    for (const [id, figures] of Object.entries(day[group])) {
      const sum = sums.get(id) ?? emptySum();
      addFigures(sum, figures, until(day));
      sums.set(id, sum);
    }
  }
  return [...sums]
    .map(([id, sum]) => ({ id, name: names.get(id) ?? goneName, ...figuresOf(sum) }))
    .sort((a, b) => b.opened + b.resolved - (a.opened + a.resolved) || a.name.localeCompare(b.name, 'pt-BR'));
}

export async function getReport(ports: Ports, session: AccountSession, query: ReportQuery): Promise<ReportAnswer> {
  const accountId = session.accountId;
  const own = !session.user.isAdmin;
  const length = daysBetween(query.from, query.to);
  const previous = query.compare === 'previous' ? { from: nextDate(query.from, -length), to: nextDate(query.from, -1) } : null;
  const [{ hours }, days] = await Promise.all([accountBusinessHours(ports, accountId), ownDays(ports, session, own, previous?.from ?? query.from, query.to)]);
  const inPeriod = days.filter((day) => day.date >= query.from);
  const byDate = new Map(inPeriod.map((day) => [day.date, day]));
  const now = ports.clock().getTime();
  const until = (day: Day) => Math.min(dayBounds(day.date, day.timeZone).end, now);
  const sumOf = (day: Day | undefined) => {
    const sum = emptySum();
    if (day) addFigures(sum, day.total, until(day));
    return sum;
  };

  const total = emptySum();
  const busiestHours = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const day of inPeriod) {
    addFigures(total, day.total, until(day));
    for (const [hour, count] of Object.entries(day.total.hours)) busiestHours[day.weekday]![Number(hour)]! += count;
  }
  const names = await namesOf(ports, session, own);
  const answer: ReportAnswer = {
    from: query.from,
    to: query.to,
    timeZone: hours.timeZone,
    scope: own ? 'own' : 'account',
    totals: figuresOf(total),
    days: datesOf(query.from, query.to).map((date) => ({ date, ...figuresOf(sumOf(byDate.get(date))) })),
    agents: rows(inPeriod, 'agents', names.agents, until),
    departments: rows(inPeriod, 'departments', names.departments, until),
    connections: rows(inPeriod, 'connections', names.connections, until),
    busiestHours,
  };
  if (previous) {
    const before = emptySum();
    for (const day of days) if (day.date < query.from) addFigures(before, day.total, until(day));
    answer.previous = { ...previous, totals: figuresOf(before) };
  }
  return answer;
}

/**
 * The days an admin reads whole; a member's are their slice of each day (only it is read): the day
 * as if only their conversations were in it.
 */
async function ownDays(ports: Ports, session: AccountSession, own: boolean, from: string, to: string): Promise<Day[]> {
  if (!own) return reportDaysBetween(ports.table, session.accountId, from, to);
  const slices = await agentReportDaysBetween(ports.table, session.accountId, session.user.id, from, to);
  return slices.map(({ date, weekday, timeZone, agents }) => {
    const mine = agents?.[session.user.id];
    return { date, weekday, timeZone, total: mine ?? emptyFigures(), agents: mine ? { [session.user.id]: mine } : {}, departments: {}, connections: {} };
  });
}

async function namesOf(ports: Ports, session: AccountSession, own: boolean) {
  if (own) return { agents: new Map([[session.user.id, session.user.name]]), departments: new Map<string, string>(), connections: new Map<string, string>() };
  const [users, departments, services] = await Promise.all([
    accountUsers(ports.table, session.accountId),
    accountDepartments(ports, session.accountId),
    accountServices(ports.table, session.accountId),
  ]);
  return {
    agents: new Map(users.map((u) => [u.id, u.name])),
    departments: new Map([[noDepartment, noDepartmentName], ...departments.map((d) => [d.id, d.name] as [string, string])]),
    connections: new Map(services.map((s) => [s.id, s.name])),
  };
}
