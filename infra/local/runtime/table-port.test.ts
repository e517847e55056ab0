/**
 * The table port (infra/local/runtime/table-port.ts): an SDK client whose calls go to the DynamoDB thread
 * by message. The client's endpoint is a closed port, so a call that went over HTTP would fail:
 * every answer here came through the port, with the SDK's own errors for DynamoDB's error answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ConditionalCheckFailedException, CreateTableCommand, DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { threadEntry } from './runtime-modules.ts';
import { TablePort } from './table-port.ts';

let dir: string;
let worker: Worker;
let doc: DynamoDBDocumentClient;
const TableName = 'port-test';

const message = (type: string) =>
  new Promise<void>((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type === type) {
        worker.off('message', on);
        resolve();
      }
    };
    worker.on('message', on);
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'conversa-table-port-'));
  worker = new Worker(threadEntry('emulators/dynamo-worker'), { workerData: { path: join(dir, 'dynamo'), ttlAttribute: 'ttl' } });
  await message('ready');
  const client = new DynamoDBClient({
    endpoint: 'http://127.0.0.1:9',
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  client.config.requestHandler = new TablePort(worker);
  doc = DynamoDBDocumentClient.from(client);
  await client.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    }),
  );
}, 60_000);

afterAll(async () => {
  const stopped = message('stopped');
  worker.postMessage({ type: 'stop' });
  await stopped;
  await worker.terminate();
  rmSync(dir, { recursive: true, force: true });
});

it('writes and reads items, accents and emoji included', async () => {
  await doc.send(new PutCommand({ TableName, Item: { pk: 'A', sk: '1', name: 'João Araújo 😀', n: 3 } }));
  const { Item } = await doc.send(new GetCommand({ TableName, Key: { pk: 'A', sk: '1' } }));
  expect(Item).toEqual({ pk: 'A', sk: '1', name: 'João Araújo 😀', n: 3 });
});

it('answers many calls in flight, each with its own answer', async () => {
  await Promise.all(Array.from({ length: 40 }, (_, i) => doc.send(new PutCommand({ TableName, Item: { pk: 'B', sk: String(i).padStart(2, '0'), i } }))));
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) => doc.send(new GetCommand({ TableName, Key: { pk: 'B', sk: String(i).padStart(2, '0') } }))),
  );
  expect(answers.map((a) => a.Item?.i)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  const page = await doc.send(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'B' }, Limit: 5 }));
  expect(page.Items?.map((item) => item.i)).toEqual([0, 1, 2, 3, 4]);
  expect(page.LastEvaluatedKey).toEqual({ pk: 'B', sk: '04' });
});

it("gives DynamoDB's error answers as the SDK's errors", async () => {
  const failed = doc.send(new PutCommand({ TableName, Item: { pk: 'A', sk: '1' }, ConditionExpression: 'attribute_not_exists(pk)' }));
  await expect(failed).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  const cancelled = await doc
    .send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: { pk: 'C', sk: '1' } } },
          { Put: { TableName, Item: { pk: 'A', sk: '1' }, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    )
    .catch((error: unknown) => error);
  expect(cancelled).toBeInstanceOf(TransactionCanceledException);
  expect((cancelled as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual(['None', 'ConditionalCheckFailed']);
  // The cancelled transaction wrote nothing.
  expect((await doc.send(new GetCommand({ TableName, Key: { pk: 'C', sk: '1' } }))).Item).toBeUndefined();
});
