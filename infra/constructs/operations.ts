import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * Every alarm's threshold and window, in one place (ADR-0098 has the
 * reasons). Periods are in seconds.
 */
export const alarmSettings = {
  /** 5xx responses of the HTTP API, as a percentage of its requests, over 5 minutes, twice in a row. */
  http5xxRate: { thresholdPercent: 5, minimumRequests: 20, period: 300, evaluationPeriods: 2 },
  /** Lambda errors (crashes, timeouts, failed batches; handled HTTP failures are responses) of a group of functions. */
  lambdaErrors: { threshold: 3, period: 300, evaluationPeriods: 1 },
  /**
   * Any throttled invocation in the account's region: throttles come from the account's concurrency,
   * which every function of ours draws on (none has reserved concurrency), so one alarm watches them all.
   */
  lambdaThrottles: { threshold: 1, period: 300, evaluationPeriods: 1 },
  /** Any message in a dead-letter queue. */
  deadLetters: { threshold: 1, period: 300, evaluationPeriods: 1 },
  /** A stream reader (router) one minute behind the table, for five minutes. */
  iteratorAge: { thresholdMs: 60_000, period: 60, evaluationPeriods: 5 },
  /** Failed calls of one stream consumer by its router (each retried from its record) in 5 minutes, like a group's Lambda errors. */
  streamConsumerFailures: { threshold: 3, period: 300, evaluationPeriods: 1 },
  /** No worker task reporting metrics (none running) for three minutes. */
  workerDown: { period: 60, evaluationPeriods: 3 },
  /** The busiest worker task above 80% CPU for 15 minutes. */
  workerCpu: { thresholdPercent: 80, period: 300, evaluationPeriods: 3 },
  /** The fullest worker task above 80% of its memory for 10 minutes (sessions are budgeted for 75%). */
  workerMemory: { thresholdPercent: 80, period: 300, evaluationPeriods: 2 },
  /** A command (a send, a pairing change) waiting in the worker queue over 5 minutes, for 5 minutes. */
  workerQueueAge: { thresholdSeconds: 300, period: 60, evaluationPeriods: 5 },
  /**
   * A command held by a worker task (waiting behind its connection's commands, or running, its
   * visibility renewed by the heartbeat) or received from a task's own queue over 5 minutes after it
   * was queued there, for 5 minutes: the tasks' own queues, as `workerQueueAge` is the shared one.
   */
  workerCommandAge: { thresholdSeconds: 300, period: 60, evaluationPeriods: 5 },
  /** Commands the worker fleet could not route (no task with room, a failed drain or hand-over): 5 or more a minute, 3 minutes running. */
  workerRouting: { threshold: 5, period: 60, evaluationPeriods: 3 },
  /** WebSocket API integration and execution errors ($connect, $disconnect, $default failing). */
  webSocketErrors: { threshold: 10, period: 300, evaluationPeriods: 1 },
  /** More than 20% of a channel's sends failed in 15 minutes (with at least 20 sends). */
  sendFailureRate: { thresholdPercent: 20, minimumSends: 20, period: 900, evaluationPeriods: 1 },
  /** Webhook deliveries of one source refused (wrong secret, not an update): a probe or a broken secret. */
  webhookRejected: { threshold: 50, period: 300, evaluationPeriods: 1 },
  /** Any WhatsApp (API oficial) number whose quality Meta lowered to red: its sends will be limited or blocked soon. */
  cloudQualityRed: { threshold: 1, period: 300, evaluationPeriods: 1 },
  /** Any WhatsApp session stopped because WhatsApp refused our WhatsApp Web version (405) or our device (409): every number is at risk. */
  whatsappClientOutdated: { threshold: 1, period: 300, evaluationPeriods: 1 },
  /** Three or more numbers banned, temporarily banned or locked by WhatsApp in an hour: something we do may be getting numbers banned. */
  whatsappBans: { threshold: 3, period: 3600, evaluationPeriods: 1 },
} as const;

/** Where the runbooks are, from the repository's root. */
export const runbookDir = 'docs/runbooks/';

