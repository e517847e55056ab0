/**
 * Operations in the template: the alarm topic and its subscription, every alarm's metric,
 * threshold, window, comparison, missing-data rule and action, the dashboard, and the Powertools
 * settings and tracing of the functions.
 */
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';
import { queueConsumers } from '#functions/queues/consumers.ts';
import { consumersOf, streamConsumers, streamRouters } from '#functions/streams/consumers.ts';
import { alarmSettings, maxMetricsPerAlarm } from './constructs/operations.ts';
import { groupRoutes, stackLayout } from './constructs/http-function-groups.ts';
import { webSocketRoutes } from './constructs/websocket-api.ts';
import { ConversaStack } from './stack.ts';
import { siteFixture } from './test-support/site-fixture.ts';
import { stageTemplates } from './test-support/stage-templates.ts';
import { wholeTemplate } from './test-support/whole-template.ts';

type Resource = { Type: string; Properties: Record<string, any> };
type MetricStat = { Metric: { MetricName: string; Namespace: string; Dimensions: { Name: string; Value: unknown }[] }; Period: number; Stat: string };
type MetricQuery = { Id: string; Expression?: string; MetricStat?: MetricStat; ReturnData?: boolean };

const cdkContext = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

function stackWith(context: Record<string, unknown> = {}) {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  return new ConversaStack(app, 'ConversaStack', { siteAssetPath: siteFixture });
}

/** The stack with its nested stacks (the HTTP routes) merged in. */
function synth(context: Record<string, unknown> = {}) {
  return wholeTemplate(stackWith(context));
}

const resourcesOf = (template: Template, type: string) => template.findResources(type) as Record<string, Resource>;

function onlyId(template: Template, type: string): string {
  const ids = Object.keys(resourcesOf(template, type));
  expect(ids, type).toHaveLength(1);
  return ids[0]!;
}

/** Our functions (not CDK's own), keyed by logical id. */
function ourFunctions(template: Template): [string, Resource][] {
  return Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(([, fn]) =>
    /^(http|ws|streams|queues|schedules)\//.test(String(fn.Properties.Description)),
  );
}

/** Alarms whose logical id starts with `Operations<prefix>`. */
function alarmsNamed(template: Template, prefix: string): [string, Resource][] {
  return Object.entries(resourcesOf(template, 'AWS::CloudWatch::Alarm')).filter(([id]) => id.startsWith(`Operations${prefix}`));
}

/** The function logical ids an alarm's metric math reads (`Ref` of the FunctionName dimension). */
function functionsOfAlarm(alarm: Resource): string[] {
  return (alarm.Properties.Metrics as MetricQuery[])
    .filter((q) => q.MetricStat)
    .map((q) => q.MetricStat!.Metric.Dimensions.find((d) => d.Name === 'FunctionName')!.Value as { Ref: string })
    .map((v) => v.Ref);
}

/** The stream's readers: one function per router that has consumers. */
const routerCount = streamRouters.filter((r) => consumersOf(r.name).length > 0).length;
// The last five: the scheduled resume of stalled jobs, the lifecycle's timer poller, the campaigns' runner, the product refresher and the webhooks' retries.
const functionCount = groupRoutes(stackLayout, httpRoutes).size + new Set(webSocketRoutes.map((r) => r.handler)).size + routerCount + queueConsumers.length + 5;

let template: Template;
let topicId: string;
beforeAll(() => {
  template = stageTemplates('dev').main;
  topicId = onlyId(template, 'AWS::SNS::Topic');
});

describe('the alarm topic', () => {
  it('is one SNS topic encrypted with its own rotating KMS key, which CloudWatch may use', () => {
    const keyId = onlyId(template, 'AWS::KMS::Key');
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          }),
        ]),
      },
    });
  });

  it('refuses requests without TLS and lets CloudWatch of this account publish', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topicId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Action: 'sns:Publish',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          }),
        ]),
      },
    });
  });

  it('has no subscription unless context alarmEmail names an address, then one e-mail subscription', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    const subscribed = synth({ alarmEmail: 'ops@conversa.example' });
    subscribed.resourceCountIs('AWS::SNS::Subscription', 1);
    subscribed.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@conversa.example',
      TopicArn: { Ref: onlyId(subscribed, 'AWS::SNS::Topic') },
    });
  });

  it('is an output', () => {
    template.hasOutput('AlarmTopic', { Value: { Ref: topicId } });
  });
});

