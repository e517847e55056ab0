import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StreamConsumerDef } from '#functions/streams/consumers.ts';
import { handlerConstructId } from './http-api.ts';
import { NodeFunction, requireEntries } from './node-function.ts';

export interface StreamConsumersProps {
  /** The consumer list (`streamConsumers`). */
  readonly consumers: readonly StreamConsumerDef[];
  /** The table whose stream they read; its stream must be enabled. */
  readonly table: dynamodb.ITable;
  /** Absolute path of `functions/streams`. */
  readonly handlersDir: string;
  /** Repository root, for bundling. */
  readonly projectRoot: string;
  /** Environment every consumer gets. */
  readonly environment: Record<string, string>;
  /** Retries of a failing batch (halved each time by bisection) before it goes to the DLQ. @default 5 */
  readonly retryAttempts?: number;
  /**
   * @default 30 seconds (no consumer waits for a channel: sends go through the send queue); a
   * consumer's own `timeoutSeconds` wins
   */
  readonly timeout?: Duration;
}

/**
 * One function per entry of the consumer list, each reading the table stream in order
 * (parallelization factor 1, so changes to one item arrive in order), from LATEST, only the records
 * its filters let through, splitting a failing batch in two to isolate the bad record, and sending
 * records that still fail to its own SQS dead-letter queue.
 */
export class StreamConsumers extends Construct {
  /** One function per consumer, keyed by consumer name. */
  readonly functions = new Map<string, NodeFunction>();
  /** One dead-letter queue per consumer, keyed by consumer name. */
  readonly deadLetterQueues = new Map<string, sqs.Queue>();

  constructor(scope: Construct, id: string, props: StreamConsumersProps) {
    super(scope, id);

    const names = props.consumers.map((c) => c.name);
    const duplicate = names.find((name, i) => names.indexOf(name) !== i);
    if (duplicate) throw new Error(`Stream consumer "${duplicate}" is listed twice`);

    const entryOf = (handler: string) => join(props.handlersDir, `${handler}.ts`);
    requireEntries(
      this,
      props.consumers.map((c) => entryOf(c.handler)),
      'consumers.ts',
    );

    for (const consumer of props.consumers) {
      const constructId = handlerConstructId(consumer.name);
      const fn = new NodeFunction(this, `${constructId}Fn`, {
        entry: entryOf(consumer.handler),
        projectRoot: props.projectRoot,
        description: `streams/${consumer.name}`,
        environment: props.environment,
        timeout: consumer.timeoutSeconds ? Duration.seconds(consumer.timeoutSeconds) : (props.timeout ?? Duration.seconds(30)),
      });

      // Failure records (shard, sequence numbers, not the data) of batches that exhausted their
      // retries; the table still holds the items, so they can be replayed from there.
      const dlq = new sqs.Queue(this, `${constructId}Dlq`, {
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });

      fn.addEventSource(
        new DynamoEventSource(props.table, {
          startingPosition: lambda.StartingPosition.LATEST,
          batchSize: consumer.batchSize,
          maxBatchingWindow: Duration.seconds(0),
          parallelizationFactor: 1,
          bisectBatchOnError: true,
          retryAttempts: props.retryAttempts ?? 5,
          onFailure: new SqsDlq(dlq),
          ...(consumer.filters ? { filters: consumer.filters.map((pattern) => lambda.FilterCriteria.filter(pattern)) } : {}),
        }),
      );

      this.functions.set(consumer.name, fn);
      this.deadLetterQueues.set(consumer.name, dlq);
    }
  }
}