/** The runbooks alarms point at (files under `runbookDir`). */
export type Runbook = 'dead-letter-replay.md' | 'stream-routers.md' | 'functions-and-apis.md' | 'taking-a-worker-out.md' | 'channel-failures.md';

/** A metric math expression takes at most 10 metrics in an alarm. */
export const maxMetricsPerAlarm = 10;

export interface OperationsProps {
  /** Where alarms are mailed (context `alarmEmail`); none: the topic has no subscription. */
  readonly alarmEmail?: string;
  readonly httpApi: apigw.IHttpApi;
  /** The WebSocket API's stage: its connects, messages and errors. */
  readonly webSocketStage: apigw.IWebSocketStage;
  /**
   * Our functions by area (`http`, `ws`, `consumers`): each area's errors are alarmed in groups of
   * up to 10 functions (metric math), not one alarm per function; their throttles are graphed by
   * group, and alarmed once for the whole account.
   */
  readonly functionGroups: ReadonlyMap<string, readonly lambda.IFunction[]>;
  /** The table stream's readers (the routers), by name: their iterator age. */
  readonly streamConsumers: ReadonlyMap<string, lambda.IFunction>;
  /**
   * The consumers the routers call, by name: their failed calls (`StreamConsumerFailures`, which
   * the routers count by dimension `consumer` and again by `router`), graphed per consumer and
   * alarmed per router (ADR-0230).
   */
  readonly streamConsumerNames?: readonly string[];
  /** Every dead-letter queue, by a readable name. */
  readonly deadLetterQueues: ReadonlyMap<string, sqs.IQueue>;
  /** The channel worker's service and queue, and the fleet's routing failures (a count a minute). */
  readonly worker?: {
    readonly service: ecs.BaseService;
    readonly queue: sqs.IQueue;
    readonly routingErrors?: cloudwatch.IMetric;
    /** The oldest command the tasks hold or received from their own queues, in seconds (`WorkerCommandAge`, Maximum a minute). */
    readonly commandAge?: cloudwatch.IMetric;
  };
  /** Where the functions' business metrics are (POWERTOOLS_METRICS_NAMESPACE). */
  readonly metricsNamespace: string;
  /** The `service` dimension of those metrics (POWERTOOLS_SERVICE_NAME). */
  readonly serviceName: string;
  /** The channels whose sends are alarmed on (their `channel` dimension). */
  readonly channels: readonly string[];
  /** The webhook sources whose refusals are alarmed on (their `source` dimension). */
  readonly webhookSources: readonly string[];
}

/** `auth/switch-account` and `send-outbound` -> `SendOutbound`: a construct id part from a name. */
const idPart = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * What operators watch: an SNS topic for alarms (KMS-encrypted, TLS only, an e-mail subscription
 * when one is given), the alarms, and one CloudWatch dashboard with the same signals. Every alarm
 * notifies the topic when it fires and when it recovers.
 */
export class Operations extends Construct {
  readonly topic: sns.Topic;
  readonly key: kms.Key;
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const stack = Stack.of(this);

