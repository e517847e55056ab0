/**
 * The stream routers (functions/streams/stream-router.ts): each consumer gets what its own filters
 * let through, in order and in its batch size; a consumer's failure is retried from its record
 * without the other consumers handling again what they had handled; the routers' mapping filters
 * let through every record a consumer asks for. Driven through the local stream emulator, which
 * reads partial batch responses as Lambda does.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { consumersOf, type EventPattern, type PatternValue, routerFilters, streamConsumers, streamRouters } from './consumers.ts';
import { passesFilters } from './event-filter.ts';
import { type RoutedConsumer, StreamRouter } from './stream-router.ts';
import type { StreamRecord } from '../../infra/local/emulators/dynamo-front.ts';
import { lambdaContext } from '../../infra/local/runtime/lambda-context.ts';
import { StreamEmulator } from '../../infra/local/emulators/stream-emulator.ts';
import { StreamPollers } from '../../infra/local/pollers/stream-poller.ts';

let sequence = 0;
/** A stream record of an item of `type` (its sk says which record it is). */
function record(type: string, sk: string, eventName: 'INSERT' | 'MODIFY' | 'REMOVE' = 'INSERT'): StreamRecord {
  sequence++;
  const item = marshall({ pk: 'ACCOUNT#A', sk, type });
  return {
    eventID: `e${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/conversa/stream/local',
    dynamodb: {
      ApproximateCreationDateTime: 1,
      Keys: marshall({ pk: 'ACCOUNT#A', sk }),
      ...(eventName === 'REMOVE' ? { OldImage: item } : { NewImage: item }),
      SequenceNumber: String(sequence),
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  } as StreamRecord;
}

const ofType = (type: string): EventPattern[] => [{ dynamodb: { NewImage: { type: { S: [type] } } } }];
const sks = (event: DynamoDBStreamEvent) => event.Records.map((r) => r.dynamodb!.Keys!.sk!.S!);

/** A consumer that records the sks of every call and fails as `fail` says. */
function consumer(name: string, filters: EventPattern[] | undefined, batchSize: number, fail: (sks: string[]) => boolean = () => false) {
  const calls: string[][] = [];
  const routed: RoutedConsumer = {
    name,
    batchSize,
    filters,
    handler: async () => async (event: DynamoDBStreamEvent) => {
      calls.push(sks(event));
      if (fail(sks(event))) throw new Error(`${name} failed`);
    },
  };
  return { routed, calls, seen: () => calls.flat() };
}

/** The router behind the emulator's one reader, as the runtime wires it (twice a consumer's 30 s, as routerTimeoutSeconds gives). */
function wired(router: StreamRouter, maxRetries = 3) {
  const stream = new StreamEmulator();
  const streams = new StreamPollers(stream);
  streams.subscribe({
    name: `${router.name}-router`,
    batchSize: 100,
    maxRetries,
    timeoutSeconds: 60,
    handler: (event, context) => router.handle(event as DynamoDBStreamEvent, context as Context),
  });
  return { push: (record: StreamRecord) => stream.push(record), idle: () => streams.idle() };
}

describe('stream router', () => {
  it('hands each consumer only the records its filters let through, in stream order, in its own batch size', async () => {
    const messages = consumer('messages', ofType('Message'), 2);
    const contacts = consumer('contacts', ofType('Contact'), 100);
    const everything = consumer('everything', undefined, 100);
    const streams = wired(new StreamRouter('r', [messages.routed, contacts.routed, everything.routed]));
    for (const [type, sk] of [
      ['Message', 'm1'],
      ['Contact', 'c1'],
      ['Message', 'm2'],
      ['Message', 'm3'],
      ['Rate', 'x1'],
    ] as const) {
      streams.push(record(type, sk));
    }
    await streams.idle();
    expect(messages.calls).toEqual([['m1', 'm2'], ['m3']]);
    expect(contacts.calls).toEqual([['c1']]);
    expect(everything.seen()).toEqual(['m1', 'c1', 'm2', 'm3', 'x1']);
  });

  it('retries only the failing consumer from its failed record; the others are not called again for what they handled', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let failures = 2;
    const flaky = consumer('flaky', undefined, 1, (s) => s[0] === 'r3' && failures-- > 0);
    const steady = consumer('steady', undefined, 2);
    const filtered = consumer('filtered', ofType('Message'), 100);
    const reported: string[] = [];
    const router = new StreamRouter('r', [flaky.routed, steady.routed, filtered.routed], {
      onFailure: (f) => reported.push(`${f.consumer}@${f.sequenceNumber}`),
    });
    const streams = wired(router);
    const records = [record('Message', 'r1'), record('Contact', 'r2'), record('Message', 'r3'), record('Message', 'r4'), record('Contact', 'r5')];
    // One write's records: one batch, as the runtime pushes them.
    for (const r of records) streams.push(r);
    await streams.idle();
    // The failing consumer: in order, r3 three times (two failures), never r4 before r3.
    expect(flaky.seen()).toEqual(['r1', 'r2', 'r3', 'r3', 'r3', 'r4', 'r5']);
    // The others: each record once, though the batch was retried twice from r3.
    expect(steady.seen()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(filtered.seen()).toEqual(['r1', 'r3', 'r4']);
    expect(reported).toEqual([`flaky@${records[2]!.dynamodb.SequenceNumber}`, `flaky@${records[2]!.dynamodb.SequenceNumber}`]);
    log.mockRestore();
  });

  it("answers the earliest record any consumer failed, and takes a consumer's own partial batch response", async () => {
    const router = new StreamRouter('r', [
      { name: 'late', batchSize: 10, handler: async () => async () => ({ batchItemFailures: [{ itemIdentifier: '103' }] }) },
      {
        name: 'early',
        batchSize: 1,
        handler: async () => async (event: DynamoDBStreamEvent) => {
          if (sks(event)[0] === 'b') throw new Error('early failed');
        },
      },
      { name: 'fine', batchSize: 10, handler: async () => async () => undefined },
    ]);
    const batch = ['a', 'b', 'c', 'd'].map((sk, i) => ({
      ...record('Message', sk),
      dynamodb: { ...record('Message', sk).dynamodb, SequenceNumber: String(101 + i) },
    }));
    const answer = await router.handle({ Records: batch } as unknown as DynamoDBStreamEvent, lambdaContext('r', 60_000));
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '102' }] });
  });

  it('starts no call with less time left than the consumer may take: the rest is retried from its first record', async () => {
    const slow = consumer('slow', undefined, 1);
    const reported: string[] = [];
    const router = new StreamRouter('r', [{ ...slow.routed, timeoutSeconds: 120 }], { onFailure: (f) => reported.push(f.consumer) });
    const batch = [record('Message', 'a'), record('Message', 'b')];
    const answer = await router.handle({ Records: batch } as unknown as DynamoDBStreamEvent, lambdaContext('r', 60_000));
    expect(slow.calls).toEqual([]);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: batch[0]!.dynamodb.SequenceNumber }]);
    expect(reported).toEqual(['slow']);
  });
});

/** A record that a pattern matches: the first value each rule allows. */
function instance(pattern: EventPattern): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(pattern)) {
    if (!Array.isArray(rule)) {
      out[field] = instance(rule as EventPattern);
      continue;
    }
    const first = (rule as readonly PatternValue[])[0];
    if (first !== null && typeof first === 'object') {
      if ('exists' in first) {
        if (first.exists) out[field] = 'x';
      } else if ('prefix' in first) out[field] = `${first.prefix}x`;
      else out[field] = '\u0000';
    } else out[field] = first;
  }
  return out;
}

describe("the routers' mapping filters", () => {
  it('let through every record some consumer of the router asks for, in at most two patterns', () => {
    for (const { name } of streamRouters) {
      const consumers = consumersOf(name);
      const filters = routerFilters(consumers);
      expect(filters, name).toBeDefined();
      expect(filters!.length).toBeLessThanOrEqual(2);
      for (const c of consumers) {
        for (const pattern of c.filters ?? []) {
          const example = instance(pattern);
          expect(passesFilters(c.filters, example), `${c.name} ${JSON.stringify(example)}`).toBe(true);
          expect(passesFilters(filters, example), `${name} lets ${c.name}'s ${JSON.stringify(example)} through`).toBe(true);
        }
      }
    }
  });

  it('put every consumer in a router, and give none without filters or a module to load', () => {
    for (const c of streamConsumers) {
      expect(
        streamRouters.map((r) => r.name),
        c.name,
      ).toContain(c.router);
      expect(c.load, c.name).toBeTypeOf('function');
    }
    // A consumer taking every record: the mapping can filter nothing out.
    expect(routerFilters([...streamConsumers, { filters: undefined }])).toBeUndefined();
  });
});
