/**
 * The channel worker's queue on SQS FIFO (`functions/queues/worker-queue.ts`; the emulator locally):
 * one message group per connection, deduplication ids from the commands themselves.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { commandConnection, commandDeduplicationId, type WorkerQueue } from '#domain/channels/worker-commands.ts';
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
          group: commandConnection(command).serviceId,
          deduplicationId: commandDeduplicationId(command),
        })),
      );
    },
  };
}
