import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { entityTypes } from '#db/keys.ts';
import { realtimeEventFor } from '#domain/realtime/events.ts';
import type { Ports } from '#domain/ports.ts';
import { realtimeItemTypes, streamConsumers, type EventPattern } from '#functions/streams/consumers.ts';
import { matchesPattern, passesFilters } from './event-filter.ts';
import { StreamEmulator } from '../emulators/stream-emulator.ts';
import { StreamPollers } from './stream-poller.ts';
import type { StreamRecord } from '../emulators/dynamo-front.ts';

/** A stream record as the DynamoDB front (and DynamoDB Streams) builds it. */
function streamRecord(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', next?: Record<string, unknown>, previous?: Record<string, unknown>): StreamRecord {
  const item = next ?? previous!;
  return {
    eventID: String(Math.random()),
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/conversa/stream/local',
    dynamodb: {
      ApproximateCreationDateTime: 1,
      Keys: marshall({ pk: item.pk, sk: item.sk }),
      ...(next ? { NewImage: marshall(next, { removeUndefinedValues: true }) } : {}),
      ...(previous ? { OldImage: marshall(previous, { removeUndefinedValues: true }) } : {}),
      SequenceNumber: '1',
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

const message = (fields: Record<string, unknown> = {}) => ({
  pk: 'ACCOUNT#A#CONTACT#C',
  sk: 'MSG#01J',
  type: 'Message',
  id: '01J',
  accountId: 'A',
  contactId: 'C',
  serviceId: 'S',
  text: 'Oi',
  isFromMe: true,
  ack: 0,
  error: null,
  file: null,
  sendAttempt: 1,
  ...fields,
});

const filtersOf = (name: string) => streamConsumers.find((c) => c.name === name)!.filters!;

describe('event filter patterns', () => {
  it('match equal values, any of a list, and nested fields all together', () => {
    const pattern: EventPattern = { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['Message'] }, ack: { N: ['0'] } } } };
    expect(matchesPattern(pattern, streamRecord('INSERT', message()))).toBe(true);
    expect(matchesPattern(pattern, streamRecord('MODIFY', message()))).toBe(true);
    expect(matchesPattern(pattern, streamRecord('MODIFY', message({ ack: 1 })))).toBe(false);
    expect(matchesPattern(pattern, streamRecord('INSERT', message({ type: 'Contact' })))).toBe(false);
    expect(matchesPattern(pattern, streamRecord('REMOVE', undefined, message()))).toBe(false);
  });

  it('compare DynamoDB numbers as the strings the record holds, and booleans as booleans', () => {
    expect(matchesPattern({ dynamodb: { NewImage: { ack: { N: ['-2'] } } } }, streamRecord('MODIFY', message({ ack: -2 })))).toBe(true);
    expect(matchesPattern({ dynamodb: { NewImage: { ack: { N: [0] } } } }, streamRecord('MODIFY', message()))).toBe(false);
    expect(matchesPattern({ dynamodb: { NewImage: { isFromMe: { BOOL: [true] } } } }, streamRecord('INSERT', message()))).toBe(true);
    expect(matchesPattern({ dynamodb: { NewImage: { isFromMe: { BOOL: [true] } } } }, streamRecord('INSERT', message({ isFromMe: false })))).toBe(false);
  });

  it('know exists, prefix and anything-but', () => {
    const record = streamRecord('INSERT', message());
    // As in Lambda, exists looks at leaves: an image is an object, its attributes' values are leaves.
    expect(matchesPattern({ dynamodb: { OldImage: { id: { S: [{ exists: false }] } } } }, record)).toBe(true);
    expect(matchesPattern({ dynamodb: { NewImage: { id: { S: [{ exists: true }] } } } }, record)).toBe(true);
    expect(matchesPattern({ dynamodb: { NewImage: { channelMessageId: [{ exists: true }] } } }, record)).toBe(false);
    expect(matchesPattern({ dynamodb: { Keys: { pk: { S: [{ prefix: 'ACCOUNT#A#' }] } } } }, record)).toBe(true);
    expect(matchesPattern({ eventName: [{ 'anything-but': ['REMOVE'] }] }, record)).toBe(true);
    expect(matchesPattern({ eventName: [{ 'anything-but': ['INSERT'] }] }, record)).toBe(false);
  });

  it('let a record through when any one pattern matches ("or" across patterns), and every record when there are none', () => {
    const contacts: EventPattern = { dynamodb: { NewImage: { type: { S: ['Contact'] } } } };
    const failed: EventPattern = { dynamodb: { NewImage: { ack: { N: ['-2'] } } } };
    expect(passesFilters([contacts, failed], streamRecord('MODIFY', message({ ack: -2 })))).toBe(true);
    expect(passesFilters([contacts, failed], streamRecord('MODIFY', message({ type: 'Contact' })))).toBe(true);
    expect(passesFilters([contacts, failed], streamRecord('MODIFY', message()))).toBe(false);
    expect(passesFilters(undefined, streamRecord('REMOVE', undefined, message()))).toBe(true);
  });

  it('refuse rules they do not know, so a pattern never silently matches differently here', () => {
    expect(() => matchesPattern({ dynamodb: { NewImage: { ack: { N: [{ numeric: ['=', 0] } as never] } } } }, streamRecord('INSERT', message()))).toThrow(
      /Unsupported/,
    );
  });
});

