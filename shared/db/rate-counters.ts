/**
 * Sliding-window rate logs: one item per scope and subject holding the moments (epoch ms) of its
 * hits within the last window, rewritten under an optimistic version check so concurrent hits are
 * neither lost nor let past a maximum. The item expires by TTL one window after its last hit.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { isConditionFailure } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';

interface RateLogItem {
  hits: number[];
  version: number;
}

/** The hits still inside the window that ends at `nowMs` (a hit counts for exactly one window length). */
const inWindow = (hits: number[], windowSeconds: number, nowMs: number) => hits.filter((at) => at > nowMs - windowSeconds * 1000);

async function readLog(table: Table, scope: string, subject: string): Promise<RateLogItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.rate(scope, subject), ConsistentRead: true }));
  return Item as RateLogItem | undefined;
}

/** How many hits the subject has in the window that ends now. */
export async function readCounter(table: Table, scope: string, subject: string, windowSeconds: number, nowMs: number): Promise<number> {
  return inWindow((await readLog(table, scope, subject))?.hits ?? [], windowSeconds, nowMs).length;
}

const maxTries = 20;

/**
 * Records a hit now. With `onlyWithRoom`, only while fewer than `max` hits are in the window
 * (answers false, recording nothing, otherwise); without, always, keeping the newest `max` hits (as
 * many as any decision reads, so a flood of failures cannot grow the item). Concurrent writers
 * retry on the version.
 */
export async function recordHit(
  table: Table,
  scope: string,
  subject: string,
  limit: { max: number; windowSeconds: number },
  nowMs: number,
  onlyWithRoom: boolean,
): Promise<boolean> {
  const { max, windowSeconds } = limit;
  for (let attempt = 0; ; attempt++) {
    const log = await readLog(table, scope, subject);
    const hits = inWindow(log?.hits ?? [], windowSeconds, nowMs);
    if (onlyWithRoom && hits.length >= max) return false;
    const kept = [...hits, nowMs].sort((a, b) => a - b).slice(-max);
    try {
      await table.doc.send(
        new PutCommand({
          TableName: table.name,
          Item: {
            ...keys.rate(scope, subject),
            type: entityTypes.rate,
            hits: kept,
            version: (log?.version ?? 0) + 1,
            ttl: Math.ceil(kept.at(-1)! / 1000) + windowSeconds,
          },
          ConditionExpression: log ? 'version = :v' : 'attribute_not_exists(pk)',
          ...(log ? { ExpressionAttributeValues: { ':v': log.version } } : {}),
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error) || attempt + 1 >= maxTries) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));
    }
  }
}
