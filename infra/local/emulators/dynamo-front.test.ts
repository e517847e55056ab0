import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
  DeleteCommand,
  BatchWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { DynamoFront, type StreamRecord } from './dynamo-front.ts';
import { closeDynaliteStore, dynaliteCaller, openDynaliteStore, type DynaliteStore } from './dynalite-direct.ts';
import { createTableInput } from '#db/table-definition.ts';

const TableName = 'front-test';
let dir: string;
let db: DynaliteStore;
let front: DynamoFront;
let doc: DynamoDBDocumentClient;
let records: StreamRecord[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'front-'));
  // dynalite in-process, as the local runtime's DynamoDB thread runs it (infra/local/emulators/dynamo-worker.ts).
  db = openDynaliteStore({ path: dir, createTableMs: 0 });
  front = new DynamoFront({ backend: dynaliteCaller(db), onRecord: (r) => records.push(r), sweepEveryMs: 3_600_000 });
  const endpoint = await front.listen();
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  await client.send(new CreateTableCommand(createTableInput(TableName)));
  await new Promise((r) => setTimeout(r, 50));
  doc = DynamoDBDocumentClient.from(client);
});

afterAll(async () => {
  await front.close();
  await closeDynaliteStore(db);
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  records = [];
});

const get = async (pk: string, sk = 'A') => (await doc.send(new GetCommand({ TableName, Key: { pk, sk } }))).Item;

describe('stream records', () => {
  it('puts, updates and deletes produce INSERT, MODIFY and REMOVE with old and new images, in order', async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: 's1', sk: 'A', n: 1 } }));
    await doc.send(new UpdateCommand({ TableName, Key: { pk: 's1', sk: 'A' }, UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': 2 } }));
    await doc.send(new DeleteCommand({ TableName, Key: { pk: 's1', sk: 'A' } }));
    expect(records.map((r) => r.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    expect(records[0]!.dynamodb.NewImage).toEqual({ pk: { S: 's1' }, sk: { S: 'A' }, n: { N: '1' } });
    expect(records[0]!.dynamodb.OldImage).toBeUndefined();
    expect(records[1]!.dynamodb.OldImage?.n).toEqual({ N: '1' });
    expect(records[1]!.dynamodb.NewImage?.n).toEqual({ N: '2' });
    expect(records[2]!.dynamodb.OldImage?.n).toEqual({ N: '2' });
    expect(records[2]!.dynamodb.NewImage).toBeUndefined();
    expect(records[2]!.dynamodb.Keys).toEqual({ pk: { S: 's1' }, sk: { S: 'A' } });
    const seq = records.map((r) => r.dynamodb.SequenceNumber);
    expect([...seq].sort()).toEqual(seq);
  });

  it('writes nothing to the stream when a write changes nothing or fails its condition', async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: 's2', sk: 'A', n: 1 } }));
    await doc.send(new PutCommand({ TableName, Item: { pk: 's2', sk: 'A', n: 1 } }));
    await expect(
      doc.send(new PutCommand({ TableName, Item: { pk: 's2', sk: 'A', n: 5 }, ConditionExpression: 'attribute_not_exists(pk)' })),
    ).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    await doc.send(new DeleteCommand({ TableName, Key: { pk: 'never', sk: 'A' } }));
    expect(records.map((r) => r.eventName)).toEqual(['INSERT']);
  });

  it('batch writes produce one record per item', async () => {
    await doc.send(
      new BatchWriteCommand({
        RequestItems: { [TableName]: [{ PutRequest: { Item: { pk: 'b1', sk: 'A' } } }, { PutRequest: { Item: { pk: 'b2', sk: 'A' } } }] },
      }),
    );
    expect(records.map((r) => r.dynamodb.Keys.pk)).toEqual([{ S: 'b1' }, { S: 'b2' }]);
  });
});

