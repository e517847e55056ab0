/** Stream consumer: turns table changes into realtime events for the browsers of each account. */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { onlyHandOverMarked } from '#db/outbound-messages.ts';
import { eventAccountOf, realtimeEventFor } from '#domain/realtime/events.ts';
import { fanOutBuilt, type PendingEvent } from '#domain/realtime/fan-out.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { managementBroadcaster } from '#lib/ws-broadcaster.ts';
import { imagesOf } from './stream-images.ts';

const broadcaster = managementBroadcaster();

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  const ports = defaultPorts();
  // Built in parallel, posted in the stream's order; the accounts' connections are read meanwhile.
  const pending: PendingEvent[] = [];
  for (const record of event.Records) {
    const { change, next, previous } = imagesOf(record);
    // A send's hand-over mark (dispatch.ts) is bookkeeping: browsers see nothing new.
    if (onlyHandOverMarked(next, previous)) continue;
    pending.push({ accountId: eventAccountOf(change, next), event: realtimeEventFor(ports, change, next, previous) });
  }
  if (pending.length) await fanOutBuilt(ports, broadcaster, pending);
});
