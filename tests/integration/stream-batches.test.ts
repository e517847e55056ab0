/**
 * The local runtime's stream: the records of one write reach a consumer together, in one batch, as
 * Lambda hands a consumer the records a shard has ready (a send's message and its contact: the
 * fan-out reads the account's connections once for both). A runtime of this file's own, in this
 * process, so a test consumer can be subscribed to its stream emulator.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { expect, it } from 'vitest';
import { ownRuntime } from './own-runtime.ts';
import { eventually } from './worker.ts';

const own = ownRuntime('conversa-stream-batches-', { quiet: true, channels: [] });

it("hands a consumer a transaction's records in one batch", async () => {
  const batches: string[][] = [];
  // A consumer of the realtime router, as the product's are (the stream takes no third reader).
  const realtime = own.runtime().routers.get('realtime')!;
  realtime.add({
    name: 'test-batches',
    batchSize: 100,
    handler: async () => async (event: DynamoDBStreamEvent) => {
      batches.push(event.Records.map((r) => String(r.dynamodb?.Keys?.sk?.S)));
    },
    filters: [{ dynamodb: { Keys: { pk: { S: ['TEST#batches'] } } } }],
  });
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const put = (sk: string) => ({ Put: { TableName: process.env.TABLE_NAME!, Item: { pk: 'TEST#batches', sk, type: 'Test' } } });
  for (const round of ['1', '2', '3']) {
    await doc.send(new TransactWriteCommand({ TransactItems: [put(`${round}-message`), put(`${round}-contact`)] }));
  }
  await eventually(async () => batches.flat().length >= 6);
  expect(batches.flat()).toHaveLength(6);
  // Each transaction's two records in the same batch (a later one may join them, never split them).
  for (const round of ['1', '2', '3']) {
    expect(batches.find((b) => b.includes(`${round}-message`))).toContain(`${round}-contact`);
  }
  doc.destroy();
});
