import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { AbstractValueIterator } from 'abstract-level';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { closeDynaliteIterators } from './level-iterators.ts';
import { createTableInput } from '#db/table-definition.ts';

const TableName = 'iterators-test';
let dir: string;
let db: Server;
let doc: DynamoDBDocumentClient;

beforeAll(async () => {
  closeDynaliteIterators();
  dir = mkdtempSync(join(tmpdir(), 'iterators-'));
  db = dynalite({ path: dir, createTableMs: 0 });
  await new Promise<void>((r) => db.listen(0, '127.0.0.1', () => r()));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(db.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  await client.send(new CreateTableCommand(createTableInput(TableName)));
  // dynalite answers CreateTable before the table is ACTIVE (even with createTableMs 0: a timer away); a loaded CI once wrote too soon.
  while ((await client.send(new DescribeTableCommand({ TableName }))).Table?.TableStatus !== 'ACTIVE') await new Promise((r) => setTimeout(r, 10));
  doc = DynamoDBDocumentClient.from(client);
  await doc.send(
    new BatchWriteCommand({ RequestItems: { [TableName]: Array.from({ length: 10 }, (_, i) => ({ PutRequest: { Item: { pk: 'P', sk: `S${i}` } } })) } }),
  );
});

afterAll(async () => {
  await new Promise<void>((r) => db.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

it('closes the LevelDB iterator of every Query and Scan, read to the end or stopped at a limit', async () => {
  const close = vi.spyOn(AbstractValueIterator.prototype, 'close');
  const whole = await doc.send(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'P' } }));
  const limited = await doc.send(new QueryCommand({ TableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'P' }, Limit: 3 }));
  const scanned = await doc.send(new ScanCommand({ TableName, Limit: 2 }));
  expect([whole.Items?.length, limited.Items?.length, scanned.Items?.length]).toEqual([10, 3, 2]);
  // Each request's stream closes its iterator once it ends (asynchronously, after the answer).
  await vi.waitFor(() => expect(close.mock.calls.length).toBeGreaterThanOrEqual(3));
  close.mockRestore();
});
