/**
 * The table stream's two readers in Lambda: one function per router of `streamRouters`
 * (`STREAM_ROUTER` names it), each calling its consumers (consumers.ts) as stream-router.ts
 * describes. A failed call is logged with the consumer's name and counted as
 * `StreamConsumerFailures` by consumer (the dashboard's graph) and by router (its alarm,
 * infra/constructs/operations.ts, ADR-0230).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger, metrics, observed } from '#lib/observability.ts';
import { consumersOf, type StreamConsumerDef, type StreamHandler, type StreamRouterName, streamRouters } from './consumers.ts';
import { type ConsumerFailure, StreamRouter } from './stream-router.ts';

/** The metric a failed consumer call counts, under dimension `consumer`. */
export const consumerFailureMetric = 'StreamConsumerFailures';

/**
 * Logs a failed consumer call and counts it twice (never by tenant): by consumer, which the
 * dashboard graphs, and by router, which the alarm reads (ADR-0230: an alarm is billed per metric).
 */
export function reportConsumerFailure(failure: ConsumerFailure, router: StreamRouterName): void {
  logger.error(`Stream consumer ${failure.consumer} failed at ${failure.sequenceNumber}`, {
    streamConsumer: failure.consumer,
    streamRouter: router,
    sequenceNumber: failure.sequenceNumber,
    records: failure.records,
    error: failure.error as Error,
  });
  for (const [dimension, value] of [
    ['consumer', failure.consumer],
    ['router', router],
  ] as const) {
    const single = metrics.singleMetric();
    single.addDimension(dimension, value);
    single.addMetric(consumerFailureMetric, MetricUnit.Count, 1);
  }
}

/** A router over the consumers of `name`, each loaded by `load` (Lambda: the consumer's own `load`). */
export function streamRouter(
  name: StreamRouterName,
  load: (consumer: StreamConsumerDef) => Promise<{ handler: StreamHandler }>,
  onFailure: (failure: ConsumerFailure) => void = (failure) => reportConsumerFailure(failure, name),
): StreamRouter {
  const consumers = consumersOf(name).map((consumer) => ({
    name: consumer.name,
    batchSize: consumer.batchSize,
    filters: consumer.filters,
    timeoutSeconds: consumer.timeoutSeconds,
    handler: async () => (await load(consumer)).handler,
  }));
  return new StreamRouter(name, consumers, { onFailure });
}

const routerName = process.env.STREAM_ROUTER as StreamRouterName | undefined;
const router =
  routerName && streamRouters.some((r) => r.name === routerName)
    ? streamRouter(routerName, (consumer) => {
        if (!consumer.load) throw new Error(`Stream consumer ${consumer.name} has no module to load`);
        return consumer.load();
      })
    : undefined;

export const handler = observed(async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
  if (!router) throw new Error(`STREAM_ROUTER must name one of ${streamRouters.map((r) => r.name).join(', ')}`);
  return router.handle(event, context);
});
