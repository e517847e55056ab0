/**
 * Logs, metrics and traces of the functions: one Powertools Logger, Metrics and Tracer per process,
 * and the middy middlewares every handler runs through (`observability()`, used by `api()` for the
 * HTTP routes and webhooks, and by `observed()` for the WebSocket, stream and queue handlers).
 *
 * - Logs are JSON lines with the Lambda request id (`function_request_id`), API Gateway's request id
 *   (`correlation_id`, for HTTP and WebSocket events) and, once a handler has authenticated the
 *   caller, `accountId` and `userId` (`appendKeys`). Those keys are removed after every invocation
 *   (`resetKeys`), so a warm function never logs one tenant's ids on another's request. Events are
 *   never logged (they carry tokens and message text).
 * - Metrics go out as CloudWatch embedded metric format, published once per invocation, under the
 *   namespace `POWERTOOLS_METRICS_NAMESPACE` with the default dimension `service`. Dimensions stay
 *   low-cardinality: a channel type or a reason, never an account or user id.
 * - Traces: the handler's subsegment (X-Ray active tracing is on in the stack) and every AWS SDK
 *   client made through `traced()`. Responses are not attached to traces (they carry tokens and
 *   message text). Outside Lambda (the local runtime, tests, the channel worker on Fargate) the
 *   tracer is a no-op.
 *
 * The service name and namespace come from the environment (set by the stack), with defaults so
 * the local runtime and tests log the same shape.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { search } from '@aws-lambda-powertools/logger/correlationId';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';

export const defaultServiceName = 'conversa';
export const defaultMetricsNamespace = 'Conversa';

const serviceName = process.env.POWERTOOLS_SERVICE_NAME || defaultServiceName;

export const logger = new Logger({ serviceName, correlationIdSearchFn: search });

/**
 * Powertools warns on every invocation that publishes no metric, which is most of them (a route
 * that only reads); that warning is demoted to debug, every other one stays a warning.
 */
type GenericLogger = NonNullable<NonNullable<ConstructorParameters<typeof Metrics>[0]>['logger']>;
const metricsLog: GenericLogger = {
  trace: (...args) => logger.trace(...(args as [string])),
  debug: (...args) => logger.debug(...(args as [string])),
  info: (...args) => logger.info(...(args as [string])),
  error: (...args) => logger.error(...(args as [string])),
  warn: (message: unknown, ...rest: unknown[]) =>
    String(message).startsWith('No application metrics to publish') ? logger.debug(String(message)) : logger.warn(String(message), ...(rest as [])),
};

export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || defaultMetricsNamespace,
  serviceName,
  logger: metricsLog,
});

/**
 * Powertools turns tracing on wherever AWS_EXECUTION_ENV is set, which includes Fargate; the channel
 * worker shares these modules (its ports) but has no X-Ray daemon, so tracing is for Lambda only.
 */
export const tracer = new Tracer({ serviceName, enabled: process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined });

/** An AWS SDK v3 client whose calls become trace subsegments (the client itself outside Lambda). */
export function traced<T>(client: T): T {
  return tracer.captureAWSv3Client(client);
}

/** The business metrics the functions publish. */
export type BusinessMetric = 'MessagesSent' | 'MessagesFailed' | 'InboundMessages' | 'WebhookRejected' | 'CloudQualityRed';

/**
 * Counts one event of `name` under one low-cardinality dimension (a channel type, a webhook
 * source). Each count is its own EMF line, since one batch may hold several channels and
 * dimensions apply to a whole line.
 */
export function count(name: BusinessMetric, dimension: { channel: string } | { source: string }): void {
  const single = metrics.singleMetric();
  const [key, value] = Object.entries(dimension)[0]!;
  single.addDimension(key, value);
  single.addMetric(name, MetricUnit.Count, 1);
}

/** The tenant a request acts for, added to every log line until the invocation ends. */
export function logTenant(ids: { accountId?: string | null; userId?: string }): void {
  logger.appendKeys({ ...(ids.accountId ? { accountId: ids.accountId } : {}), ...(ids.userId ? { userId: ids.userId } : {}) });
}

/**
 * The observability middlewares, outermost first: the trace segment, the logger's context and
 * correlation id (API Gateway's `requestContext.requestId`, absent on stream and queue events),
 * and the metrics flush. Keys appended during the invocation are reset after it, also on errors.
 */
export function observability<E, R>(): MiddlewareObj<E, R>[] {
  return [
    captureLambdaHandler(tracer, { captureResponse: false }) as MiddlewareObj<E, R>,
    injectLambdaContext(logger, { resetKeys: true, correlationIdPath: 'requestContext.requestId' }) as MiddlewareObj<E, R>,
    logMetrics(metrics) as MiddlewareObj<E, R>,
  ];
}

/** A plain handler (WebSocket, stream, queue) wrapped in the observability middlewares. */
export function observed<E, R>(handler: (event: E, context: Context) => Promise<R>) {
  return middy<E, R>().use(observability<E, R>()).handler(handler);
}
