import { describe, expect, it, vi } from 'vitest';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { StreamEmulator } from '../../infra/local/stream-emulator.ts';
import type { StreamRecord } from '../../infra/local/dynamo-front.ts';

const record = (n: number) => ({ eventID: String(n), eventName: 'INSERT', dynamodb: { SequenceNumber: String(n) } }) as unknown as StreamRecord;

describe('stream emulator', () => {
  it('delivers every record once, in order, in batches, one batch at a time', async () => {
    const streams = new StreamEmulator();
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
    for (let i = 1; i <= 10; i++) streams.push(record(i));
    await streams.idle();
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => String(i + 1)));
    expect(overlap).toBe(false);
  });

  it('retries a failing batch before moving on', async () => {
    const streams = new StreamEmulator();
    let calls = 0;
    streams.subscribe({
      name: 'flaky',
      handler: async () => {
        calls++;
        if (calls < 3) throw new Error('transient');
      },
    });
    streams.push(record(1));
    await streams.idle();
    expect(calls).toBe(3);
  });

  it('gives up on a batch after its retries, logs it, and goes on with the next', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const streams = new StreamEmulator();
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
    streams.push(record(1));
    streams.push(record(2));
    await streams.idle();
    expect(delivered).toEqual(['2']);
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });
});
