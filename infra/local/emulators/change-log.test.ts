/**
 * The local table across a killed process (infra/local/emulators/change-log.ts): a transaction cut short
 * half-way is rolled back on start, a write whose records were logged but not committed is
 * dropped with them, and stream records past the consumers' checkpoints come back.
 *
 * The crash is made exact: the front talks to dynalite through a proxy that stops answering after
 * a chosen number of writes, which leaves on disk what a SIGKILL at that point would (the writes
 * before it applied, the rest never); the front is then abandoned and a new one recovers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeLog, writeCheckpoints } from './change-log.ts';
import { DynamoFront, type StreamRecord } from './dynamo-front.ts';
import { createTableInput } from '#db/table-definition.ts';

const tableName = 'change-log-test';
const credentials = { accessKeyId: 'x', secretAccessKey: 'x' };
let dir: string;
let db: Server;
let dbUrl: string;
let proxy: Server;
let proxyUrl: string;
/** Writes the proxy still lets through; past them it holds every request unanswered. */
let writesLeft = Infinity;
const held: (() => void)[] = [];
const fronts: DynamoFront[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'change-log-'));
  db = dynalite({ createTableMs: 0 });
  await new Promise<void>((r) => db.listen(0, '127.0.0.1', () => r()));
  dbUrl = `http://127.0.0.1:${(db.address() as AddressInfo).port}`;
  writesLeft = Infinity;
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = String(req.headers['x-amz-target'] ?? '');
    if (/\.(PutItem|UpdateItem|DeleteItem)$/.test(target) && writesLeft-- <= 0) {
      held.push(() => res.destroy());
      return;
    }
    const answer = await fetch(dbUrl, { method: 'POST', headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
    res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterEach(async () => {
  for (const release of held.splice(0)) release();
  for (const front of fronts.splice(0)) await front.close().catch(() => undefined);
  proxy.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
  await new Promise<void>((r) => db.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

/** A front with a journal in `dir`, through the proxy, as the runtime starts one (recovering first). */
async function start(records: StreamRecord[] = []) {
  const log = new ChangeLog(dir);
  const front = new DynamoFront({ backendUrl: proxyUrl, journal: log, onRecord: (r) => records.push(r), sweepEveryMs: 3_600_000 });
  const intent = log.leftIntent();
  if (intent) await front.recover(intent.items);
  log.discard(intent);
  const resumed = log.open();
  const client = new DynamoDBClient({ endpoint: await front.listen(), region: 'us-east-1', credentials, maxAttempts: 1 });
  return { log, front, resumed, doc: DynamoDBDocumentClient.from(client), client };
}

/** dynalite itself, past the front: what is on disk. */
function stored() {
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: dbUrl, region: 'us-east-1', credentials }));
  return async (pk: string) => (await doc.send(new GetCommand({ TableName: tableName, Key: { pk, sk: 'A' }, ConsistentRead: true }))).Item;
}

describe('the local table across a killed process', () => {
  it('rolls back a transaction the crash cut short, so a counter and its items stay together', async () => {
    const first = await start();
    await first.client.send(new CreateTableCommand(createTableInput(tableName)));
    await first.doc.send(new PutCommand({ TableName: tableName, Item: { pk: 'account', sk: 'A', usersCount: 1 } }));

    // The seat is taken, then the process dies before the user and its e-mail guard are written.
    writesLeft = 1;
    void first.doc
      .send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: { pk: 'account', sk: 'A' },
                UpdateExpression: 'SET usersCount = usersCount + :one',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
            { Put: { TableName: tableName, Item: { pk: 'user', sk: 'A' } } },
            { Put: { TableName: tableName, Item: { pk: 'email', sk: 'A' } } },
          ],
        }),
      )
      .catch(() => undefined);
    const read = stored();
    for (let i = 0; i < 100 && (await read('account'))?.usersCount !== 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await read('account'))?.usersCount, 'half of the transaction is on disk').toBe(2);
    first.log.close();
    first.client.destroy();
    fronts.push(first.front);

    writesLeft = Infinity;
    const second = await start();
    fronts.push(second.front);
    expect(await read('account')).toEqual({ pk: 'account', sk: 'A', usersCount: 1 });
    expect(await read('user')).toBeUndefined();
    expect(await read('email')).toBeUndefined();
    expect(second.resumed.pending.map((r) => r.dynamodb.Keys)).toEqual([]);
    second.client.destroy();
  });

  it('drops the records of a write that was logged but not committed, and keeps its sequence going', async () => {
    const records: StreamRecord[] = [];
    const first = await start(records);
    await first.client.send(new CreateTableCommand(createTableInput(tableName)));
    writeCheckpoints(dir, { consumer: 0 });
    await first.doc.send(new PutCommand({ TableName: tableName, Item: { pk: 'kept', sk: 'A' } }));
    expect(records.map((r) => r.eventName)).toEqual(['INSERT']);
    // A write past the front's back: logged with its intent, then the crash before the commit.
    first.log.begin([{ table: tableName, key: { pk: { S: 'lost' }, sk: { S: 'A' } } }]);
    first.log.append({ ...records[0]!, dynamodb: { ...records[0]!.dynamodb, SequenceNumber: String(first.log.nextSequence()).padStart(21, '0') } });
    first.log.close();
    first.client.destroy();
    fronts.push(first.front);

    const second = await start();
    fronts.push(second.front);
    // The checkpoint (0) is before the kept write: its record comes back, the dropped one does not.
    expect(second.resumed.pending.map((r) => Number(r.dynamodb.SequenceNumber))).toEqual([1]);
    expect(second.resumed.lastSequence).toBe(1);
    second.client.destroy();
  });

  it('hands back only the records past the lowest checkpoint, and compacts the log to them', async () => {
    const first = await start();
    await first.client.send(new CreateTableCommand(createTableInput(tableName)));
    for (const pk of ['a', 'b', 'c', 'd']) await first.doc.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'A' } }));
    writeCheckpoints(dir, { fast: 4, slow: 2 });
    first.log.close();
    first.client.destroy();
    fronts.push(first.front);

    const second = await start();
    expect(second.resumed.pending.map((r) => Number(r.dynamodb.SequenceNumber))).toEqual([3, 4]);
    second.log.close();
    second.client.destroy();
    fronts.push(second.front);
    writeCheckpoints(dir, { fast: 4, slow: 4 });
    const third = await start();
    expect(third.resumed).toEqual({ pending: [], lastSequence: 4 });
    third.client.destroy();
    fronts.push(third.front);
  });
});