describe('the stream consumers’ filters', () => {
  it('give the dispatcher our own messages at ack 0 only: new sends and retries, not acks, inbound messages or other items', () => {
    const dispatch = filtersOf('dispatch-outbound');
    expect(passesFilters(dispatch, streamRecord('INSERT', message()))).toBe(true);
    expect(passesFilters(dispatch, streamRecord('MODIFY', message({ ack: 0, sendAttempt: 2 }), message({ ack: -2, sendAttempt: 1 })))).toBe(true);
    expect(passesFilters(dispatch, streamRecord('MODIFY', message({ ack: 1 }), message()))).toBe(false);
    expect(passesFilters(dispatch, streamRecord('INSERT', message({ isFromMe: false, ack: 0 })))).toBe(false);
    expect(passesFilters(dispatch, streamRecord('INSERT', { pk: 'ACCOUNT#A', sk: 'CONTACT#C', type: 'Contact', ack: 0 }))).toBe(false);
    expect(passesFilters(dispatch, streamRecord('REMOVE', undefined, message()))).toBe(false);
  });

  it('give notify-worker connections created, changed and removed, and nothing else', () => {
    const notify = filtersOf('notify-worker');
    const service = { pk: 'ACCOUNT#A', sk: 'SERVICE#S', type: entityTypes.service, status: 'starting' };
    expect(passesFilters(notify, streamRecord('INSERT', service))).toBe(true);
    expect(passesFilters(notify, streamRecord('MODIFY', { ...service, status: 'connected' }, service))).toBe(true);
    expect(passesFilters(notify, streamRecord('REMOVE', undefined, service))).toBe(true);
    expect(passesFilters(notify, streamRecord('INSERT', message()))).toBe(false);
    expect(passesFilters(notify, streamRecord('INSERT', { pk: 'LEASE#S', sk: 'LEASE', type: entityTypes.sessionLease }))).toBe(false);
  });

  it('give plan-limits changed accounts that have been through billing, and nothing else', () => {
    const limits = filtersOf('plan-limits');
    const account = { pk: 'ACCOUNT#A', sk: 'ACCOUNT', type: entityTypes.account, id: 'A', plan: null, contactsCount: 3 };
    const billed = { ...account, billingSyncedAt: '2026-11-01T00:00:00.000Z', plan: { productName: 'Pro', users: 10, connections: 5, contacts: 25000 } };
    expect(passesFilters(limits, streamRecord('MODIFY', billed, account))).toBe(true);
    expect(passesFilters(limits, streamRecord('MODIFY', { ...billed, billingSyncedAt: null }, account))).toBe(false);
    expect(passesFilters(limits, streamRecord('MODIFY', { ...account, contactsCount: 4 }, account))).toBe(false);
    expect(passesFilters(limits, streamRecord('INSERT', account))).toBe(false);
    expect(passesFilters(limits, streamRecord('REMOVE', undefined, billed))).toBe(false);
    expect(passesFilters(limits, streamRecord('MODIFY', { pk: 'ACCOUNT#A', sk: 'USER#U', type: entityTypes.user, billingSyncedAt: 'x' }))).toBe(false);
  });

  it('give fanout the created and changed items of the kinds browsers follow, and no removals', () => {
    const fanout = filtersOf('fanout');
    for (const type of realtimeItemTypes) {
      expect(passesFilters(fanout, streamRecord('INSERT', { pk: 'P', sk: 'S', type })), type).toBe(true);
      expect(passesFilters(fanout, streamRecord('MODIFY', { pk: 'P', sk: 'S', type }, { pk: 'P', sk: 'S', type })), type).toBe(true);
      expect(passesFilters(fanout, streamRecord('REMOVE', undefined, { pk: 'P', sk: 'S', type })), type).toBe(false);
    }
    expect(passesFilters(fanout, streamRecord('INSERT', { pk: 'P', sk: 'S', type: entityTypes.rate }))).toBe(false);
    expect(passesFilters(fanout, streamRecord('INSERT', { pk: 'P', sk: 'S', type: entityTypes.channelMessage }))).toBe(false);
  });

  it('drop nothing fanout would turn into an event: every other item type makes no event', async () => {
    const untouchable = new Proxy(
      {},
      {
        get: () => {
          throw new Error('no port needed');
        },
      },
    ) as Ports;
    const others = Object.values(entityTypes).filter((type) => !(realtimeItemTypes as readonly string[]).includes(type));
    expect(others.length).toBeGreaterThan(0);
    for (const type of others) expect(await realtimeEventFor(untouchable, 'INSERT', { type }), type).toBeNull();
  });
});

describe('the stream emulator with filters', () => {
  it('hands a consumer only the records its filters let through, in order, batched together', async () => {
    const stream = new StreamEmulator();
    const streams = new StreamPollers(stream);
    const batches: string[][] = [];
    streams.subscribe({
      name: 'dispatch-outbound',
      batchSize: 2,
      filters: filtersOf('dispatch-outbound'),
      handler: async (event: DynamoDBStreamEvent) => {
        batches.push(event.Records.map((r) => r.dynamodb!.NewImage!.id!.S!));
      },
    });
    const all = vi.fn(async () => undefined);
    streams.subscribe({ name: 'everything', handler: all });
    stream.push(streamRecord('INSERT', message({ id: 'm1' })));
    stream.push(streamRecord('MODIFY', message({ id: 'm1', ack: 1 }), message({ id: 'm1' })));
    stream.push(streamRecord('INSERT', message({ id: 'in', isFromMe: false })));
    stream.push(streamRecord('INSERT', message({ id: 'm2' })));
    stream.push(streamRecord('INSERT', message({ id: 'm3' })));
    await streams.idle();
    expect(batches).toEqual([['m1', 'm2'], ['m3']]);
    expect(all.mock.calls.flatMap((call) => (call as unknown as [DynamoDBStreamEvent])[0].Records)).toHaveLength(5);
  });
});
