/** Stream consumer: turns table changes into realtime events for the browsers of each account. */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { realtimeEventFor } from '#domain/realtime/events.ts';
import { fanOut } from '#domain/realtime/fan-out.ts';
import { defaultPorts } from '#lib/ports.ts';
import { managementBroadcaster } from '#lib/ws-broadcaster.ts';
import { imagesOf } from './stream-images.ts';

const broadcaster = managementBroadcaster();

export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const ports = defaultPorts();
  const events = [];
  for (const record of event.Records) {
    const { change, next } = imagesOf(record);
    const addressed = await realtimeEventFor(ports, change, next);
    if (addressed) events.push(addressed);
  }
  if (events.length) await fanOut(ports, broadcaster, events);
}
