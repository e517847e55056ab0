import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Ports } from '#domain/ports.ts';
import type { AddressedEvent } from '#domain/realtime/events.ts';
import { type Broadcaster, fanOutBuilt } from '#domain/realtime/fan-out.ts';

const now = new Date('2026-11-26T04:00:00Z');
const event = (label: string): AddressedEvent => ({ accountId: 'A', payload: { event: label } }) as unknown as AddressedEvent;

/** A table whose only answer is the account's one admin socket, and which notes every call. */
function fakePorts() {
  const calls: string[] = [];
  const doc = {
    async send(command: unknown) {
      if (!(command instanceof QueryCommand)) throw new Error(`unexpected ${String(command)}`);
      calls.push(`query ${String(command.input.ExpressionAttributeValues?.[':pk'])}`);
      return { Items: [{ connectionId: 'c1', accountId: 'A', userId: 'u1', isAdmin: true, connectedAt: now.toISOString(), ttl: now.getTime() / 1000 + 3600 }] };
    },
  };
  const ports = { table: { name: 'test', doc }, clock: () => now } as unknown as Ports;
  return { ports, calls };
}

function fakeBroadcaster(log: string[]): Broadcaster {
  return {
    async post(connectionId, data) {
      log.push(`post ${connectionId} ${(JSON.parse(data) as { event: string }).event}`);
      return 'sent';
    },
    async close() {},
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the fan-out of a batch', () => {
  it("reads the account's connections while the batch's events are still being built", async () => {
    const { ports, calls } = fakePorts();
    const contactEvent = deferred<AddressedEvent | null>();
    const done = fanOutBuilt(ports, fakeBroadcaster(calls), [
      { accountId: 'A', event: Promise.resolve(event('message.CREATED')) },
      // A contact's event reads its connection item first: here it waits until released.
      { accountId: 'A', event: contactEvent.promise },
    ]);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(['query ACCOUNT#A#WS']);
    contactEvent.resolve(event('contact.UPDATED'));
    expect(await done).toEqual({ sent: 2, pruned: 0 });
    // Once, for the batch, and the events in the stream's order.
    expect(calls).toEqual(['query ACCOUNT#A#WS', 'post c1 message.CREATED', 'post c1 contact.UPDATED']);
  });

  it('reads nothing and posts nothing when no change makes an event', async () => {
    const { ports, calls } = fakePorts();
    expect(await fanOutBuilt(ports, fakeBroadcaster(calls), [{ accountId: undefined, event: Promise.resolve(null) }])).toEqual({ sent: 0, pruned: 0 });
    expect(calls).toEqual([]);
  });

  it('fails the batch (for the stream to retry) when an event cannot be built, without an unhandled rejection', async () => {
    const { ports, calls } = fakePorts();
    await expect(fanOutBuilt(ports, fakeBroadcaster(calls), [{ accountId: 'A', event: Promise.reject(new Error('table down')) }])).rejects.toThrow(
      'table down',
    );
    expect(calls).toEqual(['query ACCOUNT#A#WS']);
  });
});
