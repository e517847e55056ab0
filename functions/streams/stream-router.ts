/**
 * One reader of the table stream for several consumers (ADR-0192). DynamoDB Streams allows no more than two readers of a shard at a time, so each event
 * source mapping invokes a router, and the router does for each of its consumers what a mapping of
 * its own did: only the records the consumer's filters let through (the same matcher as Lambda's
 * filters, event-filter.ts), in stream order, in the consumer's batch size, one call after another.
 * Consumers run side by side, so one consumer's slow call holds up only itself within a batch.
 *
 * Partial failures (the mapping has `ReportBatchItemFailures`): a consumer whose call fails (it
 * throws, or reports its own `batchItemFailures`) gets nothing more of this batch, so it never sees
 * a record before an earlier one it failed; the others go on to the end. The router answers the
 * earliest record any consumer failed, and Lambda retries from there (bisecting, up to the
 * mapping's retries, then the router's dead-letter queue). On that retry, a consumer that had already
 * handled some of the records is not called for them again: the router remembers, per failed
 * record, which records each consumer handled. That memory is the container's own; a retry that
 * lands in another container (or after a cold start) hands them again, which every consumer takes
 * (they are idempotent, see the decisions). Delivery is at least once per consumer, as it was with
 * one mapping each.
 *
 * The same code runs in Lambda (router.ts) and in the local runtime, which only loads the consumers'
 * handlers its own way.
 */
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { EventPattern, StreamHandler } from './consumers.ts';
import { passesFilters } from './event-filter.ts';

/** A consumer as a router runs it. */
export interface RoutedConsumer {
  name: string;
  batchSize: number;
  filters?: readonly EventPattern[];
  /** The longest one call may take: no call starts with less time than this left. @default 30 */
  timeoutSeconds?: number;
  /** Its handler, loaded at the router's first batch for it. */
  handler: () => Promise<StreamHandler>;
}

/** What the router reports about one consumer's call that failed (for logs and a metric). */
export interface ConsumerFailure {
  consumer: string;
  /** Sequence number of the first record the consumer did not handle. */
  sequenceNumber: string;
  records: number;
  error: unknown;
}

export interface StreamRouterOptions {
  /** Told of every failed call (the cloud logs it and counts `StreamConsumerFailures` by consumer). */
  onFailure?: (failure: ConsumerFailure) => void;
  /** Records past a failure whose consumers are remembered for the retry. @default 10000 */
  remembered?: number;
}

type Outcome = { failedAt?: number };

const sequenceOf = (record: DynamoDBRecord) => record.dynamodb?.SequenceNumber ?? '';
const idOf = (record: DynamoDBRecord) => record.eventID ?? sequenceOf(record);

export class StreamRouter {
  private readonly consumers: RoutedConsumer[] = [];
  private readonly handlers = new Map<string, Promise<StreamHandler>>();
  /**
   * Records from a reported failure on (by event id): the consumers that had handled them. Lambda
   * retries from the failed record (bisected or not), so these come again, and those consumers
   * are not called for them a second time.
   */
  private readonly handledBy = new Map<string, Set<string>>();

  constructor(
    readonly name: string,
    consumers: readonly RoutedConsumer[],
    private readonly options: StreamRouterOptions = {},
  ) {
    for (const consumer of consumers) this.add(consumer);
  }

  /** Adds a consumer (the local runtime's tests attach theirs this way). */
  add(consumer: RoutedConsumer): void {
    if (this.consumers.some((c) => c.name === consumer.name)) throw new Error(`Stream consumer "${consumer.name}" is routed twice`);
    this.consumers.push(consumer);
  }

  /** The consumers it calls, in order (their filters make its mapping's, `routerFilters`). */
  get routed(): readonly RoutedConsumer[] {
    return this.consumers;
  }

  /** Loads every consumer's handler now rather than at its first batch (the local runtime's start). */
  async preload(): Promise<void> {
    await Promise.all(this.consumers.map((c) => this.handlerOf(c)));
  }

