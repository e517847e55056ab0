import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageCommand,
  DeleteQueueCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqsEmulator, type QueueOptions } from '../../infra/local/emulators/sqs-emulator.ts';
import { QueuePollers } from '../../infra/local/pollers/queue-poller.ts';

let sqs: SqsEmulator;
/** Lambda's SQS mappings of `sqs`'s queues. */
let pollers: QueuePollers;
let client: SQSClient;

beforeEach(async () => {
  sqs = new SqsEmulator();
  pollers = new QueuePollers(sqs);
  const url = await sqs.listen();
  client = new SQSClient({ endpoint: url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});

afterEach(async () => {
  client.destroy();
  await pollers.close();
  await sqs.close();
});

function queue(options: QueueOptions = {}) {
  return sqs.createQueue('q.fifo', { visibilityTimeoutSeconds: 30, ...options });
}

/** Sends `group:body` entries through the SDK, in one batch, deduplicated on the body. */
async function send(queueUrl: string, ...entries: string[]) {
  return client.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: entries.map((entry, i) => ({ Id: String(i), MessageBody: entry, MessageGroupId: entry.split(':')[0], MessageDeduplicationId: entry })),
    }),
  );
}

const until = async (check: () => boolean, ms = 4000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

// biome-ignore lint/suspicious/noConfusingVoidType: a Lambda SQS handler answers a batch response or nothing
type Handler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

describe('SQS FIFO emulator: the API', () => {
  it('answers the SDK (JSON protocol) with ids, sequence numbers and body checksums it accepts', async () => {
    const url = queue();
    const one = await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'a:1', MessageGroupId: 'a', MessageDeduplicationId: 'a:1' }));
    expect(one.MessageId).toBeTruthy();
    const batch = await send(url, 'a:2', 'b:1');
    expect(batch.Successful?.map((s) => s.Id)).toEqual(['0', '1']);
    expect(Number(batch.Successful![0]!.SequenceNumber)).toBeGreaterThan(Number(one.SequenceNumber));
    expect((await client.send(new GetQueueUrlCommand({ QueueName: 'q.fifo' }))).QueueUrl).toBe(url);
    expect(sqs.depth('q.fifo')).toBe(3);
  });

  it('accepts a deduplication id seen in the last five minutes without queuing it again', async () => {
    const url = queue();
    const first = await send(url, 'a:1');
    const again = await send(url, 'a:1', 'a:2');
    expect(again.Successful![0]!.MessageId).toBe(first.Successful![0]!.MessageId);
    expect(sqs.depth('q.fifo')).toBe(2);
  });

  it('refuses what SQS refuses: an unknown queue, a FIFO message without group or deduplication id, more than 10 entries', async () => {
    const url = queue();
    await expect(
      client.send(
        new SendMessageCommand({ QueueUrl: `${sqs.url}/000000000000/nope.fifo`, MessageBody: 'x', MessageGroupId: 'g', MessageDeduplicationId: 'x' }),
      ),
    ).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    await expect(client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'x', MessageDeduplicationId: 'x' }))).rejects.toThrow(/MessageGroupId/);
    const noDedup = await client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: '1', MessageBody: 'x', MessageGroupId: 'g' }] }));
    expect(noDedup.Failed).toEqual([expect.objectContaining({ Id: '1', SenderFault: true })]);
    const eleven = Array.from({ length: 11 }, (_, i) => `g:${i}`);
    await expect(send(url, ...eleven)).rejects.toMatchObject({ name: 'TooManyEntriesInBatchRequest' });
  });
});

