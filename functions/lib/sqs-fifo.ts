/**
 * Sending to an SQS FIFO queue in order: SendMessageBatch in chunks of 10, one chunk after the
 * other. The SDK's SQS client is loaded when first needed: every function builds the ports, which
 * hold the worker queue, and few of them send to it.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { traced } from './observability.ts';

let shared: Promise<SQSClient> | undefined;

/** One SQS client per process, made when first needed (the endpoint comes from the environment: AWS_ENDPOINT_URL_SQS locally). */
export function sharedSqsClient(): Promise<SQSClient> {
  shared ??= import('@aws-sdk/client-sqs').then(({ SQSClient }) => traced(new SQSClient({})));
  return shared;
}

/** SendMessageBatch takes at most 10 entries. */
const batchLimit = 10;

export interface FifoEntry {
  body: string;
  group: string;
  deduplicationId: string;
}

/** Entries keep their order inside a batch, and batches theirs; a refused entry fails the call (the caller retries, deduplication keeps it once). */
export async function sendFifo(sqs: SQSClient, queueUrl: string, entries: readonly FifoEntry[]): Promise<void> {
  const { SendMessageBatchCommand } = await import('@aws-sdk/client-sqs');
  for (let start = 0; start < entries.length; start += batchLimit) {
    const chunk = entries.slice(start, start + batchLimit);
    const { Failed } = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((entry, i) => ({
          Id: String(i),
          MessageBody: entry.body,
          MessageGroupId: entry.group,
          MessageDeduplicationId: entry.deduplicationId,
        })),
      }),
    );
    if (Failed?.length) throw new Error(`SendMessageBatch refused ${Failed.map((f) => `${f.Id}: ${f.Code} ${f.Message ?? ''}`).join('; ')}`);
  }
}
