/**
 * Stream consumer: puts every message that enters ack 0 for a new attempt into its connection's
 * lane: the send queue (functions/queues/send-outbound.ts sends it) or, for channels whose sends
 * run in the session (`SessionHolding.sendsInSession`: WhatsApp), the channel worker's queue, read
 * by the worker that holds the connection's socket. It calls no channel and never waits for one,
 * so a slow or rate-limited connection holds up nobody on this shard.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { MessageItem } from '#db/messages.ts';
import { sendCommand } from '#domain/channels/worker-commands.ts';
import { dispatchRequestOf, needsDispatch, routeDispatchRequests } from '#domain/messages/dispatch.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { sqsOutboundQueue } from '#lib/sqs-outbound-queue.ts';
import { imagesOf } from './stream-images.ts';

const queue = sqsOutboundQueue();

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  // The event source's filter lets through messages at ack 0 only; whether the attempt is new
  // needs the old image too, which filters cannot compare.
  const due = event.Records.map(imagesOf)
    .filter(({ next, previous }) => needsDispatch(next as MessageItem | undefined, previous as MessageItem | undefined))
    .map(({ next }) => dispatchRequestOf(next as unknown as MessageItem));
  if (!due.length) return;
  const ports = defaultPorts();
  const { inSession, anywhere } = await routeDispatchRequests(ports, due);
  // A failure retries the whole batch; the deduplication ids keep requests already queued from being queued twice.
  await queue.enqueue(anywhere);
  await ports.workerQueue.enqueue(inSession.map(sendCommand));
});
