/**
 * One local day's report figures from that day's conversation events (ADR-0234):
 * a pure function of the events, so computing it again, from the events redelivered or read in
 * another order, gives the same rollup.
 *
 * Each event counts for the account, for its agent (when it names one), its department (`none`
 * without one) and its connection: `started` is a conversation opened (and its local hour),
 * `first_response` a first-response time (`waitMs`), `resolved` a resolution (`handledMs`),
 * `rated` a score. A conversation is **waiting** on a day when it started that day and the day
 * ended with neither a first answer by a person nor a resolution; its start is kept, and its waiting
 * time read when reported (to the day's end, or to the moment for today); it counts for the agent,
 * department and connection it started with.
 */
import type { ConversationEventItem } from '#db/conversation-timers.ts';
import type { ReportDay, StoredFigures } from '#db/report-days.ts';
import { instantOf, nextDate, wallClock } from '../business-hours/zoned-time.ts';
import { addDuration } from './duration-histogram.ts';

export const noDepartment = 'none';

/** The most waiting starts a group keeps for a day (ADR-0234: an even sample beyond). */
export const maxWaitingStarts = 2000;

/** `max` values spread evenly over a sorted list (its first and last kept), or the list itself. */
function evenSample(sorted: number[], max: number): number[] {
  if (sorted.length <= max) return sorted;
  return Array.from({ length: max }, (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (max - 1))]!);
}

export const emptyFigures = (): StoredFigures => ({
  opened: 0,
  resolved: 0,
  waiting: 0,
  firstResponse: {},
  resolution: {},
  waitingStarts: [],
  ratings: {},
  hours: {},
});

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/** The instants a local day spans: [start, end) in epoch ms (23 or 25 hours on a DST change). */
export function dayBounds(date: string, timeZone: string): { start: number; end: number } {
  return { start: instantOf(date, 0, timeZone), end: instantOf(nextDate(date), 0, timeZone) };
}

export function rollUpDay(accountId: string, date: string, timeZone: string, events: readonly ConversationEventItem[], computedAt: string): ReportDay {
  const day: ReportDay = {
    accountId,
    date,
    weekday: new Date(`${date}T00:00:00Z`).getUTCDay(),
    timeZone,
    eventCount: events.length,
    computedAt,
    total: emptyFigures(),
    agents: {},
    departments: {},
    connections: {},
  };
  const figuresOf = (event: Pick<ConversationEventItem, 'userId' | 'departmentId' | 'serviceId'>): StoredFigures[] => {
    const of = (group: Record<string, StoredFigures>, id: string) => {
      group[id] ??= emptyFigures();
      return group[id];
    };
    const all = [day.total, of(day.departments, event.departmentId ?? noDepartment), of(day.connections, event.serviceId)];
    if (event.userId) all.push(of(day.agents, event.userId));
    return all;
  };

  const started = new Map<string, ConversationEventItem>();
  const moved = new Set<string>();
  for (const event of events) {
    const conversation = `${event.contactId}#${event.protocol}`;
    for (const figures of figuresOf(event)) {
      switch (event.kind) {
        case 'started':
          figures.opened++;
          bump(figures.hours, String(Math.floor(wallClock(Date.parse(event.at), timeZone).minutes / 60)));
          break;
        case 'first_response':
          addDuration(figures.firstResponse, event.waitMs ?? 0);
          break;
        case 'resolved':
          figures.resolved++;
          addDuration(figures.resolution, event.handledMs ?? 0);
          break;
        case 'rated':
          if (event.score !== undefined) bump(figures.ratings, String(event.score));
          break;
      }
    }
    if (event.kind === 'started') started.set(conversation, event);
    else if (event.kind === 'first_response' || event.kind === 'resolved') moved.add(conversation);
  }
  for (const [conversation, event] of started) {
    if (moved.has(conversation)) continue;
    for (const figures of figuresOf(event)) {
      figures.waiting++;
      figures.waitingStarts.push(Date.parse(event.at));
    }
  }
  for (const figures of [day.total, ...Object.values(day.agents), ...Object.values(day.departments), ...Object.values(day.connections)]) {
    figures.waitingStarts = evenSample(
      figures.waitingStarts.sort((a, b) => a - b),
      maxWaitingStarts,
    );
  }
  return day;
}