  /** The Lambda handler's work: every consumer's share of the batch, then the earliest failure. */
  async handle(event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> {
    const records = event.Records;
    if (!records.length) return { batchItemFailures: [] };
    const done = new Map(this.consumers.map((c) => [c.name, new Set<string>()]));
    const outcomes = await Promise.all(this.consumers.map((consumer) => this.run(consumer, records, done.get(consumer.name)!, context)));
    const failedAt = Math.min(records.length, ...outcomes.map((o) => o.failedAt ?? records.length));
    // Records before the failure are checkpointed by Lambda: never delivered again.
    for (const record of records.slice(0, failedAt)) this.handledBy.delete(idOf(record));
    if (failedAt === records.length) return { batchItemFailures: [] };
    for (const record of records.slice(failedAt)) {
      const by = new Set([...done].filter(([, ids]) => ids.has(idOf(record))).map(([name]) => name));
      this.handledBy.delete(idOf(record));
      if (by.size) this.handledBy.set(idOf(record), by);
    }
    const limit = this.options.remembered ?? 10_000;
    for (const key of this.handledBy.keys()) {
      if (this.handledBy.size <= limit) break;
      this.handledBy.delete(key);
    }
    return { batchItemFailures: [{ itemIdentifier: sequenceOf(records[failedAt]!) }] };
  }

  /** One consumer's share, call after call; the index of the first record it did not handle, if any. */
  private async run(consumer: RoutedConsumer, records: readonly DynamoDBRecord[], done: Set<string>, context: Context): Promise<Outcome> {
    const mine: number[] = [];
    records.forEach((record, i) => {
      // Handled before a failure of another consumer (this container remembers it), or not
      // asked for: done as far as this consumer is concerned.
      if (this.handledBy.get(idOf(record))?.has(consumer.name) || !passesFilters(consumer.filters, record)) done.add(idOf(record));
      else mine.push(i);
    });
    for (let start = 0; start < mine.length; start += consumer.batchSize) {
      const chunk = mine.slice(start, start + consumer.batchSize);
      const batch = chunk.map((i) => records[i]!);
      // Not enough time left for a whole call: the rest waits for the retry from here.
      if (context.getRemainingTimeInMillis() < (consumer.timeoutSeconds ?? 30) * 1000) {
        const error = new Error(`${context.getRemainingTimeInMillis()} ms left, less than a call of ${consumer.name} may take`);
        this.options.onFailure?.({ consumer: consumer.name, sequenceNumber: sequenceOf(batch[0]!), records: mine.length - start, error });
        return { failedAt: chunk[0]! };
      }
      let failedAt: number | undefined;
      let error: unknown;
      try {
        const handler = await this.handlerOf(consumer);
        const answer = (await handler({ Records: batch }, context)) as Partial<DynamoDBBatchResponse> | undefined;
        const reported = answer?.batchItemFailures?.map((f) => batch.findIndex((r) => sequenceOf(r) === f.itemIdentifier)) ?? [];
        // A reported record we cannot find fails the whole call, as Lambda treats it.
        if (reported.length) failedAt = reported.some((i) => i < 0) ? 0 : Math.min(...reported);
        if (failedAt !== undefined) error = new Error('reported batch item failures');
      } catch (thrown) {
        failedAt = 0;
        error = thrown;
      }
      if (failedAt !== undefined) {
        for (const record of batch.slice(0, failedAt)) done.add(idOf(record));
        this.options.onFailure?.({ consumer: consumer.name, sequenceNumber: sequenceOf(batch[failedAt]!), records: batch.length - failedAt, error });
        return { failedAt: chunk[failedAt]! };
      }
      for (const record of batch) done.add(idOf(record));
    }
    return {};
  }

  private handlerOf(consumer: RoutedConsumer): Promise<StreamHandler> {
    let handler = this.handlers.get(consumer.name);
    if (!handler) {
      handler = consumer.handler();
      // A module that failed to load is tried again at the retry.
      handler.catch(() => this.handlers.delete(consumer.name));
      this.handlers.set(consumer.name, handler);
    }
    return handler;
  }
}