describe('SQS FIFO emulator: delivery as Lambda does it', () => {
  it('delivers the Lambda SQS event shape and deletes what succeeded', async () => {
    const url = queue();
    const records: SQSRecord[] = [];
    pollers.subscribe('q.fifo', { name: 'c', handler: async (event) => void records.push(...event.Records) });
    await send(url, 'a:1');
    await until(() => records.length === 1);
    await pollers.idle();
    expect(records[0]).toMatchObject({
      body: 'a:1',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:q.fifo',
      attributes: { MessageGroupId: 'a', MessageDeduplicationId: 'a:1', ApproximateReceiveCount: '1' },
    });
    expect(Number(records[0]!.attributes.SentTimestamp)).toBeGreaterThan(0);
    expect(sqs.depth('q.fifo')).toBe(0);
  });

  it('keeps the order within a group and delivers a group one batch at a time, while other groups are not held up', async () => {
    const url = queue();
    const seen: string[] = [];
    let release!: () => void;
    const a1Held = new Promise<void>((r) => (release = r));
    pollers.subscribe('q.fifo', {
      name: 'c',
      batchSize: 1,
      maxConcurrency: 3,
      handler: async (event) => {
        const body = event.Records[0]!.body;
        seen.push(body);
        if (body === 'a:1') await a1Held;
      },
    });
    await send(url, 'a:1', 'a:2', 'b:1', 'b:2', 'c:1');
    await until(() => ['b:1', 'b:2', 'c:1'].every((b) => seen.includes(b)));
    expect(seen).not.toContain('a:2');
    release();
    await until(() => seen.includes('a:2'));
    expect(seen.filter((b) => b.startsWith('a:'))).toEqual(['a:1', 'a:2']);
    expect(seen.filter((b) => b.startsWith('b:'))).toEqual(['b:1', 'b:2']);
  });

  it('holds a group back for the visibility a handler sets, and only that group', async () => {
    const url = queue();
    const seen: { body: string; at: number }[] = [];
    let first = true;
    const handler: Handler = async (event) => {
      const failures: SQSBatchResponse['batchItemFailures'] = [];
      for (const record of event.Records) {
        seen.push({ body: record.body, at: Date.now() });
        if (record.body === 'a:1' && first) {
          first = false;
          await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: record.receiptHandle, VisibilityTimeout: 1 }));
          failures.push({ itemIdentifier: record.messageId });
        }
      }
      return { batchItemFailures: failures };
    };
    pollers.subscribe('q.fifo', { name: 'c', batchSize: 1, handler });
    const start = Date.now();
    await send(url, 'a:1', 'a:2', 'b:1');
    await until(() => seen.some((s) => s.body === 'b:1'));
    expect(seen.find((s) => s.body === 'b:1')!.at - start).toBeLessThan(500);
    await until(() => seen.some((s) => s.body === 'a:2'));
    const a = seen.filter((s) => s.body.startsWith('a:'));
    expect(a.map((s) => s.body)).toEqual(['a:1', 'a:1', 'a:2']);
    expect(a[1]!.at - a[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('redelivers only the records a partial batch response names, with their receive count', async () => {
    const url = queue();
    const seen: { body: string; count: string }[] = [];
    let failOnce = true;
    pollers.subscribe('q.fifo', {
      name: 'c',
      handler: async (event) => {
        seen.push(...event.Records.map((r) => ({ body: r.body, count: r.attributes.ApproximateReceiveCount })));
        const failed = failOnce ? event.Records.filter((r) => r.body === 'b:1') : [];
        failOnce = false;
        for (const record of failed)
          await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: record.receiptHandle, VisibilityTimeout: 0 }));
        return { batchItemFailures: failed.map((r) => ({ itemIdentifier: r.messageId })) };
      },
    });
    await send(url, 'a:1', 'b:1', 'c:1');
    await until(() => seen.length === 4);
    await pollers.idle();
    expect(seen).toEqual([
      { body: 'a:1', count: '1' },
      { body: 'b:1', count: '1' },
      { body: 'c:1', count: '1' },
      { body: 'b:1', count: '2' },
    ]);
    expect(sqs.depth('q.fifo')).toBe(0);
  });

  it('treats a thrown error as a failure of the whole batch, redelivered when its visibility ends', async () => {
    const url = queue({ visibilityTimeoutSeconds: 1 });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    pollers.subscribe('q.fifo', {
      name: 'c',
      handler: async () => {
        if (++calls === 1) throw new Error('boom');
      },
    });
    await send(url, 'a:1', 'b:1');
    await until(() => calls === 2, 3000);
    await pollers.idle();
    expect(sqs.depth('q.fifo')).toBe(0);
    log.mockRestore();
  });

  it('moves a message received maxReceiveCount times to the dead-letter list and logs it', async () => {
    const url = queue({ maxReceiveCount: 2 });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    pollers.subscribe('q.fifo', {
      name: 'c',
      handler: async (event) => {
        calls++;
        const [record] = event.Records;
        await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: record!.receiptHandle, VisibilityTimeout: 0 }));
        return { batchItemFailures: [{ itemIdentifier: record!.messageId }] };
      },
    });
    await send(url, 'a:poison');
    await until(() => sqs.deadLetters('q.fifo').length === 1);
    expect(calls).toBe(2);
    expect(sqs.depth('q.fifo')).toBe(0);
    expect(log.mock.calls.some((call) => String(call[0]).includes('dead-letter'))).toBe(true);
    log.mockRestore();
  });
});

