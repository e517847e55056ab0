import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { routerBatchSize, routerFilters, routerTimeoutSeconds, type StreamConsumerDef, streamRouters } from '#functions/streams/consumers.ts';
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
  /** Environment every router gets. */
  readonly environment: Record<string, string>;
  /** Retries of a failing batch (bisected each time) before it goes to the router's DLQ. @default 5 */
  readonly retryAttempts?: number;
}

/** A router's function description (`streams/<router>-router`), as the tests and the dashboard name it. */
export const routerDescription = (router: string) => `streams/${router}-router`;

/**
 * The table stream's readers: one function per router of `streamRouters` (functions/streams/router.ts
 * with `STREAM_ROUTER`), so no more than two event source mappings read a shard, as DynamoDB Streams
 * asks (ADR-0192). Each mapping reads in order (parallelization
 * factor 1, so changes to one item arrive in order), from LATEST, only records some consumer of its
 * router asks for (a superset of their filters; the router applies each consumer's own), reporting
 * the earliest record a consumer failed (`ReportBatchItemFailures`), bisecting and retrying from
 * there, and sending records that still fail to the router's own SQS dead-letter queue.
 */
export class StreamConsumers extends Construct {
  /** Per consumer name, the function that runs it: its router's. */
  readonly functions = new Map<string, NodeFunction>();
  /** One function per router, keyed by router name. */
  readonly routers = new Map<string, NodeFunction>();
  /** One dead-letter queue per router, keyed by router name. */
  readonly deadLetterQueues = new Map<string, sqs.Queue>();

  constructor(scope: Construct, id: string, props: StreamConsumersProps) {
    super(scope, id);

    const names = props.consumers.map((c) => c.name);
    const duplicate = names.find((name, i) => names.indexOf(name) !== i);
    if (duplicate) throw new Error(`Stream consumer "${duplicate}" is listed twice`);

    // The routers' bundles carry the consumers' modules (their `load`): each must exist.
    const entryOf = (handler: string) => join(props.handlersDir, `${handler}.ts`);
    requireEntries(this, [entryOf('router'), ...props.consumers.map((c) => entryOf(c.handler))], 'consumers.ts');

    for (const router of streamRouters) {
      const consumers = props.consumers.filter((c) => c.router === router.name);
      if (!consumers.length) continue;
      const constructId = handlerConstructId(`${router.name}-router`);
      const fn = new NodeFunction(this, `${constructId}Fn`, {
        entry: entryOf('router'),
        projectRoot: props.projectRoot,
        description: routerDescription(router.name),
        environment: { ...props.environment, STREAM_ROUTER: router.name },
        timeout: Duration.seconds(routerTimeoutSeconds(consumers)),
      });

      // Failure records (shard, sequence numbers, not the data) of batches that exhausted their
      // retries; the table still holds the items, so they can be replayed from there. The router's
      // log names the consumer that failed.
      const dlq = new sqs.Queue(this, `${constructId}Dlq`, {
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });

      const filters = routerFilters(consumers);
      fn.addEventSource(
        new DynamoEventSource(props.table, {
          startingPosition: lambda.StartingPosition.LATEST,
          batchSize: routerBatchSize(consumers),
          maxBatchingWindow: Duration.seconds(0),
          parallelizationFactor: 1,
          bisectBatchOnError: true,
          reportBatchItemFailures: true,
          retryAttempts: props.retryAttempts ?? 5,
          onFailure: new SqsDlq(dlq),
          ...(filters ? { filters: filters.map((pattern) => lambda.FilterCriteria.filter(pattern)) } : {}),
        }),
      );

      this.routers.set(router.name, fn);
      this.deadLetterQueues.set(router.name, dlq);
      for (const consumer of consumers) this.functions.set(consumer.name, fn);
    }
  }
}
