/**
 * Lambda's DynamoDB Streams event source mapping on this machine: reads the stream emulator's shard
 * (infra/local/emulators/stream-emulator.ts) and calls stream handlers as Lambda does: only the
 * records that pass the mapping's filters, in commit order, in batches, one batch at a time per
 * mapping, retrying a failed batch, or with a partial batch response (`batchItemFailures`, as
 * `ReportBatchItemFailures` reads it) the records from the earliest reported one on. Each mapping
 * reports its progress to the stream, which keeps it across restarts.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent, DynamoDBStreamHandler } from 'aws-lambda';
import type { EventPattern } from '#functions/streams/consumers.ts';
import { sequenceOf } from '../emulators/change-log.ts';
import type { StreamRecord } from '../emulators/dynamo-front.ts';
import type { StreamEmulator, StreamReader } from '../emulators/stream-emulator.ts';
import { lambdaContext } from '../runtime/lambda-context.ts';
import { passesFilters } from './event-filter.ts';

export interface StreamConsumer {
  name: string;
  handler: DynamoDBStreamHandler | ((event: DynamoDBStreamEvent) => Promise<unknown>);
  batchSize?: number;
  maxRetries?: number;
  /**
   * Lambda event filter patterns; a record that matches none never reaches the handler. A function
   * is asked at every record (a router's, which follow the consumers attached to it).
   */
  filters?: readonly EventPattern[] | (() => readonly EventPattern[] | undefined);
  /** The function's timeout, as its context tells it. @default 30 */
  timeoutSeconds?: number;
  /** Readers whose work this one took over (stream-emulator.ts, `StreamReader.formerNames`). */
  formerNames?: readonly string[];
}

/** One mapping: a reader of the shard that invokes `consumer`. */
class StreamPoller implements StreamReader {
  readonly name: string;
  readonly formerNames?: readonly string[];
  private readonly queue: StreamRecord[] = [];
  running?: Promise<void>;

  constructor(
    private readonly stream: StreamEmulator,
    private readonly consumer: StreamConsumer,
  ) {
    this.name = consumer.name;
    this.formerNames = consumer.formerNames;
  }

  deliver(record: StreamRecord): void {
    const { filters } = this.consumer;
    if (!passesFilters(typeof filters === 'function' ? filters() : filters, record)) {
      // Nothing of this mapping's is waiting: it has handled everything up to here.
      if (!this.running) this.stream.passed(this.name, sequenceOf(record));
      return;
    }
    this.queue.push(record);
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
  }

  private async drain(): Promise<void> {
    const { consumer, queue } = this;
    await Promise.resolve();
    while (queue.length) {
      let batch = queue.splice(0, consumer.batchSize ?? 100);
      const attempts = (consumer.maxRetries ?? 3) + 1;
      for (let attempt = 1; attempt <= attempts; attempt++) {
        let failedAt = -1;
        let error: unknown;
        try {
          const event = { Records: batch } as unknown as DynamoDBStreamEvent;
          const answer = (await (consumer.handler as (e: DynamoDBStreamEvent, c: unknown) => Promise<unknown>)(
            event,
            lambdaContext(consumer.name, (consumer.timeoutSeconds ?? 30) * 1000),
          )) as Partial<DynamoDBBatchResponse> | undefined;
          // ReportBatchItemFailures: the earliest reported record is the checkpoint; one not in the batch fails it all.
          const reported = (answer?.batchItemFailures ?? []).map((f) => batch.findIndex((r) => r.dynamodb?.SequenceNumber === f.itemIdentifier));
          if (reported.length) failedAt = reported.some((i) => i < 0) ? 0 : Math.min(...reported);
        } catch (thrown) {
          failedAt = 0;
          error = thrown;
        }
        if (failedAt < 0) break;
        // Retried from the failed record on; what came before it is handled.
        batch = batch.slice(failedAt);
        if (attempt === attempts) {
          console.error(`[streams] ${consumer.name} dropped ${batch.length} record(s) after ${attempts} attempts`, error ?? 'reported batch item failures');
        } else {
          await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
        }
      }
      this.stream.handled(this.name, queue.length ? sequenceOf(batch.at(-1)!) : this.stream.lastSequence());
    }
  }
}

/** The event source mappings of one stream. */
export class StreamPollers {
  private readonly pollers: StreamPoller[] = [];

  constructor(private readonly stream: StreamEmulator) {}

  /** Invokes `consumer` with the stream's records, as a mapping does (the stream refuses a third reader). */
  subscribe(consumer: StreamConsumer): void {
    const poller = new StreamPoller(this.stream, consumer);
    this.stream.attach(poller);
    this.pollers.push(poller);
  }

  /** Resolves once every delivered record has been handled and the checkpoints are stored. */
  async idle(): Promise<void> {
    for (;;) {
      const running = this.pollers.flatMap((p) => (p.running ? [p.running] : []));
      if (!running.length) break;
      await Promise.all(running);
    }
    this.stream.flush();
  }
}