describe('SQS FIFO emulator: clients that receive themselves', () => {
  const receive = (url: string, extra: Partial<ConstructorParameters<typeof ReceiveMessageCommand>[0]> = {}, signal?: AbortSignal) =>
    client
      .send(
        new ReceiveMessageCommand({
          QueueUrl: url,
          MaxNumberOfMessages: 10,
          MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp', 'MessageGroupId'],
          ...extra,
        }),
        { abortSignal: signal },
      )
      .then((answer) => answer.Messages ?? []);

  it('answers ReceiveMessage as SQS does (the SDK checks the body checksum), with the system attributes asked for', async () => {
    const url = queue();
    await send(url, 'a:1', 'b:1');
    const messages = await receive(url);
    expect(messages.map((m) => m.Body)).toEqual(['a:1', 'b:1']);
    expect(messages[0]).toMatchObject({ MessageId: expect.any(String), ReceiptHandle: expect.any(String), MD5OfBody: expect.any(String) });
    expect(messages[0]!.Attributes).toEqual({ ApproximateReceiveCount: '1', SentTimestamp: expect.stringMatching(/^\d+$/), MessageGroupId: 'a' });
    const bare = await (async () => {
      await send(url, 'c:1');
      return receive(url, { MessageSystemAttributeNames: undefined });
    })();
    expect(bare[0]!.Attributes).toBeUndefined();
  });

  it('keeps FIFO order: nothing more of a group while one of its messages is in flight; a delete lets the next one out', async () => {
    const url = queue();
    await send(url, 'a:1', 'a:2', 'b:1');
    const first = await receive(url, { MaxNumberOfMessages: 1 });
    expect(first.map((m) => m.Body)).toEqual(['a:1']);
    expect((await receive(url)).map((m) => m.Body)).toEqual(['b:1']);
    expect(await receive(url)).toEqual([]);
    await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: first[0]!.ReceiptHandle }));
    expect((await receive(url)).map((m) => m.Body)).toEqual(['a:2']);
  });

  it('a long poll is answered as soon as a message arrives, and empty when its wait ends', async () => {
    const url = queue();
    const waiting = receive(url, { WaitTimeSeconds: 10 });
    await new Promise((r) => setTimeout(r, 50));
    await send(url, 'a:1');
    expect((await waiting).map((m) => m.Body)).toEqual(['a:1']);
    expect(await receive(url, { WaitTimeSeconds: 1 })).toEqual([]);
  });

  it('a long poll is answered when a message of a busy group becomes visible again, with its receive count', async () => {
    const url = queue();
    await send(url, 'a:1');
    const [first] = await receive(url);
    const waiting = receive(url, { WaitTimeSeconds: 10 });
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: first!.ReceiptHandle, VisibilityTimeout: 0 }));
    const [again] = await waiting;
    expect(again).toMatchObject({ Body: 'a:1', Attributes: { ApproximateReceiveCount: '2' } });
    expect(again!.ReceiptHandle).not.toBe(first!.ReceiptHandle);
  });

  it('a handle of an earlier receive deletes nothing and is no error; a handle never issued is ReceiptHandleIsInvalid', async () => {
    const url = queue();
    await send(url, 'a:1');
    const [first] = await receive(url, { VisibilityTimeout: 0 });
    const [second] = await receive(url);
    await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: first!.ReceiptHandle }));
    expect(sqs.depth('q.fifo')).toBe(1);
    await expect(client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: 'not-a-handle' }))).rejects.toMatchObject({
      name: 'ReceiptHandleIsInvalid',
    });
    await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: second!.ReceiptHandle }));
    expect(sqs.depth('q.fifo')).toBe(0);
  });

  it('ChangeMessageVisibility as SQS: extends a receive in flight from now; an earlier, deleted or expired receive’s handle is refused', async () => {
    // Only Date is faked: the emulator reads the clock through Date.now, the HTTP round trips run for real.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const url = queue({ visibilityTimeoutSeconds: 30 });
      await send(url, 'a:1', 'b:1');
      const [a, b] = await receive(url, { VisibilityTimeout: 3 });
      // Extended at 2 s by another 3 s: still in flight at 4 s, when the first receive's 3 s are over.
      vi.setSystemTime(Date.now() + 2000);
      await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: a!.ReceiptHandle, VisibilityTimeout: 3 }));
      vi.setSystemTime(Date.now() + 2000);
      // b's visibility ended and nobody received it since: its (latest) handle is not in flight.
      await expect(
        client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: b!.ReceiptHandle, VisibilityTimeout: 30 })),
      ).rejects.toMatchObject({
        name: 'MessageNotInflight',
      });
      // Only b is received again (a is still in flight), and b's first handle is now of an earlier receive.
      expect((await receive(url)).map((m) => m.Body)).toEqual(['b:1']);
      await expect(
        client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: b!.ReceiptHandle, VisibilityTimeout: 30 })),
      ).rejects.toMatchObject({
        name: 'ReceiptHandleIsInvalid',
      });
      // a comes back once its extension is over; the first receive's handle is now of an earlier receive.
      vi.setSystemTime(Date.now() + 1500);
      const again = await receive(url);
      expect(again.map((m) => m.Body)).toEqual(['a:1']);
      await expect(
        client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: a!.ReceiptHandle, VisibilityTimeout: 30 })),
      ).rejects.toMatchObject({
        name: 'ReceiptHandleIsInvalid',
      });
      // The latest handle works; once deleted, it is refused too.
      await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: again[0]!.ReceiptHandle, VisibilityTimeout: 30 }));
      await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: again[0]!.ReceiptHandle }));
      await expect(
        client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: again[0]!.ReceiptHandle, VisibilityTimeout: 30 })),
      ).rejects.toMatchObject({ name: 'ReceiptHandleIsInvalid' });
      await expect(client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: undefined, VisibilityTimeout: 30 }))).rejects.toMatchObject({
        name: 'MissingParameter',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('an aborted long poll receives nothing: a message sent after it goes to the next receive', async () => {
    const url = queue();
    const abort = new AbortController();
    const gone = receive(url, { WaitTimeSeconds: 10 }, abort.signal).catch((error: Error) => error.name);
    await new Promise((r) => setTimeout(r, 50));
    abort.abort();
    expect(await gone).toBe('AbortError');
    await new Promise((r) => setTimeout(r, 50));
    await send(url, 'a:1');
    expect((await receive(url)).map((m) => m.Body)).toEqual(['a:1']);
  });

  it('refuses what SQS refuses: more than 10 messages, a wait over 20 s', async () => {
    const url = queue();
    await expect(receive(url, { MaxNumberOfMessages: 11 })).rejects.toMatchObject({ name: 'InvalidParameterValue' });
    await expect(receive(url, { WaitTimeSeconds: 21 })).rejects.toMatchObject({ name: 'InvalidParameterValue' });
  });
});

