/**
 * The send queue on SQS FIFO (the local runtime's emulator answers the same API through
 * AWS_ENDPOINT_URL_SQS). A connection's lane is its message group; a request's deduplication id is
 * `<messageId>#<sendAttempt>`, so enqueuing the same attempt twice within five minutes (a stream
 * batch retried) adds it once.
 */
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DispatchRequest, OutboundQueue } from '#domain/messages/outbound-queue.ts';

/** SendMessageBatch takes at most 10 entries. */
const batchLimit = 10;

export interface SqsOutboundQueue extends OutboundQueue {
  /** Keeps a received request (and with it its lane) out of sight for `seconds` more. */
  postpone(receiptHandle: string, seconds: number): Promise<void>;
}

let shared: SQSClient | undefined;

export function sqsOutboundQueue(queueUrl = process.env.OUTBOUND_QUEUE_URL, client?: SQSClient): SqsOutboundQueue {
  const sqs = () => {
    if (!queueUrl) throw new Error('OUTBOUND_QUEUE_URL is not set');
    if (client) return client;
    shared ??= new SQSClient({});
    return shared;
  };
  return {
    async enqueue(requests) {
      // One batch after the other: entries keep their order inside a batch, and batches theirs.
      for (let start = 0; start < requests.length; start += batchLimit) {
        const chunk = requests.slice(start, start + batchLimit);
        const { Failed } = await sqs().send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: chunk.map((request, i) => ({
              Id: String(i),
              MessageBody: JSON.stringify(request),
              MessageGroupId: request.serviceId,
              MessageDeduplicationId: deduplicationId(request),
            })),
          }),
        );
        if (Failed?.length) throw new Error(`SendMessageBatch refused ${Failed.map((f) => `${f.Id}: ${f.Code} ${f.Message ?? ''}`).join('; ')}`);
      }
    },
    async postpone(receiptHandle, seconds) {
      await sqs().send(
        new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: Math.max(0, Math.ceil(seconds)) }),
      );
    },
  };
}

export function deduplicationId(request: DispatchRequest): string {
  return `${request.messageId}#${request.sendAttempt}`;
}
