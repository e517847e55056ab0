/**
 * What the table and the bucket hold for some accounts and addresses, read straight from the
 * runtime's dynalite and S3 stand-in: the property tests compare it before and after a refused
 * request (a refusal writes nothing). Rate counters are not read (counting refusals is their job),
 * and a one-time code's `attempts` is left out for the same reason (wrong codes are counted).
 * Nor is an account's contact snapshot: a cache of its contacts that the snapshot consumer rewrites
 * from the table's stream at most every 10 s, so it lags the successes before a refusal by an
 * unbounded time under load (seed 489426828 caught one landing during a refusal); any contact write
 * a refusal made is in the table partitions read here.
 */
import { inject } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { contactSnapshotObjectKey, keys } from '#db/keys.ts';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let doc: DynamoDBDocumentClient | undefined;
let s3: S3Client | undefined;
const db = () => (doc ??= DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: inject('dynamoUrl'), region: 'us-east-1', credentials })));
const bucket = () =>
  (s3 ??= new S3Client({
    endpoint: inject('s3Url'),
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  }));

async function partition(pk: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: inject('tableName'),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.map(({ attempts: _attempts, ...item }) => item);
}

async function byEmail(email: string): Promise<unknown[]> {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: inject('tableName'),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.usersByEmail(email).gsi1pk },
    }),
  );
  return Items ?? [];
}

async function objects(prefix: string, except: string): Promise<string[]> {
  const answer = await bucket().send(new ListObjectsV2Command({ Bucket: inject('bucketName'), Prefix: prefix }));
  return (answer.Contents ?? [])
    .filter((o) => o.Key !== except)
    .map((o) => `${o.Key} ${o.Size}`)
    .sort();
}

export interface Scope {
  /** Accounts, with the connections and contacts whose own partitions are read too. */
  accounts: { accountId: string; serviceIds: string[]; contactIds: string[] }[];
  /** Users without an account, and users' one-time codes. */
  userIds: string[];
  /** Users by e-mail and password reset codes. */
  emails: string[];
}

/** Everything stored under a scope, as one comparable value. */
export async function storedState(scope: Scope): Promise<Record<string, unknown>> {
  const reads: [string, Promise<unknown>][] = [];
  for (const { accountId, serviceIds, contactIds } of scope.accounts) {
    const account = keys.account(accountId).pk;
    reads.push(
      [account, partition(account)],
      [`${account}#WS`, partition(`${account}#WS`)],
      [`s3:${accountId}`, objects(`accounts/${accountId}/`, contactSnapshotObjectKey(accountId))],
    );
    for (const id of serviceIds) reads.push([`${account}#SERVICE#${id}`, partition(`${account}#SERVICE#${id}`)]);
    for (const id of contactIds) reads.push([`${account}#CONTACT#${id}`, partition(`${account}#CONTACT#${id}`)]);
  }
  for (const id of scope.userIds) reads.push([`USER#${id}`, partition(keys.user(null, id).pk)]);
  for (const email of scope.emails) reads.push([`EMAIL#${email}`, byEmail(email)], [`reset:${email}`, partition(keys.resetCode(email).pk)]);
  const values = await Promise.all(reads.map(([, read]) => read));
  return Object.fromEntries(reads.map(([name], i) => [name, values[i]]));
}

/** Every e-mail-like string in a request, as the server would store it (trimmed, lower-cased). */
export function emailsIn(value: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      if (v.includes('@') && v.length < 300) found.add(v.trim().toLowerCase());
    } else if (v && typeof v === 'object') for (const inner of Object.values(v)) walk(inner);
  };
  walk(value);
  return [...found];
}
