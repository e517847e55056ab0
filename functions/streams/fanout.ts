/** Stream consumer: turns table changes into realtime events for the browsers of each account. */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { realtimeEventFor } from '#domain/realtime/events.ts';
import { fanOut } from '#domain/realtime/fan-out.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { managementBroadcaster } from '#lib/ws-broadcaster.ts';
import { imagesOf } from './stream-images.ts';

const broadcaster = managementBroadcaster();

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  const ports = defaultPorts();
  // Built in parallel, posted in the stream's order.
  const built = await Promise.all(
    event.Records.map((record) => {
      const { change, next } = imagesOf(record);
      return realtimeEventFor(ports, change, next);
    }),
  );
  const events = built.filter((e) => e !== null);
  if (events.length) await fanOut(ports, broadcaster, events);
});
