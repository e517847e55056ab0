/**
 * The channel worker's queue on SQS FIFO (`functions/queues/worker-queue.ts`; the emulator locally):
 * one message group per connection (a send held for the new-chat cap: per conversation),
 * deduplication ids from the commands themselves.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { commandDeduplicationId, commandGroup, type WorkerQueue } from '#domain/channels/worker-commands.ts';
import { workerQueue } from '#functions/queues/worker-queue.ts';
import { sendFifo, sharedSqsClient } from './sqs-fifo.ts';

export function sqsWorkerQueue(queueUrl = process.env[workerQueue.urlVariable], client?: SQSClient): WorkerQueue {
  return {
    async enqueue(commands) {
      if (!commands.length) return;
      if (!queueUrl) throw new Error(`${workerQueue.urlVariable} is not set`);
      await sendFifo(
        client ?? (await sharedSqsClient()),
        queueUrl,
        commands.map((command) => ({
          body: JSON.stringify(command),
          group: commandGroup(command),
          deduplicationId: commandDeduplicationId(command),
        })),
      );
    },
  };
}
