/**
 * Lambda's SQS event source mapping on this machine: reads a queue of the SQS emulator
 * (infra/local/emulators/sqs-emulator.ts) and calls the same handler modules Lambda runs, with the
 * same event shape.
 *
 * - Delivery: batches of up to `batchSize` records, taken in queue order from the groups not in
 *   flight, several batches at once (`maxConcurrency`); a batch stays in flight for the queue's
 *   visibility timeout unless the handler changes a record's visibility. Records the handler
 *   reports in `batchItemFailures` stay (and come back when their visibility ends); the others are
 *   deleted. A handler that throws, or reports an identifier not in the batch, fails the batch.
 * - The emulator tells a mapping of every change that may make a message receivable; a mapping
 *   otherwise sleeps until the next visibility ends.
 */
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { ReceivedMessage, SqsEmulator } from '../emulators/sqs-emulator.ts';
import { lambdaContext } from '../runtime/lambda-context.ts';

const region = 'us-east-1';

export interface QueueSubscription {
  name: string;
  // biome-ignore lint/suspicious/noConfusingVoidType: a Lambda SQS handler answers a batch response or nothing
  handler: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;
  /** @default 10 */
  batchSize?: number;
  /** Batches in flight at once (each of other groups). @default 4 */
  maxConcurrency?: number;
  /** The handler's timeout, for its context. @default 60 */
  timeoutSeconds?: number;
}

interface Mapping {
  queueName: string;
  subscription: Required<QueueSubscription>;
  running: Set<Promise<void>>;
  wake?: NodeJS.Timeout;
  pumpQueued: boolean;
  stopListening: () => void;
}

/** The event source mappings of one SQS emulator's queues. */
export class QueuePollers {
  private readonly mappings: Mapping[] = [];
  private closed = false;

  constructor(private readonly queues: SqsEmulator) {}

  /** Delivers the queue's messages to a handler, as Lambda's event source mapping does. */
  subscribe(queueName: string, subscription: QueueSubscription): void {
    const mapping: Mapping = {
      queueName,
      subscription: { batchSize: 10, maxConcurrency: 4, timeoutSeconds: 60, ...subscription },
      running: new Set(),
      pumpQueued: false,
      stopListening: () => undefined,
    };
    mapping.stopListening = this.queues.onChange(queueName, () => this.schedulePump(mapping));
    this.mappings.push(mapping);
    this.schedulePump(mapping);
  }

  /** Resolves once no batch is running and no message is ready to deliver (messages waiting out a visibility timeout may remain). */
  async idle(): Promise<void> {
    for (;;) {
      const running = this.mappings.flatMap((m) => [...m.running]);
      if (running.length) {
        await Promise.allSettled(running);
        continue;
      }
      const now = Date.now();
      if (!this.mappings.some((m) => this.queues.hasReceivable(m.queueName, now))) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Stops every mapping and waits for the batches it is running (before the emulator closes). */
  async close(): Promise<void> {
    this.closed = true;
    for (const mapping of this.mappings) {
      clearTimeout(mapping.wake);
      mapping.stopListening();
    }
    await Promise.allSettled(this.mappings.flatMap((m) => [...m.running]));
  }

  /** Pumps once the current request is done, so the entries of one SendMessageBatch can share a batch. */
  private schedulePump(mapping: Mapping): void {
    if (mapping.pumpQueued) return;
    mapping.pumpQueued = true;
    setImmediate(() => {
      mapping.pumpQueued = false;
      this.pump(mapping);
    });
  }

  /** Starts batches while there is room and something to deliver, then sleeps until the next visibility ends. */
  private pump(mapping: Mapping): void {
    if (this.closed) return;
    const { subscription, queueName } = mapping;
    const now = Date.now();
    while (mapping.running.size < subscription.maxConcurrency) {
      const batch = this.queues.handOut(queueName, subscription.batchSize, now);
      if (!batch.length) break;
      const run = this.invoke(mapping, batch).finally(() => {
        mapping.running.delete(run);
        this.pump(mapping);
      });
      mapping.running.add(run);
    }
    clearTimeout(mapping.wake);
    const next = this.queues.nextVisibilityEnd(queueName, now);
    if (Number.isFinite(next)) {
      mapping.wake = setTimeout(() => this.pump(mapping), next - now + 1);
      mapping.wake.unref();
    }
  }

  private record(arn: string, message: ReceivedMessage): SQSRecord {
    return {
      messageId: message.id,
      receiptHandle: message.receipt,
      body: message.body,
      attributes: message.attributes,
      messageAttributes: {},
      md5OfBody: message.md5,
      eventSource: 'aws:sqs',
      eventSourceARN: arn,
      awsRegion: region,
    };
  }

  private async invoke({ queueName, subscription }: Mapping, batch: ReceivedMessage[]): Promise<void> {
    const arn = this.queues.arn(queueName);
    let failed: Set<string>;
    try {
      const result = await subscription.handler(
        { Records: batch.map((m) => this.record(arn, m)) },
        lambdaContext(subscription.name, subscription.timeoutSeconds * 1000),
      );
      const reported = result?.batchItemFailures ?? [];
      // Like Lambda: an identifier that is not in the batch fails the whole batch.
      failed = reported.every((f) => batch.some((m) => m.id === f.itemIdentifier))
        ? new Set(reported.map((f) => f.itemIdentifier))
        : new Set(batch.map((m) => m.id));
    } catch (error) {
      console.error(`[sqs] ${subscription.name} failed a batch of ${batch.length}`, error);
      failed = new Set(batch.map((m) => m.id));
    }
    // Delete what succeeded, unless it was received again meanwhile (its visibility ran out).
    for (const message of batch) if (!failed.has(message.id)) this.queues.deleteReceived(queueName, message.receipt);
  }
}
