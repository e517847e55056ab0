import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readCheckpoints } from './change-log.ts';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { StreamEmulator } from './stream-emulator.ts';
import { StreamPollers } from '../pollers/stream-poller.ts';
import type { StreamRecord } from './dynamo-front.ts';

const record = (n: number) => ({ eventID: String(n), eventName: 'INSERT', dynamodb: { SequenceNumber: String(n) } }) as unknown as StreamRecord;

describe('stream emulator', () => {
  it('delivers every record once, in order, in batches, one batch at a time', async () => {
    const stream = new StreamEmulator();
    const streams = new StreamPollers(stream);
    const seen: string[] = [];
    let running = 0;
    let overlap = false;
    streams.subscribe({
      name: 'c',
      batchSize: 3,
      handler: async (event: DynamoDBStreamEvent) => {
        running++;
        if (running > 1) overlap = true;
        await new Promise((r) => setTimeout(r, 2));
        seen.push(...event.Records.map((r) => r.eventID!));
        running--;
      },
    });
    for (let i = 1; i <= 10; i++) stream.push(record(i));
    await streams.idle();
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => String(i + 1)));
    expect(overlap).toBe(false);
  });

  it('refuses a third reader of the stream, as DynamoDB Streams throttles more than two readers of a shard', () => {
    const stream = new StreamEmulator();
    const streams = new StreamPollers(stream);
    const handler = async () => undefined;
    streams.subscribe({ name: 'one', handler });
    streams.subscribe({ name: 'two', handler });
    expect(() => streams.subscribe({ name: 'three', handler })).toThrow(/more than 2 readers/);
  });

  it('retries a failing batch before moving on', async () => {
    const stream = new StreamEmulator();
    const streams = new StreamPollers(stream);
    let calls = 0;
    streams.subscribe({
      name: 'flaky',
      handler: async () => {
        calls++;
        if (calls < 3) throw new Error('transient');
      },
    });
    stream.push(record(1));
    await streams.idle();
    expect(calls).toBe(3);
  });

  it('reads a partial batch response as Lambda does: retries from the earliest reported record, the records before it handled', async () => {
    const stream = new StreamEmulator();
    const streams = new StreamPollers(stream);
    const calls: string[][] = [];
    streams.subscribe({
      name: 'partial',
      handler: async (event: DynamoDBStreamEvent) => {
        calls.push(event.Records.map((r) => r.eventID!));
        if (calls.length === 1) return { batchItemFailures: [{ itemIdentifier: '4' }, { itemIdentifier: '3' }] };
        return { batchItemFailures: [] };
      },
    });
    for (let i = 1; i <= 5; i++) stream.push(record(i));
    await streams.idle();
    expect(calls).toEqual([
      ['1', '2', '3', '4', '5'],
      ['3', '4', '5'],
    ]);
  });

  it('gives up on a batch after its retries, logs it, and goes on with the next', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const stream = new StreamEmulator();
    const streams = new StreamPollers(stream);
    const delivered: string[] = [];
    streams.subscribe({
      name: 'broken',
      batchSize: 1,
      maxRetries: 1,
      handler: async (event: DynamoDBStreamEvent) => {
        if (event.Records[0]!.eventID === '1') throw new Error('poison');
        delivered.push(event.Records[0]!.eventID!);
      },
    });
    stream.push(record(1));
    stream.push(record(2));
    await streams.idle();
    expect(delivered).toEqual(['2']);
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });
});

describe('stream emulator: checkpoints across a killed process', () => {
  it('hands each consumer, after a restart, the records past its own checkpoint; a new consumer starts at the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stream-checkpoints-'));
    try {
      const beforeStream = new StreamEmulator(dir);
      const before = new StreamPollers(beforeStream);
      const seen: string[] = [];
      before.subscribe({ name: 'fast', handler: async (event: DynamoDBStreamEvent) => void seen.push(...event.Records.map((r) => r.eventID!)) });
      beforeStream.resume([], 0);
      for (let i = 1; i <= 3; i++) beforeStream.push(record(i));
      await before.idle();
      expect(seen).toEqual(['1', '2', '3']);
      expect(readCheckpoints(dir)).toEqual({ fast: 3 });

      // Records 2..5 are in the log; "fast" handled up to 3; "added" never ran before.
      const afterStream = new StreamEmulator(dir);
      const after = new StreamPollers(afterStream);
      const fast: string[] = [];
      const added: string[] = [];
      after.subscribe({ name: 'fast', handler: async (event: DynamoDBStreamEvent) => void fast.push(...event.Records.map((r) => r.eventID!)) });
      after.subscribe({ name: 'added', handler: async (event: DynamoDBStreamEvent) => void added.push(...event.Records.map((r) => r.eventID!)) });
      afterStream.resume([2, 3, 4, 5].map(record), 5);
      await after.idle();
      expect(fast).toEqual(['4', '5']);
      expect(added).toEqual([]);
      expect(readCheckpoints(dir)).toEqual({ fast: 5, added: 5 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('moves a checkpoint past records a consumer filters out, so they are not replayed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stream-checkpoints-'));
    try {
      const stream = new StreamEmulator(dir);
      const streams = new StreamPollers(stream);
      const seen: string[] = [];
      streams.subscribe({
        name: 'inserts',
        filters: [{ eventName: ['INSERT'] }],
        handler: async (event: DynamoDBStreamEvent) => void seen.push(...event.Records.map((r) => r.eventID!)),
      });
      stream.resume([], 0);
      stream.push(record(1));
      await streams.idle();
      stream.push({ ...record(2), eventName: 'REMOVE' });
      stream.push(record(3));
      await streams.idle();
      expect(seen).toEqual(['1', '3']);
      expect(readCheckpoints(dir)).toEqual({ inserts: 3 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
