/**
 * What the crash tests share: a seeded generator (so a failing kill moment can be replayed with
 * CRASH_SEED), a full scan of a runtime's table, polling until a condition holds, and the
 * invariants every account must keep after any crash.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { RunningRuntime } from './local-runtime.ts';

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The seed of this run: CRASH_SEED when given (to replay a failure), else a fresh one. */
export function crashSeed(): number {
  return Number(process.env.CRASH_SEED) || Math.floor(Math.random() * 2 ** 31);
}

export type Item = Record<string, any>;

/** Every item of the runtime's table, read straight from its DynamoDB endpoint. */
export async function scanTable(runtime: Pick<RunningRuntime, 'dynamoUrl' | 'tableName'>): Promise<Item[]> {
  const client = new DynamoDBClient({ endpoint: runtime.dynamoUrl, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const doc = DynamoDBDocumentClient.from(client);
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new ScanCommand({ TableName: runtime.tableName, ConsistentRead: true, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  client.destroy();
  return items;
}

/** Polls `check` until it answers something truthy, or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * What must hold in any account after any crash: its counters equal what is stored (users,
 * connections, contacts that hold a seat), exactly one owner, every user and e-mail guard
 * belonging to an account that exists, and nobody both account-less and an account's owner under
 * the same id (a half-made account). Answers the problems found (none: an empty list).
 */
export function accountProblems(items: readonly Item[]): string[] {
  const problems: string[] = [];
  const accounts = new Map(items.filter((i) => i.type === 'Account').map((a) => [a.pk as string, a]));
  const inAccount = (type: string, pk: string) => items.filter((i) => i.type === type && i.pk === pk);
  for (const [pk, account] of accounts) {
    const users = inAccount('User', pk);
    const services = inAccount('Service', pk);
    const contacts = inAccount('Contact', pk).filter((c) => !c.archivedAt);
    if ((account.usersCount ?? 0) !== users.length) problems.push(`${pk}: usersCount ${account.usersCount} but ${users.length} users stored`);
    if ((account.servicesCount ?? 0) !== services.length)
      problems.push(`${pk}: servicesCount ${account.servicesCount} but ${services.length} connections stored`);
    if ((account.contactsCount ?? 0) !== contacts.length)
      problems.push(`${pk}: contactsCount ${account.contactsCount} but ${contacts.length} contacts holding a seat stored`);
    const owners = users.filter((u) => u.isOwner);
    if (owners.length !== 1) problems.push(`${pk}: ${owners.length} owners`);
  }
  for (const item of items) {
    if (!String(item.pk).startsWith('ACCOUNT#')) continue;
    // Items of an account live in its partition or in partitions under it (`ACCOUNT#<id>#CONTACT#<id>`).
    const accountPk = String(item.pk).split('#').slice(0, 2).join('#');
    if (!accounts.has(accountPk) && ['User', 'UserEmail', 'Service', 'Contact', 'Message'].includes(item.type)) {
      problems.push(`${item.type} ${item.sk} in ${item.pk}, an account that does not exist`);
    }
  }
  const accountUserIds = new Set(items.filter((i) => i.type === 'User' && String(i.pk).startsWith('ACCOUNT#')).map((u) => u.id));
  for (const user of items.filter((i) => i.type === 'User' && String(i.pk).startsWith('USER#'))) {
    if (accountUserIds.has(user.id)) problems.push(`user ${user.id} is both account-less and in an account (a half-made account)`);
  }
  return problems;
}