describe('the alarms', () => {
  it('all notify the topic when they fire and when they recover', () => {
    const alarms = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(0);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.AlarmDescription).toBeTruthy();
    }
  });

  it("watch the REST API's 5xx rate: over 5% of at least 20 requests, in two 5-minute periods in a row; no traffic is no failure", () => {
    const alarms = alarmsNamed(template, 'Http5xxRate');
    expect(alarms).toHaveLength(1);
    const alarm = alarms[0]![1];
    const apiId = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Api')).find(([, a]) => a.Properties.ProtocolType === 'HTTP')![0];
    expect(alarm.Properties).toMatchObject({
      Threshold: alarmSettings.http5xxRate.thresholdPercent,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 2,
      TreatMissingData: 'notBreaching',
    });
    expect(alarmSettings.http5xxRate).toMatchObject({ thresholdPercent: 5, minimumRequests: 20, period: 300 });
    const queries = alarm.Properties.Metrics as MetricQuery[];
    expect(queries.find((q) => q.Expression)).toMatchObject({ Expression: 'IF(requests >= 20, 100 * errors / requests, 0)' });
    const stat = (id: string) => queries.find((q) => q.Id === id)!.MetricStat!;
    for (const [id, metricName] of [
      ['errors', '5xx'],
      ['requests', 'Count'],
    ] as const) {
      expect(stat(id)).toEqual({
        Metric: { Namespace: 'AWS/ApiGateway', MetricName: metricName, Dimensions: [{ Name: 'ApiId', Value: { Ref: apiId } }] },
        Period: 300,
        Stat: 'Sum',
      });
    }
  });

  it('watch the errors of every function, each in exactly one group of at most 10', () => {
    const functionIds = ourFunctions(template)
      .map(([id]) => id)
      .sort();
    expect(functionIds).toHaveLength(functionCount);
    for (const [prefix, metricName] of [['LambdaErrors', 'Errors']] as const) {
      const alarms = alarmsNamed(template, prefix);
      const covered = alarms.flatMap(([, alarm]) => functionsOfAlarm(alarm)).sort();
      expect(covered, prefix).toEqual(functionIds);
      for (const [id, alarm] of alarms) {
        const queries = alarm.Properties.Metrics as MetricQuery[];
        expect(queries.filter((q) => q.MetricStat).length, id).toBeLessThanOrEqual(maxMetricsPerAlarm);
        expect(queries.find((q) => q.Expression)!.Expression).toMatch(/^SUM\(\[/);
        for (const q of queries.filter((q) => q.MetricStat)) {
          expect(q.MetricStat).toMatchObject({ Metric: { Namespace: 'AWS/Lambda', MetricName: metricName }, Period: 300, Stat: 'Sum' });
        }
      }
    }
  });

  it("watch throttles once, on the account's metric: no function of ours has concurrency of its own, so any of theirs shows there", () => {
    const alarms = alarmsNamed(template, 'LambdaThrottles');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]![1].Properties).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Throttles', Statistic: 'Sum', Period: 300 });
    expect(alarms[0]![1].Properties.Dimensions ?? []).toEqual([]);
    for (const [id, fn] of ourFunctions(template)) expect(fn.Properties.ReservedConcurrentExecutions, id).toBeUndefined();
  });

  it('fire on 3 errors in 5 minutes in a group, or on any throttle; no invocations is no failure', () => {
    for (const [, alarm] of alarmsNamed(template, 'LambdaErrors')) {
      expect(alarm.Properties).toMatchObject({
        Threshold: 3,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
    }
    for (const [, alarm] of alarmsNamed(template, 'LambdaThrottles')) {
      expect(alarm.Properties).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it('watch every dead-letter queue (stream routers, the send queue, the worker queue) for any message', () => {
    const queues = resourcesOf(template, 'AWS::SQS::Queue');
    const deadLetterIds = Object.keys(queues).filter((id) => /Dlq/.test(id));
    // One per stream router, one per queue consumer, the worker queue's.
    expect(deadLetterIds).toHaveLength(routerCount + queueConsumers.length + 1);
    const alarms = alarmsNamed(template, 'DeadLetters');
    const watched = alarms.map(
      ([, alarm]) => (alarm.Properties.Dimensions as { Name: string; Value: { 'Fn::GetAtt': [string, string] } }[])[0]!.Value['Fn::GetAtt'][0],
    );
    expect(watched.sort()).toEqual(deadLetterIds.sort());
    for (const [, alarm] of alarms) {
      expect(alarm.Properties).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Statistic: 'Maximum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it("watch each stream reader's (router's) iterator age: over 60 s for 5 minutes", () => {
    const alarms = alarmsNamed(template, 'IteratorAge');
    expect(alarms).toHaveLength(routerCount);
    const streamFunctionIds = ourFunctions(template)
      .filter(([, fn]) => String(fn.Properties.Description).startsWith('streams/'))
      .map(([id]) => id);
    expect(alarms.map(([, a]) => a.Properties.Dimensions[0].Value.Ref).sort()).toEqual(streamFunctionIds.sort());
    for (const [, alarm] of alarms) {
      expect(alarm.Properties).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'IteratorAge',
        Statistic: 'Maximum',
        Period: 60,
        Threshold: 60_000,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 5,
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it("watch the stream consumers' failed calls, one alarm per router (the routers' StreamConsumerFailures by router): 3 or more in 5 minutes", () => {
    const alarms = alarmsNamed(template, 'StreamConsumerFailures');
    expect(alarms).toHaveLength(routerCount);
    const watched = alarms.map(([, a]) => (a.Properties.Dimensions as { Name: string; Value: string }[]).find((d) => d.Name === 'router')!.Value);
    expect(watched.sort()).toEqual(
      streamRouters
        .filter((r) => consumersOf(r.name).length > 0)
        .map((r) => r.name)
        .sort(),
    );
    for (const [, alarm] of alarms) {
      expect(alarm.Properties).toMatchObject({
        Namespace: 'Conversa',
        MetricName: 'StreamConsumerFailures',
        Statistic: 'Sum',
        Period: alarmSettings.streamConsumerFailures.period,
        Threshold: alarmSettings.streamConsumerFailures.threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
      expect(alarm.Properties.Dimensions).toEqual(expect.arrayContaining([{ Name: 'service', Value: 'conversa' }]));
    }
    // Each consumer's count stays on the dashboard.
    const dashboard = JSON.stringify(Object.values(resourcesOf(template, 'AWS::CloudWatch::Dashboard'))[0]!.Properties.DashboardBody);
    for (const consumer of streamConsumers) expect(dashboard, consumer.name).toContain(`"consumer\\",\\"${consumer.name}`);
  });

  it('watch the channel worker: no task reporting for 3 minutes (missing data breaches), CPU or memory of a task over 80%', () => {
    const serviceDimensions = [
      { Name: 'ClusterName', Value: { Ref: onlyId(template, 'AWS::ECS::Cluster') } },
      { Name: 'ServiceName', Value: { 'Fn::GetAtt': [onlyId(template, 'AWS::ECS::Service'), 'Name'] } },
    ];
    const one = (name: string) => {
      const alarms = alarmsNamed(template, name);
      expect(alarms, name).toHaveLength(1);
      return alarms[0]![1].Properties;
    };
    expect(one('WorkerDown')).toMatchObject({
      Namespace: 'AWS/ECS',
      MetricName: 'CPUUtilization',
      Dimensions: serviceDimensions,
      Statistic: 'SampleCount',
      Period: 60,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      EvaluationPeriods: 3,
      TreatMissingData: 'breaching',
    });
    expect(one('WorkerCpuHigh')).toMatchObject({
      Namespace: 'AWS/ECS',
      MetricName: 'CPUUtilization',
      Dimensions: serviceDimensions,
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 80,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
      TreatMissingData: 'notBreaching',
    });
    expect(one('WorkerMemoryHigh')).toMatchObject({
      Namespace: 'AWS/ECS',
      MetricName: 'MemoryUtilization',
      Dimensions: serviceDimensions,
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 80,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 2,
      TreatMissingData: 'notBreaching',
    });
  });

  it('watch the worker queue: a command waiting over 5 minutes, for 5 minutes (sends not going out)', () => {
    const [[, alarm]] = alarmsNamed(template, 'WorkerQueueStuck') as [[string, Resource]];
    const queueId = Object.entries(resourcesOf(template, 'AWS::SQS::Queue')).find(
      ([id, q]) => q.Properties.FifoQueue && /Worker/.test(id) && !/DeadLetter/.test(id) && q.Properties.RedrivePolicy,
    )![0];
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
      Statistic: 'Maximum',
      Period: 60,
      Threshold: alarmSettings.workerQueueAge.thresholdSeconds,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 5,
      TreatMissingData: 'notBreaching',
    });
  });

  it("watch the WebSocket API's stage: 10 integration or execution errors in 5 minutes (refused tokens are client errors)", () => {
    const [[, alarm]] = alarmsNamed(template, 'WebSocketErrors') as [[string, Resource]];
    const wsApi = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Api')).find(([, a]) => a.Properties.ProtocolType === 'WEBSOCKET')![0];
    const metrics = alarm.Properties.Metrics as MetricQuery[];
    expect(metrics.find((q) => q.Expression)).toMatchObject({ Expression: 'integration + execution' });
    const stats = metrics.filter((q) => q.MetricStat).map((q) => q.MetricStat!);
    expect(stats.map((m) => m.Metric.MetricName).sort()).toEqual(['ExecutionError', 'IntegrationError']);
    for (const stat of stats) {
      expect(stat).toMatchObject({ Period: 300, Stat: 'Sum' });
      expect(stat.Metric.Namespace).toBe('AWS/ApiGateway');
      expect(stat.Metric.Dimensions).toEqual([
        { Name: 'ApiId', Value: { Ref: wsApi } },
        { Name: 'Stage', Value: expect.anything() },
      ]);
    }
    expect(alarm.Properties).toMatchObject({
      Threshold: 10,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });

  it('watch each channel’s sends: over 20% failed in 15 minutes, with at least 20 sends', () => {
    const alarms = alarmsNamed(template, 'SendFailures');
    expect(alarms.map(([id]) => id.replace(/^OperationsSendFailures/, '').replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([
      'Telegram',
      'Whatsapp',
      'WhatsappCloud',
    ]);
    for (const [id, alarm] of alarms) {
      const channel = id.includes('Telegram') ? 'telegram' : id.includes('WhatsappCloud') ? 'whatsapp_cloud' : 'whatsapp';
      const metrics = alarm.Properties.Metrics as MetricQuery[];
      expect(metrics.find((q) => q.Expression)!.Expression).toBe('IF(sent + failed >= 20, 100 * failed / (sent + failed), 0)');
      const byId = Object.fromEntries(metrics.filter((q) => q.MetricStat).map((q) => [q.Id, q.MetricStat!]));
      expect(byId.sent!.Metric).toMatchObject({ Namespace: 'Conversa', MetricName: 'MessagesSent' });
      expect(byId.failed!.Metric).toMatchObject({ Namespace: 'Conversa', MetricName: 'MessagesFailed' });
      for (const stat of Object.values(byId)) {
        expect(stat).toMatchObject({ Period: 900, Stat: 'Sum' });
        expect(stat.Metric.Dimensions).toEqual(
          expect.arrayContaining([
            { Name: 'service', Value: 'conversa' },
            { Name: 'channel', Value: channel },
          ]),
        );
      }
      expect(alarm.Properties).toMatchObject({ Threshold: 20, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' });
    }
  });

  it('watch refused webhooks of each source that has a webhook route: 50 in 5 minutes', () => {
    const sources = [...new Set(httpRoutes.filter((r) => r.path.startsWith('/webhooks/')).map((r) => r.path.split('/')[2]))].sort();
    expect(sources).toEqual(['stripe', 'telegram', 'whatsapp-cloud']);
    const alarms = alarmsNamed(template, 'WebhooksRejected');
    expect(alarms).toHaveLength(sources.length);
    for (const [, alarm] of alarms) {
      expect(alarm.Properties).toMatchObject({
        Namespace: 'Conversa',
        MetricName: 'WebhookRejected',
        Statistic: 'Sum',
        Period: 300,
        Threshold: 50,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      expect(alarm.Properties.Dimensions).toEqual(expect.arrayContaining([{ Name: 'service', Value: 'conversa' }]));
    }
    expect(alarms.map(([, a]) => (a.Properties.Dimensions as { Name: string; Value: string }[]).find((d) => d.Name === 'source')!.Value).sort()).toEqual(
      sources,
    );
  });

  it('watch WhatsApp ending sessions: any refused version or device in 5 minutes, 3 bans or locks in an hour', () => {
    const check = (prefix: string, reasons: string[], period: number, threshold: number) => {
      const [[, alarm]] = alarmsNamed(template, prefix) as [[string, Resource]];
      const metrics = alarm.Properties.Metrics as MetricQuery[];
      expect(metrics.find((q) => q.Expression)!.Expression).toBe(reasons.map((r) => `FILL(${r}, 0)`).join(' + '));
      const stats = metrics.filter((q) => q.MetricStat);
      expect(stats.map((q) => q.Id)).toEqual(reasons);
      for (const { Id, MetricStat } of stats) {
        expect(MetricStat).toMatchObject({ Period: period, Stat: 'Sum', Metric: { Namespace: 'Conversa', MetricName: 'WhatsAppDisconnects' } });
        expect(MetricStat!.Metric.Dimensions).toEqual(
          expect.arrayContaining([
            { Name: 'service', Value: 'conversa' },
            { Name: 'reason', Value: Id },
          ]),
        );
      }
      expect(alarm.Properties).toMatchObject({
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
    };
    check('WhatsAppClientOutdated', ['clientOutdated', 'badUserAgent'], 300, 1);
    check('WhatsAppBans', ['banned', 'tempBanned', 'locked'], 3600, 3);
  });

  it('watch the worker fleet’s routing: 5 or more commands a minute not routed, for 3 minutes (no task with room, a queue not drained)', () => {
    const [[, alarm]] = alarmsNamed(template, 'WorkerRoutingFailing') as [[string, Resource]];
    expect(alarm.Properties).toMatchObject({
      Namespace: 'Conversa',
      MetricName: 'FleetRoutingErrors',
      Statistic: 'Sum',
      Period: alarmSettings.workerRouting.period,
      Threshold: alarmSettings.workerRouting.threshold,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: alarmSettings.workerRouting.evaluationPeriods,
      TreatMissingData: 'notBreaching',
    });
  });

  it('watch the worker tasks’ own queues: the oldest command a task holds over 5 minutes, for 5 minutes (the age the tasks publish)', () => {
    const [[id, alarm]] = alarmsNamed(template, 'WorkerCommandsStuck') as [[string, Resource]];
    expect(alarm.Properties, id).toMatchObject({
      Namespace: 'Conversa',
      MetricName: 'WorkerCommandAge',
      Statistic: 'Maximum',
      Period: alarmSettings.workerCommandAge.period,
      Threshold: alarmSettings.workerCommandAge.thresholdSeconds,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: alarmSettings.workerCommandAge.evaluationPeriods,
      TreatMissingData: 'notBreaching',
    });
    expect(alarm.Properties.AlarmDescription).toMatch(/Runbook: docs\/runbooks\/taking-a-worker-out\.md$/);
  });

  it('are all accounted for by the checks above', () => {
    const groups = [
      'Http5xxRate',
      'LambdaErrors',
      'LambdaThrottles',
      'DeadLetters',
      'IteratorAge',
      'StreamConsumerFailures',
      'WorkerDown',
      'WorkerCpuHigh',
      'WorkerMemoryHigh',
      'WorkerQueueStuck',
      'WorkerRoutingFailing',
      'WorkerCommandsStuck',
      'WebSocketErrors',
      'SendFailures',
      'WebhooksRejected',
      'WhatsAppClientOutdated',
      'WhatsAppBans',
      'CloudQualityRed',
    ];
    const alarms = Object.keys(resourcesOf(template, 'AWS::CloudWatch::Alarm'));
    expect(alarms.filter((id) => !groups.some((g) => id.startsWith(`Operations${g}`)))).toEqual([]);
  });
});

describe('the dashboard', () => {
  it('is one dashboard, named after the stack, showing every alarm and the same signals', () => {
    const id = onlyId(template, 'AWS::CloudWatch::Dashboard');
    const dashboard = resourcesOf(template, 'AWS::CloudWatch::Dashboard')[id]!;
    expect(dashboard.Properties.DashboardName).toBe('Conversa-dev-operations');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const alarmId of Object.keys(resourcesOf(template, 'AWS::CloudWatch::Alarm'))) expect(body).toContain(alarmId);
    for (const signal of [
      '5xx',
      'IteratorAge',
      'StreamConsumerFailures',
      'ApproximateNumberOfMessagesVisible',
      'CPUUtilization',
      'MemoryUtilization',
      'MessagesSent',
      'InboundMessages',
      'WebhookRejected',
      'ConnectCount',
      'IntegrationError',
    ]) {
      expect(body).toContain(signal);
    }
  });
});

describe('the functions', () => {
  it('all trace actively and get the Powertools service name, metrics namespace and log level (INFO by default)', () => {
    for (const [, fn] of ourFunctions(template)) {
      expect(fn.Properties.TracingConfig, fn.Properties.Description).toEqual({ Mode: 'Active' });
      expect(fn.Properties.Environment.Variables, fn.Properties.Description).toMatchObject({
        POWERTOOLS_SERVICE_NAME: 'conversa',
        POWERTOOLS_METRICS_NAMESPACE: 'Conversa',
        POWERTOOLS_LOG_LEVEL: 'INFO',
      });
    }
  });

  it('take the log level from context logLevel, and refuse one Powertools does not know', () => {
    const debug = synth({ logLevel: 'debug' });
    for (const [, fn] of ourFunctions(debug)) expect(fn.Properties.Environment.Variables.POWERTOOLS_LOG_LEVEL).toBe('DEBUG');
    expect(() => synth({ logLevel: 'LOUD' })).toThrow(/logLevel/);
  });
});

describe('the template', () => {
  it("stays under CloudFormation's 500-resource limit, in each template", () => {
    const { templateFiles } = stageTemplates('dev');
    for (const file of templateFiles) expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).Resources).length, file).toBeLessThan(500);
  });
});
