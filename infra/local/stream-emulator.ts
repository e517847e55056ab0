/**
 * Delivers DynamoDB Streams records to stream handlers as Lambda's event source mapping does:
 * only the records that pass the consumer's filters, in commit order, in batches, one batch at a
 * time per consumer, retrying a failed batch.
 *
 * With a checkpoints folder (the local runtime's), each consumer's progress is stored after every
 * batch, and `resume` hands each consumer the records of the stream log (infra/local/change-log.ts)
 * it had not handled when the process died: at least once, like Lambda after a crash, so consumers
 * are idempotent.
 */
import type { DynamoDBStreamEvent, DynamoDBStreamHandler } from 'aws-lambda';
import type { EventPattern } from '../../functions/streams/consumers.ts';
import type { StreamRecord } from './dynamo-front.ts';
import { type Checkpoints, readCheckpoints, sequenceOf, writeCheckpoints } from './change-log.ts';
import { passesFilters } from './event-filter.ts';
import { lambdaContext } from './lambda-context.ts';

/** How long handled batches' checkpoints may wait to be stored together. */
const saveEveryMs = 200;

export interface StreamConsumer {
  name: string;
  handler: DynamoDBStreamHandler | ((event: DynamoDBStreamEvent) => Promise<unknown>);
  batchSize?: number;
  maxRetries?: number;
  /** Lambda event filter patterns; a record that matches none never reaches the handler. */
  filters?: readonly EventPattern[];
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
    this.consumers.push(consumer);
    this.queues.set(consumer.name, []);
  }

  /**
   * After a restart, once every consumer is subscribed: each consumer gets the records past its
   * stored checkpoint; one without a checkpoint (new) starts after `lastSequence`.
   */
  resume(records: readonly StreamRecord[], lastSequence: number): void {
    const stored = this.checkpointsDir ? readCheckpoints(this.checkpointsDir) : {};
    for (const consumer of this.consumers) this.checkpoints[consumer.name] = stored[consumer.name] ?? lastSequence;
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
    if (!passesFilters(consumer.filters, record)) {
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
      const batch = queue.splice(0, consumer.batchSize ?? 100);
      const event = { Records: batch } as unknown as DynamoDBStreamEvent;
      const attempts = (consumer.maxRetries ?? 3) + 1;
      for (let attempt = 1; attempt <= attempts; attempt++) {
        try {
          await (consumer.handler as (e: DynamoDBStreamEvent, c: unknown) => Promise<unknown>)(event, lambdaContext(consumer.name));
          break;
        } catch (error) {
          if (attempt === attempts) {
            console.error(`[streams] ${consumer.name} dropped a batch of ${batch.length} after ${attempts} attempts`, error);
          } else {
            await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
          }
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