    // CloudWatch cannot publish to a topic encrypted with the AWS-managed SNS key (its policy cannot
    // be changed), so the topic has its own key, which CloudWatch may use.
    this.key = new kms.Key(this, 'TopicKey', { description: 'Encrypts the Conversa alarm topic', enableKeyRotation: true });
    const cloudWatch = new iam.ServicePrincipal('cloudwatch.amazonaws.com');
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        principals: [cloudWatch],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
    this.topic = new sns.Topic(this, 'AlarmTopic', { displayName: 'Conversa alarms', masterKey: this.key, enforceSSL: true });
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        actions: ['sns:Publish'],
        principals: [cloudWatch],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    // Every alarm's description ends with the runbook an operator opens (infra/runbooks.test.ts).
    const alarm = (
      alarmId: string,
      metric: cloudwatch.IMetric,
      { runbook, alarmDescription, ...options }: Omit<cloudwatch.AlarmProps, 'metric' | 'alarmDescription'> & { alarmDescription: string; runbook: Runbook },
    ) => {
      const created = new cloudwatch.Alarm(this, alarmId, { metric, alarmDescription: `${alarmDescription}. Runbook: ${runbookDir}${runbook}`, ...options });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    // The HTTP API's 5xx rate; quiet minutes (fewer than `minimumRequests`) count as 0% so that one
    // failure among three requests at night pages nobody.
    const http = alarmSettings.http5xxRate;
    const fiveXxRate = new cloudwatch.MathExpression({
      label: 'HTTP 5xx rate (%)',
      expression: `IF(requests >= ${http.minimumRequests}, 100 * errors / requests, 0)`,
      usingMetrics: {
        errors: props.httpApi.metricServerError({ statistic: 'Sum', period: Duration.seconds(http.period) }),
        requests: props.httpApi.metricCount({ statistic: 'Sum', period: Duration.seconds(http.period) }),
      },
      period: Duration.seconds(http.period),
    });
    alarm('Http5xxRate', fiveXxRate, {
      runbook: 'functions-and-apis.md',
      alarmDescription: `More than ${http.thresholdPercent}% of the REST API's responses were 5xx (with at least ${http.minimumRequests} requests) in two 5-minute periods in a row`,
      threshold: http.thresholdPercent,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: http.evaluationPeriods,
      // No requests: nothing failed.
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    // Lambda throttles: the account's concurrency, which every function of ours shares (none has
    // reserved concurrency), is what runs out, so one alarm on the account-wide metric catches a
    // throttle of any of them, for one metric instead of one a function
    // (ADR-0202). The dashboard graphs them by group, to see whose.
    alarm('LambdaThrottles', lambda.Function.metricAllThrottles({ statistic: 'Sum', period: Duration.seconds(alarmSettings.lambdaThrottles.period) }), {
      runbook: 'functions-and-apis.md',
      alarmDescription:
        "Throttled Lambda invocations in this account and region, ours among them (the account's concurrency is exhausted; the dashboard's throttles by group show whose)",
      threshold: alarmSettings.lambdaThrottles.threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: alarmSettings.lambdaThrottles.evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    // Lambda errors, one alarm per group of up to 10 functions of an area (throttles by group on the dashboard).
    const errorGroups: cloudwatch.IMetric[] = [];
    const throttleGroups: cloudwatch.IMetric[] = [];
    for (const [area, functions] of props.functionGroups) {
      const groups = chunks(functions, maxMetricsPerAlarm);
      groups.forEach((group, index) => {
        const suffix = groups.length > 1 ? `${index + 1}` : '';
        const label = `${area}${suffix ? ` ${suffix}/${groups.length}` : ''}`;
        const key = `${area.toLowerCase().replace(/[^a-z0-9]/g, '')}${suffix}`;
        const sum = (metricName: 'Errors' | 'Throttles', period: number) =>
          new cloudwatch.MathExpression({
            label: `${metricName}: ${label}`,
            // Ids unique across groups: one dashboard graph shows every group.
            expression: `SUM([${group.map((_, i) => `${key}_${i}`).join(',')}])`,
            usingMetrics: Object.fromEntries(
              group.map((fn, i) => [`${key}_${i}`, fn.metric(metricName, { statistic: 'Sum', period: Duration.seconds(period) })] as const),
            ),
            period: Duration.seconds(period),
          });
        const names = group.map((fn) => fn.node.id.replace(/Fn$/, '')).join(', ');
        const errors = sum('Errors', alarmSettings.lambdaErrors.period);
        const throttles = sum('Throttles', alarmSettings.lambdaThrottles.period);
        errorGroups.push(errors);
        throttleGroups.push(throttles);
        alarm(`LambdaErrors${idPart(area)}${suffix}`, errors, {
          runbook: 'functions-and-apis.md',
          alarmDescription: `${alarmSettings.lambdaErrors.threshold} or more Lambda errors in 5 minutes among the ${area} functions ${names}`,
          threshold: alarmSettings.lambdaErrors.threshold,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: alarmSettings.lambdaErrors.evaluationPeriods,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        });
      });
    }

    // Dead-letter queues: anything in one is work that was given up on and waits for an operator.
    const depths: cloudwatch.IMetric[] = [];
    for (const [name, queue] of props.deadLetterQueues) {
      // Labels only on the graphs: a labelled metric makes the alarm a metric-math one.
      const depth = queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: Duration.seconds(alarmSettings.deadLetters.period) });
      depths.push(depth.with({ label: name }));
      alarm(`DeadLetters${idPart(name)}`, depth, {
        runbook: 'dead-letter-replay.md',
        alarmDescription: `The dead-letter queue of ${name} holds messages: work given up on, to read, fix and replay`,
        threshold: alarmSettings.deadLetters.threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: alarmSettings.deadLetters.evaluationPeriods,
        // SQS stops publishing for a queue idle for hours: an idle dead-letter queue is an empty one.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }

    // Stream readers falling behind the table (realtime events and sends arrive late).
    const ages: cloudwatch.IMetric[] = [];
    for (const [name, fn] of props.streamConsumers) {
      const age = fn.metric('IteratorAge', { statistic: 'Maximum', period: Duration.seconds(alarmSettings.iteratorAge.period) });
      ages.push(age.with({ label: name }));
      alarm(`IteratorAge${idPart(name)}`, age, {
        runbook: 'stream-routers.md',
        alarmDescription: `The stream reader ${name} has been more than ${alarmSettings.iteratorAge.thresholdMs / 1000} s behind the table for ${alarmSettings.iteratorAge.evaluationPeriods} minutes`,
        threshold: alarmSettings.iteratorAge.thresholdMs,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: alarmSettings.iteratorAge.evaluationPeriods,
        // Reported only when the consumer is invoked (filters let few records through): no data is no lag.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }

    // Stream consumers' failed calls (a router goes on with the others and retries the one that
    // failed). One alarm per router on the routers' count by router (ADR-0230): an alarm is billed
    // per metric it reads, and one per consumer cost a metric each; the dashboard still graphs each
    // consumer's count, and the router's log names the consumer, the record and the error.
    const consumerFailures: cloudwatch.IMetric[] = [];
    for (const name of props.streamConsumerNames ?? []) {
      consumerFailures.push(
        new cloudwatch.Metric({
          namespace: props.metricsNamespace,
          metricName: 'StreamConsumerFailures',
          dimensionsMap: { consumer: name, service: props.serviceName },
          statistic: 'Sum',
          period: Duration.seconds(alarmSettings.streamConsumerFailures.period),
          label: name,
        }),
      );
    }
    if (props.streamConsumerNames?.length) {
      for (const router of props.streamConsumers.keys()) {
        const failures = new cloudwatch.Metric({
          namespace: props.metricsNamespace,
          metricName: 'StreamConsumerFailures',
          dimensionsMap: { router, service: props.serviceName },
          statistic: 'Sum',
          period: Duration.seconds(alarmSettings.streamConsumerFailures.period),
        });
        alarm(`StreamConsumerFailures${idPart(router)}`, failures, {
          runbook: 'stream-routers.md',
          alarmDescription: `Consumers of the stream router ${router} failed ${alarmSettings.streamConsumerFailures.threshold} or more calls in ${alarmSettings.streamConsumerFailures.period / 60} minutes (the dashboard's 'Stream consumer failures' and the router's log name which consumer, the record and the error)`,
          threshold: alarmSettings.streamConsumerFailures.threshold,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: alarmSettings.streamConsumerFailures.evaluationPeriods,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        });
      }
    }

    // The channel worker. Without Container Insights, AWS/ECS publishes the service's CPU and memory
    // utilisation only while a task runs, and no running-task count: no data means no task.
    const workerWidgets: cloudwatch.IWidget[] = [];
    if (props.worker) {
      const { service, queue } = props.worker;
      const reporting = service.metricCpuUtilization({ statistic: 'SampleCount', period: Duration.seconds(alarmSettings.workerDown.period) });
      alarm('WorkerDown', reporting, {
        runbook: 'taking-a-worker-out.md',
        alarmDescription: `No channel worker task has reported for ${alarmSettings.workerDown.evaluationPeriods} minutes: WhatsApp sessions are down`,
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        evaluationPeriods: alarmSettings.workerDown.evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      });
      const cpu = service.metricCpuUtilization({ statistic: 'Maximum', period: Duration.seconds(alarmSettings.workerCpu.period) });
      alarm('WorkerCpuHigh', cpu, {
        runbook: 'taking-a-worker-out.md',
        alarmDescription: `A channel worker task has used more than ${alarmSettings.workerCpu.thresholdPercent}% of its CPU for 15 minutes`,
        threshold: alarmSettings.workerCpu.thresholdPercent,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: alarmSettings.workerCpu.evaluationPeriods,
        // No task is WorkerDown's to report.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      const memory = service.metricMemoryUtilization({ statistic: 'Maximum', period: Duration.seconds(alarmSettings.workerMemory.period) });
      alarm('WorkerMemoryHigh', memory, {
        runbook: 'taking-a-worker-out.md',
        alarmDescription: `A channel worker task has used more than ${alarmSettings.workerMemory.thresholdPercent}% of its memory for 10 minutes (sessions are budgeted for 75%)`,
        threshold: alarmSettings.workerMemory.thresholdPercent,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: alarmSettings.workerMemory.evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      const oldest = queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: Duration.seconds(alarmSettings.workerQueueAge.period) });
      alarm('WorkerQueueStuck', oldest, {
        runbook: 'taking-a-worker-out.md',
        alarmDescription: `A command has waited in the channel worker's queue for more than ${alarmSettings.workerQueueAge.thresholdSeconds / 60} minutes, for ${alarmSettings.workerQueueAge.evaluationPeriods} minutes: WhatsApp sends are not going out`,
        threshold: alarmSettings.workerQueueAge.thresholdSeconds,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: alarmSettings.workerQueueAge.evaluationPeriods,
        // An idle queue stops reporting: nothing waits.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      if (props.worker.commandAge) {
        // The own queues are made by the tasks at run time: not in the template, so no alarm can name
        // their ApproximateAgeOfOldestMessage, and alarms take no SEARCH over their prefix. The tasks
        // publish the age of the oldest command they hold instead (connectors/main.ts).
        alarm('WorkerCommandsStuck', props.worker.commandAge, {
          runbook: 'taking-a-worker-out.md',
          alarmDescription: `A command has been in a channel worker task's own queue for more than ${alarmSettings.workerCommandAge.thresholdSeconds / 60} minutes, for ${alarmSettings.workerCommandAge.evaluationPeriods} minutes: a task is stuck on a connection's commands`,
          threshold: alarmSettings.workerCommandAge.thresholdSeconds,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: alarmSettings.workerCommandAge.evaluationPeriods,
          // No task reporting is WorkerDown's to say.
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        });
      }
      if (props.worker.routingErrors) {
        alarm('WorkerRoutingFailing', props.worker.routingErrors, {
          runbook: 'taking-a-worker-out.md',
          alarmDescription: `The channel worker fleet failed to route ${alarmSettings.workerRouting.threshold} or more commands a minute for ${alarmSettings.workerRouting.evaluationPeriods} minutes: no task with room, or a task's queue that cannot be drained`,
          threshold: alarmSettings.workerRouting.threshold,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: alarmSettings.workerRouting.evaluationPeriods,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        });
      }
      workerWidgets.push(
        new cloudwatch.GraphWidget({
          title: 'Channel worker: CPU and memory (%)',
          left: [cpu.with({ label: 'CPU (busiest task)' }), memory.with({ label: 'memory (fullest task)' })],
          leftYAxis: { min: 0, max: 100 },
          width: 8,
        }),
        new cloudwatch.GraphWidget({ title: 'Channel worker: samples reported (0: no task)', left: [reporting], width: 8 }),
        new cloudwatch.GraphWidget({
          title: 'Channel worker queue',
          left: [queue.metricApproximateNumberOfMessagesVisible({ label: 'waiting' })],
          right: [queue.metricApproximateAgeOfOldestMessage({ label: 'oldest (s)' })],
          width: 8,
        }),
      );
    }

    // The WebSocket API: a failing $connect or $default (the browser's live updates) is an integration
    // or execution error; refused tokens are client errors and page nobody.
    const ws = alarmSettings.webSocketErrors;
    const wsMetric = (metricName: string, label: string) =>
      props.webSocketStage.metric(metricName, { statistic: 'Sum', period: Duration.seconds(ws.period), label });
    const wsErrors = new cloudwatch.MathExpression({
      label: 'WebSocket errors',
      expression: 'integration + execution',
      usingMetrics: { integration: wsMetric('IntegrationError', 'integration'), execution: wsMetric('ExecutionError', 'execution') },
      period: Duration.seconds(ws.period),
    });
    alarm('WebSocketErrors', wsErrors, {
      runbook: 'functions-and-apis.md',
      alarmDescription: `${ws.threshold} or more WebSocket integration or execution errors in 5 minutes: live updates are failing`,
      threshold: ws.threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: ws.evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    // Business metrics (Powertools EMF from the functions, metric filters on the worker's logs): the
    // share of a channel's sends that failed, and webhook deliveries refused, by source.
    const businessMetric = (metricName: string, dimensions: Record<string, string>, period: number) =>
      new cloudwatch.Metric({
        namespace: props.metricsNamespace,
        metricName,
        dimensionsMap: { service: props.serviceName, ...dimensions },
        statistic: 'Sum',
        period: Duration.seconds(period),
      });
    const failure = alarmSettings.sendFailureRate;
    for (const channel of props.channels) {
      const rate = new cloudwatch.MathExpression({
        label: `${channel}: failed sends (%)`,
        expression: `IF(sent + failed >= ${failure.minimumSends}, 100 * failed / (sent + failed), 0)`,
        usingMetrics: {
          sent: businessMetric('MessagesSent', { channel }, failure.period),
          failed: businessMetric('MessagesFailed', { channel }, failure.period),
        },
        period: Duration.seconds(failure.period),
      });
      alarm(`SendFailures${idPart(channel)}`, rate, {
        runbook: 'channel-failures.md',
        alarmDescription: `More than ${failure.thresholdPercent}% of ${channel} sends failed in 15 minutes (with at least ${failure.minimumSends} sends): a channel outage, a ban or revoked credentials`,
        threshold: failure.thresholdPercent,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: failure.evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }
    if (props.channels.includes('whatsapp_cloud')) {
      const red = alarmSettings.cloudQualityRed;
      // Counted by the Cloud API webhook (functions/webhooks/whatsapp-cloud.ts) when a number falls to red.
      alarm('CloudQualityRed', businessMetric('CloudQualityRed', { channel: 'whatsapp_cloud' }, red.period), {
        runbook: 'channel-failures.md',
        alarmDescription: 'A WhatsApp (API oficial) number fell to red (low) quality at Meta: its sends will be limited, look at what it sent',
        threshold: red.threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: red.evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }
    const rejected = alarmSettings.webhookRejected;
    for (const source of props.webhookSources) {
      alarm(`WebhooksRejected${idPart(source)}`, businessMetric('WebhookRejected', { source }, rejected.period), {
        runbook: 'functions-and-apis.md',
        alarmDescription: `${rejected.threshold} or more ${source} webhook deliveries refused in 5 minutes: someone is probing, or a webhook secret no longer matches`,
        threshold: rejected.threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: rejected.evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }

    // WhatsApp ending sessions for good (the worker's `WhatsAppDisconnects`, by reason).
    if (props.worker) {
      const disconnects = (reasons: readonly string[], period: number, label: string) =>
        new cloudwatch.MathExpression({
          label,
          expression: reasons.map((reason) => `FILL(${reason}, 0)`).join(' + '),
          usingMetrics: Object.fromEntries(reasons.map((reason) => [reason, businessMetric('WhatsAppDisconnects', { reason }, period)] as const)),
          period: Duration.seconds(period),
        });
      const outdated = alarmSettings.whatsappClientOutdated;
      alarm('WhatsAppClientOutdated', disconnects(['clientOutdated', 'badUserAgent'], outdated.period, 'WhatsApp: version or device refused'), {
        runbook: 'channel-failures.md',
        alarmDescription:
          'WhatsApp refused the WhatsApp Web version (405) or the device (409) the channel worker presents and stopped a session: pin a current version with WHATSAPP_WEB_VERSION or update Baileys',
        threshold: outdated.threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: outdated.evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      const bans = alarmSettings.whatsappBans;
      alarm('WhatsAppBans', disconnects(['banned', 'tempBanned', 'locked'], bans.period, 'WhatsApp: numbers banned or locked'), {
        runbook: 'channel-failures.md',
        alarmDescription: `${bans.threshold} or more WhatsApp numbers banned, temporarily banned or locked in an hour: look at what they sent before`,
        threshold: bans.threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: bans.evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      workerWidgets.push(
        new cloudwatch.GraphWidget({
          title: 'WhatsApp: sessions ended by WhatsApp, by reason',
          left: [
            new cloudwatch.MathExpression({
              label: 'WhatsAppDisconnects',
              expression: `SEARCH('{${props.metricsNamespace},reason,service} MetricName="WhatsAppDisconnects"', 'Sum', 300)`,
              period: Duration.minutes(5),
            }),
          ],
          width: 8,
        }),
      );
    }

    // The functions' own metrics (EMF from Powertools), by channel or source, whatever values occur.
    const business = (metricName: string, dimension: 'channel' | 'source') =>
      new cloudwatch.MathExpression({
        label: metricName,
        expression: `SEARCH('{${props.metricsNamespace},${dimension},service} MetricName="${metricName}"', 'Sum', 300)`,
        period: Duration.minutes(5),
      });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      // A name with the stack's, so two stages in one account do not collide.
      dashboardName: `${stack.stackName}-operations`,
      defaultInterval: Duration.hours(6),
      widgets: [
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 })],
        [
          new cloudwatch.GraphWidget({
            title: 'REST API: requests and 5xx',
            left: [props.httpApi.metricCount({ statistic: 'Sum', label: 'requests' })],
            right: [props.httpApi.metricServerError({ statistic: 'Sum', label: '5xx' }), props.httpApi.metricClientError({ statistic: 'Sum', label: '4xx' })],
            width: 8,
          }),
          new cloudwatch.GraphWidget({ title: 'REST API: 5xx rate (%)', left: [fiveXxRate], width: 8 }),
          new cloudwatch.GraphWidget({
            title: 'REST API: latency (ms)',
            left: [props.httpApi.metricLatency({ statistic: 'p50', label: 'p50' }), props.httpApi.metricLatency({ statistic: 'p99', label: 'p99' })],
            width: 8,
          }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'Lambda errors by group', left: errorGroups, width: 12 }),
          new cloudwatch.GraphWidget({ title: 'Lambda throttles by group', left: throttleGroups, width: 12 }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'Stream iterator age (ms)', left: ages, width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Stream consumer failures', left: consumerFailures, width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Dead-letter queue depth', left: depths, width: 8 }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'WebSocket: connects and messages',
            left: [
              props.webSocketStage.metric('ConnectCount', { statistic: 'Sum', label: 'connects' }),
              props.webSocketStage.metric('MessageCount', { statistic: 'Sum', label: 'messages' }),
            ],
            width: 12,
          }),
          new cloudwatch.GraphWidget({ title: 'WebSocket: errors', left: [wsErrors], width: 12 }),
        ],
        workerWidgets,
        [
          new cloudwatch.GraphWidget({
            title: 'Messages sent and failed, by channel',
            left: [business('MessagesSent', 'channel'), business('MessagesFailed', 'channel')],
            width: 12,
          }),
          new cloudwatch.GraphWidget({
            title: 'Inbound messages and refused webhooks',
            left: [business('InboundMessages', 'channel')],
            right: [business('WebhookRejected', 'source')],
            width: 12,
          }),
        ],
      ],
    });
  }
}
