/**
 * Delivers DynamoDB Streams records to stream handlers as Lambda's event source mapping does:
 * only the records that pass the reader's filters, in commit order, in batches, one batch at a
 * time per reader, retrying a failed batch, or with a partial batch response (`batchItemFailures`,
 * as `ReportBatchItemFailures` reads it) the records from the earliest reported one on.
 *
 * Like DynamoDB Streams, it takes at most two readers: AWS throttles more than two processes
 * reading one shard, so a third subscription is refused here rather than working only on this
 * machine. The product's consumers reach it through two routers (functions/streams/stream-router.ts).
 *
 * With a checkpoints folder (the local runtime's), each consumer's progress is stored after every
 * batch, and `resume` hands each consumer the records of the stream log (infra/local/emulators/change-log.ts)
 * it had not handled when the process died: at least once, like Lambda after a crash, so consumers
 * are idempotent.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent, DynamoDBStreamHandler } from 'aws-lambda';
import type { EventPattern } from '../../../functions/streams/consumers.ts';
import type { StreamRecord } from './dynamo-front.ts';
import { type Checkpoints, readCheckpoints, sequenceOf, writeCheckpoints } from './change-log.ts';
import { passesFilters } from './event-filter.ts';
import { lambdaContext } from '../runtime/lambda-context.ts';

/** How long handled batches' checkpoints may wait to be stored together. */
const saveEveryMs = 200;

/** DynamoDB Streams: "no more than two processes should be reading from the same stream shard at the same time". */
export const maxReadersPerShard = 2;

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
  /**
   * Readers whose work this one took over (the consumers that read the stream themselves before
   * the routers): without a checkpoint of its own, it starts at the earliest of theirs, so records
   * they had not handled when the last process stopped are not lost.
   */
  formerNames?: readonly string[];
}

export class StreamEmulator {
  private queues = new Map<string, StreamRecord[]>();
  private running = new Map<string, Promise<void>>();
  private consumers: StreamConsumer[] = [];
  /** Per consumer: every record up to this sequence number is handled (or not its business). */
  private checkpoints: Checkpoints = {};
  /** The highest sequence number pushed so far. */
  private seen = 0;
  private saveTimer?: NodeJS.Timeout;

  /** `checkpointsDir`: where consumers' progress is kept across restarts (none: in memory only). */
  constructor(private readonly checkpointsDir?: string) {}

  subscribe(consumer: StreamConsumer): void {
    if (this.consumers.length >= maxReadersPerShard) {
      throw new Error(
        `Stream reader "${consumer.name}" refused: DynamoDB Streams throttles more than ${maxReadersPerShard} readers of a shard (already: ${this.consumers.map((c) => c.name).join(', ')}); add a consumer to a router instead`,
      );
    }
    this.consumers.push(consumer);
    this.queues.set(consumer.name, []);
  }

  /**
   * After a restart, once every consumer is subscribed: each consumer gets the records past its
   * stored checkpoint; one without a checkpoint (new) starts after `lastSequence`.
   */
  resume(records: readonly StreamRecord[], lastSequence: number): void {
    const stored = this.checkpointsDir ? readCheckpoints(this.checkpointsDir) : {};
    for (const consumer of this.consumers) {
      const former = (consumer.formerNames ?? []).map((name) => stored[name]).filter((n) => n !== undefined);
      this.checkpoints[consumer.name] = stored[consumer.name] ?? (former.length ? Math.min(...former) : lastSequence);
    }
    this.seen = Math.max(this.seen, lastSequence);
    this.save();
    for (const record of records) {
      for (const consumer of this.consumers) if (sequenceOf(record) > this.checkpoints[consumer.name]!) this.pushTo(consumer, record);
    }
  }

  push(record: StreamRecord): void {
    for (const consumer of this.consumers) this.pushTo(consumer, record);
  }

  private pushTo(consumer: StreamConsumer, record: StreamRecord): void {
    const sequence = sequenceOf(record);
    this.seen = Math.max(this.seen, sequence);
    if (!passesFilters(typeof consumer.filters === 'function' ? consumer.filters() : consumer.filters, record)) {
      // Nothing of this consumer's is waiting: it has handled everything up to here.
      if (!this.running.has(consumer.name)) this.checkpoints[consumer.name] = Math.max(this.checkpoints[consumer.name] ?? 0, sequence);
      return;
    }
    this.queues.get(consumer.name)!.push(record);
    if (!this.running.has(consumer.name)) {
      const run = this.drain(consumer).finally(() => this.running.delete(consumer.name));
      this.running.set(consumer.name, run);
    }
  }

  /** Resolves once every queued record has been handled and the checkpoints are stored. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all(this.running.values());
    this.flush();
  }

  private async drain(consumer: StreamConsumer): Promise<void> {
    const queue = this.queues.get(consumer.name)!;
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
      this.checkpoints[consumer.name] = queue.length ? sequenceOf(batch.at(-1)!) : this.seen;
      this.saveSoon();
    }
  }

  private save(): void {
    if (this.checkpointsDir) writeCheckpoints(this.checkpointsDir, this.checkpoints);
  }

  /**
   * Stores the checkpoints within `saveEveryMs`, once for every batch handled meanwhile: a file
   * write and a rename per batch of every consumer held the main thread under load. A killed
   * process hands the records of that last moment again (at least once, which consumers allow).
   */
  private saveSoon(): void {
    if (!this.checkpointsDir || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.flush(), saveEveryMs);
  }

  private flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.save();
  }
}
