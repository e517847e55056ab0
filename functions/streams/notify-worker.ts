/**
 * Stream consumer: tells the channel worker that a connection changed (created, started, stopped,
 * restarted with a new run, removed), as a `changed` command in the connection's group of the
 * worker queue. The worker that holds the connection's session (or, when none does, any worker)
 * reconciles it at once instead of at its next scan.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { changedCommandOf, type WorkerCommand } from '#domain/channels/worker-commands.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  const ports = defaultPorts();
  const commands = event.Records.map((record) => {
    const { next, previous } = imagesOf(record);
    return changedCommandOf(ports.channels, { next, previous, sequence: record.dynamodb?.SequenceNumber ?? record.eventID ?? '' });
  }).filter((command): command is WorkerCommand => command !== null);
  // A failure retries the whole batch; the deduplication ids (the records' sequence numbers) keep commands already queued from being queued twice.
  await ports.workerQueue.enqueue(commands);
});
