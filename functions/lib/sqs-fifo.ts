/** Sending to an SQS FIFO queue in order: SendMessageBatch in chunks of 10, one chunk after the other. */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { traced } from './observability.ts';

let shared: SQSClient | undefined;

/** One SQS client per process, made when first needed (the endpoint comes from the environment: AWS_ENDPOINT_URL_SQS locally). */
export function sharedSqsClient(): SQSClient {
  shared ??= traced(new SQSClient({}));
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
