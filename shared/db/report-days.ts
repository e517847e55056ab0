/**
 * The reports' daily rollups (ADR-0234): one item per account and local day,
 * computed whole from that day's conversation events, and the reads that compute and answer them.
 * A rollup is replaced only by one computed from at least as many events: the day's events only
 * grow, so a recomputation that read fewer (an older read racing a newer one) loses.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { isConditionFailure } from './conditions.ts';
import type { ConversationEventItem } from './conversation-timers.ts';
import { entityTypes, keys } from './keys.ts';
import { queryAll } from './users.ts';

/** Counts and histograms of one day, for the account or one agent, department or connection. */
export interface StoredFigures {
  opened: number;
  resolved: number;
  waiting: number;
  /** Duration histograms: bucket index → count (shared/domain/reports/duration-histogram.ts). */
  firstResponse: Record<string, number>;
  resolution: Record<string, number>;
  /**
   * When the day's waiting conversations started (epoch ms, ascending): their waiting time is read
   * against the day's end, or the moment of the report for a day not over. An even sample of
   * `maxWaitingStarts` when more waited.
   */
  waitingStarts: number[];
  /** Score ('1'..'5') → count. */
  ratings: Record<string, number>;
  /** Conversations started by local hour ('0'..'23') → count. */
  hours: Record<string, number>;
}

export interface ReportDayItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.reportDay;
  accountId: string;
  /** The local date, in `timeZone`. */
  date: string;
  /** 0 = Sunday. */
  weekday: number;
  timeZone: string;
  /** How many events the rollup was computed from. */
  eventCount: number;
  computedAt: string;
  total: StoredFigures;
  /** By agent id (conversations nobody had are in no agent's). */
  agents: Record<string, StoredFigures>;
  /** By department id, `none` for no department. */
  departments: Record<string, StoredFigures>;
  /** By connection (service) id. */
  connections: Record<string, StoredFigures>;
}

export type ReportDay = Omit<ReportDayItem, 'pk' | 'sk' | 'type'>;

/** The account's conversation events at or after `fromIso` and before `toIso` (at most a few UTC months), read strongly. */
export async function conversationEventsBetween(table: Table, accountId: string, fromIso: string, toIso: string): Promise<ConversationEventItem[]> {
  const months: string[] = [];
  for (let month = fromIso.slice(0, 7); month <= toIso.slice(0, 7); month = nextMonth(month)) months.push(month);
  const pages = await Promise.all(
    months.map((month) =>
      queryAll<ConversationEventItem>(table, {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.conversationEventsOf(accountId, month).pk, ':from': fromIso, ':to': toIso },
        ConsistentRead: true,
      }),
    ),
  );
  // sk is `<at>#…`: BETWEEN takes nothing at exactly `toIso`, the end is excluded.
  return pages.flat().filter((event) => event.at >= fromIso && event.at < toIso);
}

function nextMonth(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * Stores a day's rollup unless one computed from more events is there; `replace` stores it
 * regardless (a rebuild, which may count the day in another zone). Answers whether it was stored.
 */
export async function putReportDay(table: Table, day: ReportDay, options: { replace?: boolean } = {}): Promise<boolean> {
  const Item = { ...keys.reportDay(day.accountId, day.date), type: entityTypes.reportDay, ...day };
  try {
    await table.doc.send(
      options.replace
        ? new PutCommand({ TableName: table.name, Item })
        : new PutCommand({
            TableName: table.name,
            Item,
            ConditionExpression: 'attribute_not_exists(pk) OR eventCount <= :count',
            ExpressionAttributeValues: { ':count': day.eventCount },
          }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The account's rollups of the days `from` to `to` (local dates, both included). */
export function reportDaysBetween(table: Table, accountId: string, from: string, to: string): Promise<ReportDayItem[]> {
  const { pk, skPrefix } = keys.reportDaysOf(accountId);
  return queryAll<ReportDayItem>(table, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk, ':from': `${skPrefix}${from}`, ':to': `${skPrefix}${to}` },
  });
}

/** A day as one agent's slice of it reads (`agents` holds theirs alone, when they had any). */
export type AgentReportDay = Pick<ReportDayItem, 'date' | 'weekday' | 'timeZone'> & { agents?: Record<string, StoredFigures> };

/** One agent's slice of the days `from` to `to`: a member's report reads a fraction of each item. */
export function agentReportDaysBetween(table: Table, accountId: string, agentId: string, from: string, to: string): Promise<AgentReportDay[]> {
  const { pk, skPrefix } = keys.reportDaysOf(accountId);
  return queryAll<AgentReportDay>(table, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    // Every name aliased (DATE is one of DynamoDB's reserved words; the agent's id is any string).
    ProjectionExpression: '#date, #weekday, #zone, #agents.#agent',
    ExpressionAttributeNames: { '#date': 'date', '#weekday': 'weekday', '#zone': 'timeZone', '#agents': 'agents', '#agent': agentId },
    ExpressionAttributeValues: { ':pk': pk, ':from': `${skPrefix}${from}`, ':to': `${skPrefix}${to}` },
  });
}
