import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { visibilityTimeoutSeconds, type QueueConsumerDef } from '#functions/queues/consumers.ts';
import { handlerConstructId } from './http-api.ts';
import { NodeFunction, requireEntries } from './node-function.ts';

export interface QueueConsumersProps {
  /** The queue list (`queueConsumers`). */
  readonly consumers: readonly QueueConsumerDef[];
  /** Absolute path of `functions/queues`. */
  readonly handlersDir: string;
  /** Repository root, for bundling. */
  readonly projectRoot: string;
  /** Environment every consumer gets (each also gets its own queue's URL). */
  readonly environment: Record<string, string>;
}

/**
 * One SQS FIFO queue and one function per entry of the queue list. The queue deduplicates on the
 * ids its producers give (content-based deduplication off), in high-throughput mode (deduplication
 * and throughput per message group, since each group is one connection of one tenant), encrypted
 * with SQS-managed keys, TLS only, with a FIFO dead-letter queue after `maxReceiveCount` receives
 * and a visibility timeout six times the function's timeout. The function reads it in batches and
 * reports partial batch failures.
 */
export class QueueConsumers extends Construct {
  /** One function per consumer, keyed by consumer name. */
  readonly functions = new Map<string, NodeFunction>();
  /** One queue per consumer, keyed by consumer name. */
  readonly queues = new Map<string, sqs.Queue>();
  readonly deadLetterQueues = new Map<string, sqs.Queue>();

  constructor(scope: Construct, id: string, props: QueueConsumersProps) {
    super(scope, id);

    const entryOf = (handler: string) => join(props.handlersDir, `${handler}.ts`);
    requireEntries(
      this,
      props.consumers.map((c) => entryOf(c.handler)),
      'functions/queues/consumers.ts',
    );

    for (const consumer of props.consumers) {
      const constructId = handlerConstructId(consumer.name);
      const secured = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;

      // What kept failing; the items are still in the table (at ack 0), so a send can be replayed.
      const dlq = new sqs.Queue(this, `${constructId}Dlq`, { ...secured, fifo: true, contentBasedDeduplication: false, retentionPeriod: Duration.days(14) });
      const queue = new sqs.Queue(this, `${constructId}Queue`, {
        ...secured,
        fifo: true,
        contentBasedDeduplication: false,
        deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
        fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(consumer)),
        deadLetterQueue: { queue: dlq, maxReceiveCount: consumer.maxReceiveCount },
      });

      const fn = new NodeFunction(this, `${constructId}Fn`, {
        entry: entryOf(consumer.handler),
        projectRoot: props.projectRoot,
        description: `queues/${consumer.name}`,
        environment: { ...props.environment, [consumer.urlVariable]: queue.queueUrl },
        timeout: Duration.seconds(consumer.timeoutSeconds),
      });
      fn.addEventSource(new SqsEventSource(queue, { batchSize: consumer.batchSize, reportBatchItemFailures: true }));
      // The consumer keeps a lane waiting by changing the visibility of its failed records.
      queue.grant(fn, 'sqs:ChangeMessageVisibility');

      this.functions.set(consumer.name, fn);
      this.queues.set(consumer.name, queue);
      this.deadLetterQueues.set(consumer.name, dlq);
    }
  }
}