describe('SQS FIFO emulator: queues made and deleted through the API (the channel workers’ own)', () => {
  const fifo = { FifoQueue: 'true', VisibilityTimeout: '60' };

  it('CreateQueue answers the URL GetQueueUrl answers; again with the same attributes, the same URL', async () => {
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: 'fleet-a.fifo', Attributes: fifo }));
    expect(QueueUrl).toMatch(/\/fleet-a\.fifo$/);
    expect((await client.send(new GetQueueUrlCommand({ QueueName: 'fleet-a.fifo' }))).QueueUrl).toBe(QueueUrl);
    expect((await client.send(new CreateQueueCommand({ QueueName: 'fleet-a.fifo', Attributes: fifo }))).QueueUrl).toBe(QueueUrl);
    await expect(client.send(new CreateQueueCommand({ QueueName: 'fleet-a.fifo', Attributes: { ...fifo, VisibilityTimeout: '5' } }))).rejects.toMatchObject({
      name: 'QueueNameExists',
    });
  });

  it('refuses what SQS refuses: a name with other characters or too long, a standard queue', async () => {
    await expect(client.send(new CreateQueueCommand({ QueueName: 'fleet a.fifo', Attributes: fifo }))).rejects.toMatchObject({ name: 'InvalidParameterValue' });
    await expect(client.send(new CreateQueueCommand({ QueueName: `${'x'.repeat(76)}.fifo`, Attributes: fifo }))).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
    await expect(client.send(new CreateQueueCommand({ QueueName: 'plain' }))).rejects.toMatchObject({ name: 'InvalidParameterValue' });
  });

  it('DeleteQueue takes the messages with it: later calls, and a long poll waiting on it, are QueueDoesNotExist', async () => {
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: 'fleet-b.fifo', Attributes: fifo }));
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'x', MessageGroupId: 'g', MessageDeduplicationId: 'x' }));
    await client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 1 }));
    const waiting = client.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 5 }));
    await client.send(new DeleteQueueCommand({ QueueUrl }));
    await expect(waiting).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    await expect(client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'y', MessageGroupId: 'g', MessageDeduplicationId: 'y' }))).rejects.toMatchObject({
      name: 'QueueDoesNotExist',
    });
    await expect(client.send(new DeleteQueueCommand({ QueueUrl }))).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    await expect(client.send(new GetQueueUrlCommand({ QueueName: 'fleet-b.fifo' }))).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    // Made again, it is empty.
    const again = await client.send(new CreateQueueCommand({ QueueName: 'fleet-b.fifo', Attributes: fifo }));
    expect((await client.send(new ReceiveMessageCommand({ QueueUrl: again.QueueUrl }))).Messages ?? []).toEqual([]);
  });
});