describe('transactions', () => {
  it('applies every operation when all conditions hold', async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: 't1', sk: 'A', count: 1 } }));
    await doc.send(new PutCommand({ TableName, Item: { pk: 't1', sk: 'Z' } }));
    records = [];
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: { pk: 't1', sk: 'A' },
              UpdateExpression: 'SET #c = #c + :one',
              ConditionExpression: '#c < :max',
              ExpressionAttributeNames: { '#c': 'count' },
              ExpressionAttributeValues: { ':one': 1, ':max': 5 },
            },
          },
          { Put: { TableName, Item: { pk: 't1', sk: 'B' }, ConditionExpression: 'attribute_not_exists(pk)' } },
          { ConditionCheck: { TableName, Key: { pk: 't1', sk: 'Z' }, ConditionExpression: 'attribute_exists(pk)' } },
        ],
      }),
    );
    expect((await get('t1'))?.count).toBe(2);
    expect(await get('t1', 'B')).toBeTruthy();
    expect(records.map((r) => r.eventName)).toEqual(['MODIFY', 'INSERT']);
  });

  it('cancels as a whole, restoring what it had written, with a reason per operation', async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: 't2', sk: 'A', count: 1 } }));
    await doc.send(new PutCommand({ TableName, Item: { pk: 't2', sk: 'B', taken: true } }));
    records = [];
    const attempt = doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: { pk: 't2', sk: 'A' },
              UpdateExpression: 'SET #c = #c + :one',
              ExpressionAttributeNames: { '#c': 'count' },
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
          { Put: { TableName, Item: { pk: 't2', sk: 'C' } } },
          { Put: { TableName, Item: { pk: 't2', sk: 'B', taken: false }, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
    await expect(attempt).rejects.toMatchObject({
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'None' }, { Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
    });
    expect((await get('t2'))?.count).toBe(1);
    expect(await get('t2', 'C')).toBeUndefined();
    expect((await get('t2', 'B'))?.taken).toBe(true);
    expect(records).toEqual([]);
  });

  it('never shows a read the writes of a transaction it then cancels, as DynamoDB does not', async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: 't5', sk: 'taken', taken: true } }));
    const seen: string[] = [];
    for (let round = 0; round < 30; round++) {
      const refused = doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName, Item: { pk: 't5', sk: `new-${round}` } } },
            { Put: { TableName, Item: { pk: 't5', sk: 'taken', taken: false }, ConditionExpression: 'attribute_not_exists(pk)' } },
          ],
        }),
      );
      // Reads sent while the transaction is being applied: none may see its first item.
      const reads = Array.from({ length: 5 }, () => get('t5', `new-${round}`));
      await expect(refused).rejects.toMatchObject({ name: 'TransactionCanceledException' });
      for (const item of await Promise.all(reads)) if (item) seen.push(String(item.sk));
    }
    expect(seen).toEqual([]);
  });

  it('a failed condition check leaves no trace of the item it looked at', async () => {
    await expect(
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { ConditionCheck: { TableName, Key: { pk: 't3', sk: 'A' }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName, Item: { pk: 't3', sk: 'B' }, ConditionExpression: 'attribute_exists(pk)' } },
          ],
        }),
      ),
    ).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    expect(await get('t3')).toBeUndefined();
    expect(await get('t3', 'B')).toBeUndefined();
  });

  it('refuses two operations on one item, as DynamoDB does', async () => {
    await expect(
      doc.send(
        new TransactWriteCommand({
          TransactItems: [{ Put: { TableName, Item: { pk: 't4', sk: 'A' } } }, { Delete: { TableName, Key: { pk: 't4', sk: 'A' } } }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationException' });
  });

  it('concurrent transactions on one counter never exceed its limit', async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: 't5', sk: 'A', count: 0 } }));
    const take = (i: number) =>
      doc
        .send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName,
                  Key: { pk: 't5', sk: 'A' },
                  UpdateExpression: 'SET #c = #c + :one',
                  ConditionExpression: '#c < :max',
                  ExpressionAttributeNames: { '#c': 'count' },
                  ExpressionAttributeValues: { ':one': 1, ':max': 3 },
                },
              },
              { Put: { TableName, Item: { pk: 't5', sk: `I#${i}` } } },
            ],
          }),
        )
        .then(
          () => true,
          () => false,
        );
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => take(i)));
    expect(results.filter(Boolean)).toHaveLength(3);
    expect((await get('t5'))?.count).toBe(3);
  });

  it('reads several items at once with TransactGetItems', async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: 'g1', sk: 'A', v: 'x' } }));
    const { Responses } = await doc.send(
      new TransactGetCommand({ TransactItems: [{ Get: { TableName, Key: { pk: 'g1', sk: 'A' } } }, { Get: { TableName, Key: { pk: 'g2', sk: 'A' } } }] }),
    );
    expect(Responses?.[0]?.Item?.v).toBe('x');
    expect(Responses?.[1]?.Item).toBeUndefined();
  });
});

describe('time to live', () => {
  it('the sweeper deletes expired items only, marking the REMOVE as the service', async () => {
    const now = Math.floor(Date.now() / 1000);
    await doc.send(new PutCommand({ TableName, Item: { pk: 'ttl1', sk: 'A', ttl: now - 10 } }));
    await doc.send(new PutCommand({ TableName, Item: { pk: 'ttl2', sk: 'A', ttl: now + 3600 } }));
    records = [];
    expect(await front.sweep(now)).toBe(1);
    expect(await get('ttl1')).toBeUndefined();
    expect(await get('ttl2')).toBeTruthy();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ eventName: 'REMOVE', userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } });
  });

  it('an item whose TTL was pushed back is kept', async () => {
    const now = Math.floor(Date.now() / 1000);
    await doc.send(new PutCommand({ TableName, Item: { pk: 'ttl3', sk: 'A', ttl: now - 5 } }));
    await doc.send(
      new UpdateCommand({
        TableName,
        Key: { pk: 'ttl3', sk: 'A' },
        UpdateExpression: 'SET #t = :t',
        ExpressionAttributeNames: { '#t': 'ttl' },
        ExpressionAttributeValues: { ':t': now + 600 },
      }),
    );
    await front.sweep(now);
    expect(await get('ttl3')).toBeTruthy();
  });

  it('a clean stop saves the TTL index and the next start loads it without a scan; after a crash the next start scans', async () => {
    const now = Math.floor(Date.now() / 1000);
    const file = join(dir, 'ttl-index.json');
    await doc.send(new PutCommand({ TableName, Item: { pk: 'ttl4', sk: 'A', ttl: now + 60 } }));
    await front.saveTtlIndex(file);
    const backend = dynaliteCaller(db);

    const restarted = new DynamoFront({ backend });
    expect(await restarted.loadTtlIndex(file)).toBe(true);
    // The loaded index alone finds the item once due: no Scan ran on this front.
    expect(await restarted.sweep(now + 61)).toBe(1);
    expect(await get('ttl4')).toBeUndefined();

    // That start marked the file unclean: if it crashes now, the next start has nothing to trust.
    expect(await new DynamoFront({ backend }).loadTtlIndex(file)).toBe(false);
    expect(await new DynamoFront({ backend }).loadTtlIndex(join(dir, 'missing.json'))).toBe(false);
  });
});
