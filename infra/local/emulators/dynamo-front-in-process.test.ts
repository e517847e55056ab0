/**
 * The DynamoDB front on dynalite called in its own thread (the local runtime's) answers as it does
 * over dynalite's HTTP server: items, validation errors, failed conditions, transactions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoFront, type StreamRecord } from './dynamo-front.ts';
import { closeDynaliteStore, type DynaliteStore, dynaliteCaller, openDynaliteStore } from './dynalite-direct.ts';
import { createTableInput } from '#db/table-definition.ts';

const TableName = 'in-process-test';
let dir: string;
let store: DynaliteStore;
let front: DynamoFront;
let doc: DynamoDBDocumentClient;
const records: StreamRecord[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'in-process-'));
  store = openDynaliteStore({ path: dir, createTableMs: 0 });
  front = new DynamoFront({ backend: dynaliteCaller(store), onRecord: (r) => records.push(r), sweepEveryMs: 3_600_000 });
  const client = new DynamoDBClient({ endpoint: await front.listen(), region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  await client.send(new CreateTableCommand(createTableInput(TableName)));
  doc = DynamoDBDocumentClient.from(client);
});

afterAll(async () => {
  await front.close();
  await closeDynaliteStore(store);
  rmSync(dir, { recursive: true, force: true });
});

describe('the DynamoDB front on dynalite in its thread', () => {
  it('stores, reads, queries and streams items', async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: 'p1', sk: 'a', n: 1 } }));
    await doc.send(new PutCommand({ TableName, Item: { pk: 'p1', sk: 'b', n: 2 } }));
    await doc.send(new UpdateCommand({ TableName, Key: { pk: 'p1', sk: 'a' }, UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': 3 } }));
    expect((await doc.send(new GetCommand({ TableName, Key: { pk: 'p1', sk: 'a' } }))).Item).toEqual({ pk: 'p1', sk: 'a', n: 3 });
    const { Items } = await doc.send(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'p1' } }));
    expect(Items?.map((i) => i.n)).toEqual([3, 2]);
    expect(records.map((r) => r.eventName)).toEqual(['INSERT', 'INSERT', 'MODIFY']);
  });

  it("answers dynalite's validation errors and failed conditions as DynamoDB's exceptions", async () => {
    await expect(doc.send(new GetCommand({ TableName, Key: { pk: 'p1' } }))).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(doc.send(new GetCommand({ TableName: 'missing', Key: { pk: 'p1', sk: 'a' } }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await expect(doc.send(new PutCommand({ TableName, Item: { pk: 'p1', sk: 'a' }, ConditionExpression: 'attribute_not_exists(pk)' }))).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
  });

  it('cancels a transaction with every failed condition reported and nothing of it left written', async () => {
    const before = records.length;
    const attempt = doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: { pk: 'p2', sk: 'new' } } },
          { Put: { TableName, Item: { pk: 'p1', sk: 'a', n: 9 }, ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Update: {
              TableName,
              Key: { pk: 'p1', sk: 'b' },
              UpdateExpression: 'SET n = :n',
              ConditionExpression: 'n = :old',
              ExpressionAttributeValues: { ':n': 5, ':old': 0 },
            },
          },
        ],
      }),
    );
    await expect(attempt).rejects.toMatchObject({
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'ConditionalCheckFailed' }],
    });
    expect((await doc.send(new GetCommand({ TableName, Key: { pk: 'p2', sk: 'new' } }))).Item).toBeUndefined();
    expect((await doc.send(new GetCommand({ TableName, Key: { pk: 'p1', sk: 'a' } }))).Item).toEqual({ pk: 'p1', sk: 'a', n: 3 });
    expect(records.length).toBe(before);
  });
});
