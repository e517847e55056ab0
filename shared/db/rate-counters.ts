/**
 * Sliding-window rate logs: one item per scope and subject holding the moments (epoch ms) of its
 * hits within the last window. A unit is taken before the action it pays for, atomically:
 *
 * - while the log holds only hits still inside the window, a hit is appended by one UpdateItem
 *   whose condition is `size(hits) < max`, so any number of concurrent takers get exactly the
 *   room there is and none of them has to retry;
 * - when hits have left the window, the log is rewritten without them under a version check (the
 *   appends and releases move the version too, so a rewrite never loses a hit written meanwhile).
 *
 * A unit can be given back (`releaseHit`: the action turned out not to count, such as a right
 * password), by removing that one moment under a condition that it is still where it was read.
 * Nothing here throws for a lost race: a taker that keeps losing is refused (answers undefined),
 * and a release that keeps losing leaves the unit taken. The item expires by TTL one window after
 * its last hit.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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

/** When the window that ends at `nowMs` has room again (its oldest hit leaves it), epoch ms; `nowMs` when it has room now. */
export async function roomAt(table: Table, scope: string, subject: string, limit: { max: number; windowSeconds: number }, nowMs: number): Promise<number> {
  const hits = inWindow((await readLog(table, scope, subject))?.hits ?? [], limit.windowSeconds, nowMs).sort((a, b) => a - b);
  if (hits.length < limit.max) return nowMs;
  return hits[hits.length - limit.max]! + limit.windowSeconds * 1000;
}

/** Enough for a rewrite to win against a crowd of takers; past it the taker is refused, never failed. */
const maxTries = 30;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(2 ** attempt, 50)));

/** One write of a take; answers false when its condition did not hold (read again and retry). */
async function tryWrite(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Takes one unit of a budget of `max` per window, now: answers the hit's moment (to give it back
 * with `releaseHit`), or undefined when the window is full, recording nothing.
 */
export async function takeHit(
  table: Table,
  scope: string,
  subject: string,
  limit: { max: number; windowSeconds: number },
  nowMs: number,
): Promise<number | undefined> {
  const { max, windowSeconds } = limit;
  const Key = keys.rate(scope, subject);
  const ttl = Math.ceil(nowMs / 1000) + windowSeconds;
  for (let attempt = 0; attempt < maxTries; attempt++) {
    if (attempt) await pause(attempt);
    const log = await readLog(table, scope, subject);
    const hits = inWindow(log?.hits ?? [], windowSeconds, nowMs);
    if (hits.length >= max) return undefined;
    let written: boolean;
    if (!log) {
      written = await tryWrite(
        table.doc.send(
          new PutCommand({
            TableName: table.name,
            Item: { ...Key, type: entityTypes.rate, hits: [nowMs], version: 1, ttl },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    } else if (hits.length === log.hits.length) {
      // Every stored hit is in the window: the list's size is the window's count.
      written = await tryWrite(
        table.doc.send(
          new UpdateCommand({
            TableName: table.name,
            Key,
            UpdateExpression: 'SET hits = list_append(hits, :hit), version = version + :one, #ttl = :ttl',
            ConditionExpression: 'size(hits) < :max',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':hit': [nowMs], ':one': 1, ':ttl': ttl, ':max': max },
          }),
        ),
      );
    } else {
      written = await tryWrite(
        table.doc.send(
          new PutCommand({
            TableName: table.name,
            Item: { ...Key, type: entityTypes.rate, hits: [...hits, nowMs], version: log.version + 1, ttl },
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': log.version },
          }),
        ),
      );
    }
    if (written) return nowMs;
  }
  return undefined;
}

/** Gives back a unit taken at `at` (one hit of that moment). Best effort: a unit it cannot give back stays taken. */
export async function releaseHit(table: Table, scope: string, subject: string, at: number): Promise<void> {
  for (let attempt = 0; attempt < maxTries; attempt++) {
    if (attempt) await pause(attempt);
    const index = (await readLog(table, scope, subject))?.hits.indexOf(at) ?? -1;
    if (index < 0) return; // gone already (left the window and was pruned)
    const removed = await tryWrite(
      table.doc.send(
        new UpdateCommand({
          TableName: table.name,
          Key: keys.rate(scope, subject),
          UpdateExpression: `REMOVE hits[${index}] SET version = version + :one`,
          ConditionExpression: `hits[${index}] = :at`,
          ExpressionAttributeValues: { ':at': at, ':one': 1 },
        }),
      ),
    );
    if (removed) return;
  }
}
