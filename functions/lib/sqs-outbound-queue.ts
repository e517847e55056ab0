/**
 * The send queue on SQS FIFO (the local runtime's emulator answers the same API through
 * AWS_ENDPOINT_URL_SQS). A connection's lane is its message group; a request's deduplication id is
 * `<messageId>#<sendAttempt>`, so enqueuing the same attempt twice within five minutes (a stream
 * batch retried) adds it once.
 */
import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DispatchRequest, OutboundQueue } from '#domain/messages/outbound-queue.ts';
import { sendFifo, sharedSqsClient } from './sqs-fifo.ts';

export interface SqsOutboundQueue extends OutboundQueue {
  /** Keeps a received request (and with it its lane) out of sight for `seconds` more. */
  postpone(receiptHandle: string, seconds: number): Promise<void>;
}

export function sqsOutboundQueue(queueUrl = process.env.OUTBOUND_QUEUE_URL, client?: SQSClient): SqsOutboundQueue {
  const sqs = async () => {
    if (!queueUrl) throw new Error('OUTBOUND_QUEUE_URL is not set');
    return client ?? sharedSqsClient();
  };
  return {
    async enqueue(requests) {
      if (!requests.length) return;
      await sendFifo(
        await sqs(),
        queueUrl!,
        requests.map((request) => ({ body: JSON.stringify(request), group: request.serviceId, deduplicationId: deduplicationId(request) })),
      );
    },
    async postpone(receiptHandle, seconds) {
      await (await sqs()).send(
        new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: Math.max(0, Math.ceil(seconds)) }),
      );
    },
  };
}

export function deduplicationId(request: DispatchRequest): string {
  return `${request.messageId}#${request.sendAttempt}`;
}
