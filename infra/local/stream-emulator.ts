/**
 * Delivers DynamoDB Streams records to stream handlers as Lambda's event source mapping does:
 * only the records that pass the consumer's filters, in commit order, in batches, one batch at a
 * time per consumer, retrying a failed batch.
 */
import type { DynamoDBStreamEvent, DynamoDBStreamHandler } from 'aws-lambda';
import type { EventPattern } from '../../functions/streams/consumers.ts';
import type { StreamRecord } from './dynamo-front.ts';
import { passesFilters } from './event-filter.ts';
import { lambdaContext } from './lambda-context.ts';

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

  subscribe(consumer: StreamConsumer): void {
    this.consumers.push(consumer);
    this.queues.set(consumer.name, []);
  }

  push(record: StreamRecord): void {
    for (const consumer of this.consumers) {
      if (!passesFilters(consumer.filters, record)) continue;
      this.queues.get(consumer.name)!.push(record);
      if (!this.running.has(consumer.name)) {
        const run = this.drain(consumer).finally(() => this.running.delete(consumer.name));
        this.running.set(consumer.name, run);
      }
    }
  }

  /** Resolves once every queued record has been handled. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all(this.running.values());
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
    }
  }
}