describe('SQS FIFO emulator: a journal across a killed process', () => {
  it('brings back what was queued (in flight included, visible at once, receive counts kept), not what was deleted, and remembers deduplication ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqs-journal-'));
    try {
      const before = new SqsEmulator({ journalDir: dir });
      const beforeClient = new SQSClient({ endpoint: await before.listen(), region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
      const url = before.createQueue('q.fifo', { visibilityTimeoutSeconds: 300 });
      for (const body of ['a:1', 'a:2', 'b:1'])
        await beforeClient.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageGroupId: body[0], MessageDeduplicationId: body }));
      // b:1 is received and deleted; a:1 is received and left in flight (for five minutes).
      const a1 = await beforeClient.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1 }));
      const b1 = await beforeClient.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1 }));
      expect([a1.Messages![0]!.Body, b1.Messages![0]!.Body]).toEqual(['a:1', 'b:1']);
      await beforeClient.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: b1.Messages![0]!.ReceiptHandle }));
      beforeClient.destroy();
      // The crash: nothing is closed or flushed; the journal is all the next process has.
      const after = new SqsEmulator({ journalDir: dir });
      const afterClient = new SQSClient({ endpoint: await after.listen(), region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
      const again = after.createQueue('q.fifo', { visibilityTimeoutSeconds: 300 });
      expect(after.depth('q.fifo')).toBe(2);
      const redelivered = await afterClient.send(
        new ReceiveMessageCommand({ QueueUrl: again, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['ApproximateReceiveCount'] }),
      );
      expect(redelivered.Messages!.map((m) => [m.Body, m.Attributes?.ApproximateReceiveCount])).toEqual([
        ['a:1', '2'],
        ['a:2', '1'],
      ]);
      // The deleted message's deduplication id still holds within the window.
      await afterClient.send(new SendMessageCommand({ QueueUrl: again, MessageBody: 'b:1', MessageGroupId: 'b', MessageDeduplicationId: 'b:1' }));
      expect(after.depth('q.fifo')).toBe(2);
      afterClient.destroy();
      await after.close();
      await before.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
