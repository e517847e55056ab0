/**
 * The channel worker in the template: its Fargate service and task, the image asset and what its
 * build context holds, the VPC with no way in, the worker queue and who may send to it, and the
 * task role's exact permissions.
 */
import { httpFunctionDescription } from './constructs/http-function-groups.ts';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { livenessProbeCommand } from '#connectors/liveness.ts';
import { workerQueue } from '#functions/queues/worker-queue.ts';
import { streamConsumers } from '#functions/streams/consumers.ts';
import {
  FLEET_LOAD_METRIC,
  FLEET_ROUTING_ERRORS_METRIC,
  WHATSAPP_DISCONNECTS_METRIC,
  WORKER_COMMAND_AGE_METRIC,
  WORKER_METRICS,
  workerCapacity,
  workerDockerfile,
  workerStopTimeoutSeconds,
  workerScaling,
  workerTaskSize,
} from './constructs/channel-worker.ts';
import { ConversaStack } from './stack.ts';
import { DEFAULT_REGION } from './conversa-app.ts';
import { siteFixture } from './test-support/site-fixture.ts';
import { stageTemplates } from './test-support/stage-templates.ts';
import { wholeTemplate } from './test-support/whole-template.ts';

type Resource = { Type: string; Properties: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };

const root = new URL('..', import.meta.url).pathname;
const cdkContext = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')).context as Record<string, unknown>;

function synth(context: Record<string, unknown> = {}, props: ConstructorParameters<typeof ConversaStack>[2] = {}) {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new ConversaStack(app, 'ConversaStack', { siteAssetPath: siteFixture, ...props });
  return { template: wholeTemplate(stack), assembly: app.synth() };
}

const resourcesOf = (template: Template, type: string) => template.findResources(type) as Record<string, Resource>;

function only(template: Template, type: string): [string, Resource] {
  const entries = Object.entries(resourcesOf(template, type));
  expect(entries, type).toHaveLength(1);
  return entries[0]!;
}

/** The media bucket (the one with CORS; the other holds the web app). */
function mediaBucketOf(template: Template): string {
  const ids = Object.entries(resourcesOf(template, 'AWS::S3::Bucket')).filter(([, b]) => b.Properties.CorsConfiguration);
  expect(ids).toHaveLength(1);
  return ids[0]![0];
}

function statementsOfRole(template: Template, roleId: string): Statement[] {
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}

function allows(statements: Statement[], action: string, resource: unknown): boolean {
  const wanted = JSON.stringify(resource);
  return statements.some((s) => s.Effect === 'Allow' && [s.Action].flat().includes(action) && [s.Resource].flat().some((r) => JSON.stringify(r) === wanted));
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path).map((f) => join(name, f)) : [name];
  });
}

let template: Template;
let assemblyDir: string;
let container: Record<string, any>;
let task: Resource;
let queueId: string;

beforeAll(() => {
  ({ main: template, assemblyDir } = stageTemplates('dev'));
  task = only(template, 'AWS::ECS::TaskDefinition')[1];
  container = task.Properties.ContainerDefinitions[0];
  queueId = container.Environment.find((v: { Name: string }) => v.Name === workerQueue.urlVariable).Value.Ref;
});

describe('the channel worker service', () => {
  it('is one Fargate service of one task, from context workerDesiredCount when given', () => {
    const [, service] = only(template, 'AWS::ECS::Service');
    expect(service.Properties).toMatchObject({
      LaunchType: 'FARGATE',
      DesiredCount: 1,
      TaskDefinition: { Ref: only(template, 'AWS::ECS::TaskDefinition')[0] },
    });
    const [, scaled] = only(synth({ workerDesiredCount: '3' }).template, 'AWS::ECS::Service');
    expect(scaled.Properties.DesiredCount).toBe(3);
    expect(() => synth({ workerDesiredCount: 'two' })).toThrow(/workerDesiredCount must be a whole number/);
  });

  it('starts a new task before stopping the old one, and rolls back a deploy whose tasks do not turn healthy', () => {
    const [, service] = only(template, 'AWS::ECS::Service');
    expect(service.Properties.DeploymentConfiguration).toEqual({
      MinimumHealthyPercent: 100,
      MaximumPercent: 200,
      DeploymentCircuitBreaker: { Enable: true, Rollback: true },
    });
    expect(service.Properties.EnableExecuteCommand).toBe(false);
  });

  it('runs in the public subnets with a public IP and only its own security group', () => {
    const [, service] = only(template, 'AWS::ECS::Service');
    const subnets = resourcesOf(template, 'AWS::EC2::Subnet');
    const [sgId] = Object.entries(resourcesOf(template, 'AWS::EC2::SecurityGroup')).find(([, sg]) =>
      /Channel worker tasks/.test(sg.Properties.GroupDescription),
    )!;
    const network = service.Properties.NetworkConfiguration.AwsvpcConfiguration;
    expect(network.AssignPublicIp).toBe('ENABLED');
    expect(network.SecurityGroups).toEqual([{ 'Fn::GetAtt': [sgId, 'GroupId'] }]);
    expect(network.Subnets).toHaveLength(2);
    for (const { Ref } of network.Subnets) expect(subnets[Ref]!.Properties.MapPublicIpOnLaunch).toBe(true);
  });
});

describe('the channel worker task', () => {
  it('runs Linux on arm64 (Graviton) with half a vCPU and 2 GiB', () => {
    expect(task.Properties).toMatchObject({
      RequiresCompatibilities: ['FARGATE'],
      NetworkMode: 'awsvpc',
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
      Cpu: '512',
      Memory: '2048',
    });
    expect(workerTaskSize).toEqual({ cpu: 512, memoryMiB: 2048 });
  });

  it('has one essential container that opens no port', () => {
    expect(task.Properties.ContainerDefinitions).toHaveLength(1);
    expect(container.Essential).toBe(true);
    expect(container.PortMappings ?? []).toEqual([]);
  });

  it("is checked by the worker's liveness answer, with a minute to start", () => {
    expect(container.HealthCheck).toEqual({ Command: livenessProbeCommand(8081), Interval: 30, Timeout: 5, Retries: 3, StartPeriod: 60 });
    expect(container.HealthCheck.Command.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
    expect(container.HealthCheck.Command[3]).toContain('http://127.0.0.1:8081/');
  });

  it('gets 60 s after SIGTERM for its graceful stop, and gives up 10 s before ECS kills it', () => {
    expect(container.StopTimeout).toBe(60);
    expect(workerStopTimeoutSeconds).toBeLessThanOrEqual(120); // Fargate's maximum
    expect(container.Environment).toContainEqual({ Name: 'STOP_GRACE_SECONDS', Value: '50' });
  });

  it('logs to its own log group, kept as long as the stage keeps logs (a week in dev), without blocking the process', () => {
    const logs = container.LogConfiguration;
    expect(logs.LogDriver).toBe('awslogs');
    expect(logs.Options).toMatchObject({ 'awslogs-stream-prefix': 'worker', mode: 'non-blocking', 'max-buffer-size': '26214400b' });
    const logGroup = resourcesOf(template, 'AWS::Logs::LogGroup')[logs.Options['awslogs-group'].Ref]!;
    expect(logGroup.Properties.RetentionInDays).toBe(7);
  });

  it('gets the table, the bucket, the data key ARN, the queue URL, its capacity and webhook mode, and no JWT secret', () => {
    const table = only(template, 'AWS::DynamoDB::GlobalTable')[0];
    const bucket = mediaBucketOf(template);
    const dataKey = Object.entries(resourcesOf(template, 'AWS::SecretsManager::Secret')).find(([, s]) => /at rest/.test(s.Properties.Description))![0];
    const environment = Object.fromEntries(container.Environment.map((v: { Name: string; Value: unknown }) => [v.Name, v.Value]));
    expect(environment).toEqual({
      // The app's stack has an explicit region (infra/conversa-app.ts).
      AWS_REGION: DEFAULT_REGION,
      TABLE_NAME: { Ref: table },
      BUCKET_NAME: { Ref: bucket },
      DATA_KEY_ARN: { Ref: dataKey },
      WORKER_QUEUE_URL: { Ref: queueId },
      WORKER_CAPACITY: '33',
      WORKER_FLEET_PREFIX: fleetPrefix(),
      WORKER_DLQ_ARN: { 'Fn::GetAtt': [dlqId(), 'Arn'] },
      LIVENESS_PORT: '8081',
      STOP_GRACE_SECONDS: '50',
      TELEGRAM_MODE: 'webhook',
      POWERTOOLS_SERVICE_NAME: 'conversa',
      POWERTOOLS_METRICS_NAMESPACE: 'Conversa',
    });
  });

  it("turns the EMF lines it prints into the functions' business metrics, with metric filters on its log group", () => {
    const logGroupId = container.LogConfiguration.Options['awslogs-group'].Ref;
    const all = Object.values(resourcesOf(template, 'AWS::Logs::MetricFilter'));
    expect(all.map((f) => f.Properties.MetricTransformations[0].MetricName).sort()).toEqual(
      [...WORKER_METRICS, WHATSAPP_DISCONNECTS_METRIC, FLEET_LOAD_METRIC, FLEET_ROUTING_ERRORS_METRIC, WORKER_COMMAND_AGE_METRIC].sort(),
    );
    const filters = all.filter((f) => (WORKER_METRICS as readonly string[]).includes(f.Properties.MetricTransformations[0].MetricName));
    for (const filter of filters) {
      const [transformation] = filter.Properties.MetricTransformations;
      const name = transformation.MetricName;
      expect(filter.Properties.LogGroupName).toEqual({ Ref: logGroupId });
      expect(filter.Properties.FilterPattern).toBe(`{ $.${name} >= 1 }`);
      expect(transformation).toEqual({
        MetricName: name,
        MetricNamespace: 'Conversa',
        MetricValue: `$.${name}`,
        Dimensions: [
          { Key: 'channel', Value: '$.channel' },
          { Key: 'service', Value: '$.service' },
        ],
      });
    }
  });

  it('turns its WhatsApp disconnect lines into WhatsAppDisconnects by reason (what the WhatsApp alarms watch)', () => {
    const logGroupId = container.LogConfiguration.Options['awslogs-group'].Ref;
    const filter = Object.values(resourcesOf(template, 'AWS::Logs::MetricFilter')).find(
      (f) => f.Properties.MetricTransformations[0].MetricName === WHATSAPP_DISCONNECTS_METRIC,
    )!;
    expect(filter.Properties.LogGroupName).toEqual({ Ref: logGroupId });
    expect(filter.Properties.FilterPattern).toBe('{ $.WhatsAppDisconnects >= 1 }');
    expect(filter.Properties.MetricTransformations[0]).toEqual({
      MetricName: 'WhatsAppDisconnects',
      MetricNamespace: 'Conversa',
      MetricValue: '$.WhatsAppDisconnects',
      Dimensions: [
        { Key: 'reason', Value: '$.reason' },
        { Key: 'service', Value: '$.service' },
      ],
    });
  });

  it('sizes its capacity from its memory: 40 MiB a session over a 200 MiB process, in three quarters of the task', () => {
    expect(workerCapacity(2048)).toBe(33);
    expect(workerCapacity(1024)).toBe(14);
  });
});

describe('the worker image', () => {
  function imageAsset() {
    const manifest = JSON.parse(readFileSync(join(assemblyDir, 'Conversa-dev.assets.json'), 'utf8'));
    const images = Object.entries(manifest.dockerImages ?? {}) as [string, { source: { directory: string; dockerFile: string; platform: string } }][];
    expect(images).toHaveLength(1);
    return { hash: images[0]![0], ...images[0]![1].source };
  }

  it('is built from connectors/Dockerfile for linux/arm64, and is the image the task runs', () => {
    const asset = imageAsset();
    expect(asset).toMatchObject({ dockerFile: workerDockerfile, platform: 'linux/arm64' });
    expect(workerDockerfile).toBe('connectors/Dockerfile');
    expect(JSON.stringify(container.Image)).toContain(`:${asset.hash}`);
  });

  it('has a build context of the manifest, the lock file and the server code only (no node_modules, tests, web, infra, data)', () => {
    const files = filesUnder(join(assemblyDir, imageAsset().directory));
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'package-lock.json',
        '.npmrc',
        'tsconfig.json',
        'scripts/bundle-worker.mjs',
        'connectors/Dockerfile',
        'connectors/main.ts',
      ]),
    );
    const tops = new Set(files.map((f) => f.split('/')[0]));
    expect([...tops].sort()).toEqual([
      '.dockerignore',
      '.npmrc',
      'connectors',
      'functions',
      'package-lock.json',
      'package.json',
      'scripts',
      'shared',
      'tsconfig.json',
    ]);
    expect(files.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('functions/') && !/^functions\/(lib|queues)\//.test(f))).toEqual([]);
    // Small enough to copy on every synth.
    expect(files.length).toBeLessThan(400);
  });

  it('has in its build context every source file connectors/main.ts reaches (what the Dockerfile bundles)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'worker-bundle-'));
    await promisify(execFile)(process.execPath, [join(root, 'scripts/bundle-worker.mjs'), '--outdir', out, '--metafile', join(out, 'meta.json')], {
      cwd: root,
    });
    expect(existsSync(join(out, 'main.mjs'))).toBe(true);
    const inputs = Object.keys(JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')).inputs as Record<string, unknown>).filter(
      (f) => !f.startsWith('node_modules/'),
    );
    expect(inputs).toContain('connectors/main.ts');
    const context = new Set(filesUnder(join(assemblyDir, imageAsset().directory)));
    expect(inputs.filter((f) => !context.has(relative('.', f)))).toEqual([]);
  });
});

describe('the worker VPC', () => {
  it('logs every flow, accepted or rejected, to a log group kept as the stage keeps logs', () => {
    const [[, flowLog]] = Object.entries(resourcesOf(template, 'AWS::EC2::FlowLog')) as [[string, Resource]];
    expect(flowLog.Properties).toMatchObject({
      ResourceType: 'VPC',
      ResourceId: { Ref: only(template, 'AWS::EC2::VPC')[0] },
      TrafficType: 'ALL',
      LogDestinationType: 'cloud-watch-logs',
      MaxAggregationInterval: 600,
    });
    const group = resourcesOf(template, 'AWS::Logs::LogGroup')[flowLog.Properties.LogGroupName.Ref]!;
    expect(group.Properties.RetentionInDays).toBe(7);
  });

  it('has two public subnets and no NAT gateway', () => {
    template.resourceCountIs('AWS::EC2::VPC', 1);
    template.resourceCountIs('AWS::EC2::NatGateway', 0);
    template.resourceCountIs('AWS::EC2::Subnet', 2);
    template.resourceCountIs('AWS::EC2::InternetGateway', 1);
  });

  it('lets nothing in: no security group has an inbound rule, and the default one is stripped', () => {
    template.resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
    for (const [id, sg] of Object.entries(resourcesOf(template, 'AWS::EC2::SecurityGroup'))) {
      expect(sg.Properties.SecurityGroupIngress ?? [], id).toEqual([]);
    }
    template.resourceCountIs('Custom::VpcRestrictDefaultSG', 1);
  });

  it('lets the tasks out on HTTPS only', () => {
    template.resourceCountIs('AWS::EC2::SecurityGroupEgress', 0);
    template.hasResourceProperties('AWS::EC2::SecurityGroup', {
      GroupDescription: Match.stringLikeRegexp('Channel worker tasks'),
      SecurityGroupEgress: [{ CidrIp: '0.0.0.0/0', IpProtocol: 'tcp', FromPort: 443, ToPort: 443, Description: Match.anyValue() }],
    });
  });

  it('reaches DynamoDB and S3 through gateway endpoints on its route tables', () => {
    const endpoints = Object.values(resourcesOf(template, 'AWS::EC2::VPCEndpoint'));
    expect(endpoints).toHaveLength(2);
    const services = endpoints.map((e) => JSON.stringify(e.Properties.ServiceName));
    expect(services.some((s) => s.includes('.dynamodb'))).toBe(true);
    expect(services.some((s) => s.includes('.s3'))).toBe(true);
    for (const endpoint of endpoints) {
      expect(endpoint.Properties.VpcEndpointType).toBe('Gateway');
      expect(endpoint.Properties.RouteTableIds).toHaveLength(2);
    }
  });

  it('runs an ECS cluster without Container Insights', () => {
    const [, cluster] = only(template, 'AWS::ECS::Cluster');
    expect(cluster.Properties.ClusterSettings).toEqual([{ Name: 'containerInsights', Value: 'disabled' }]);
  });
});

describe('the worker queue', () => {
  const queue = () => resourcesOf(template, 'AWS::SQS::Queue')[queueId]!;
  const dlqId = () => queue().Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string;

  it('is defined by functions/queues/worker-queue.ts', () => {
    expect(workerQueue).toMatchObject({ name: 'channel-worker', urlVariable: 'WORKER_QUEUE_URL' });
  });

  it('is FIFO, deduplicating on the ids it is given per message group (high throughput), SQS-encrypted, hiding a command for its visibility timeout', () => {
    expect(queue().Properties).toMatchObject({
      FifoQueue: true,
      ContentBasedDeduplication: false,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      SqsManagedSseEnabled: true,
      VisibilityTimeout: workerQueue.visibilityTimeoutSeconds,
    });
  });

  it('sends a command to a FIFO dead-letter queue (14 days) after maxReceiveCount receives', () => {
    expect(queue().Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlqId(), 'Arn'] }, maxReceiveCount: workerQueue.maxReceiveCount });
    expect(resourcesOf(template, 'AWS::SQS::Queue')[dlqId()]!.Properties).toMatchObject({
      FifoQueue: true,
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
  });

  it('refuses requests without TLS, on the queue and its dead-letter queue', () => {
    for (const id of [queueId, dlqId()]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });

  it('may be sent to by its producers (the stream consumers and HTTP handlers it names), which get its URL; by no other function', () => {
    const arn = { 'Fn::GetAtt': [queueId, 'Arn'] };
    const functions = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).filter((fn) =>
      /^(http|ws|streams|queues)\//.test(fn.Properties.Description),
    );
    // A stream consumer sends through the router that runs it (functions/streams/consumers.ts).
    const routerOf = (name: string) => `streams/${streamConsumers.find((c) => c.name === name)!.router}-router`;
    const producers = [...new Set([...workerQueue.producers.map(routerOf), ...workerQueue.routeProducers.map(httpFunctionDescription)])];
    expect(producers.length).toBeGreaterThan(0);
    let senders = 0;
    for (const fn of functions) {
      const description = String(fn.Properties.Description);
      const sends = producers.includes(description);
      const statements = statementsOfRole(template, fn.Properties.Role['Fn::GetAtt'][0]);
      expect(allows(statements, 'sqs:SendMessage', arn), description).toBe(sends);
      expect(allows(statements, 'sqs:ReceiveMessage', arn), description).toBe(false);
      expect(fn.Properties.Environment.Variables.WORKER_QUEUE_URL, description).toEqual(sends ? { Ref: queueId } : undefined);
      if (sends) senders++;
    }
    expect(senders).toBe(producers.length);
  });

  it('fails synthesis when it names a producer that is not a stream consumer', () => {
    expect(streamConsumers.map((c) => c.name)).toEqual(expect.arrayContaining([...workerQueue.producers]));
    expect(() => synth({}, { workerQueue: { ...workerQueue, producers: ['nobody'] } })).toThrow(/worker queue "channel-worker" names producer "nobody"/);
    expect(() => synth({}, { workerQueue: { ...workerQueue, routeProducers: ['services/nobody'] } })).toThrow(/names route producer "services\/nobody"/);
  });
});

/** The fleet's queue-name prefix the task is given. */
const fleetPrefix = () => container.Environment.find((v: { Name: string }) => v.Name === 'WORKER_FLEET_PREFIX').Value as string;
/** The worker queue's dead-letter queue. */
const dlqId = () =>
  Object.entries(resourcesOf(template, 'AWS::SQS::Queue')).find(([id]) =>
    JSON.stringify(resourcesOf(template, 'AWS::SQS::Queue')[queueId]!.Properties.RedrivePolicy).includes(id),
  )![0];

describe('the worker fleet’s autoscaling', () => {
  it('tracks the fleet’s load (sessions wanted over what the live tasks may hold) between context workerMinTasks and workerMaxTasks', () => {
    const [, target] = only(template, 'AWS::ApplicationAutoScaling::ScalableTarget');
    expect(target.Properties).toMatchObject({ MinCapacity: 1, MaxCapacity: 4, ScalableDimension: 'ecs:service:DesiredCount', ServiceNamespace: 'ecs' });
    const [, policy] = only(template, 'AWS::ApplicationAutoScaling::ScalingPolicy');
    expect(policy.Properties.PolicyType).toBe('TargetTrackingScaling');
    expect(policy.Properties.TargetTrackingScalingPolicyConfiguration).toEqual({
      CustomizedMetricSpecification: { MetricName: FLEET_LOAD_METRIC, Namespace: 'Conversa', Statistic: 'Average' },
      TargetValue: workerScaling.targetPercent,
      ScaleOutCooldown: workerScaling.scaleOutCooldownSeconds,
      // Long: a removed task hands its sessions over, seconds without their sockets; a dip must not churn them.
      ScaleInCooldown: 1800,
    });
    const scaled = synth({ workerMinTasks: '2', workerMaxTasks: '40' }).template;
    expect(only(scaled, 'AWS::ApplicationAutoScaling::ScalableTarget')[1].Properties).toMatchObject({ MinCapacity: 2, MaxCapacity: 40 });
    expect(() => synth({ workerMinTasks: '5', workerMaxTasks: '2' })).toThrow(/workerMaxTasks \(2\) is under workerMinTasks \(5\)/);
    expect(() => synth({ workerMaxTasks: 'many' })).toThrow(/Context workerMaxTasks must be a whole number of tasks/);
  });

  it('the load comes from the tasks’ EMF lines, and routing failures are counted and alarmed on with the runbook', () => {
    const filters = Object.values(resourcesOf(template, 'AWS::Logs::MetricFilter'));
    const load = filters.find((f) => f.Properties.MetricTransformations[0].MetricName === FLEET_LOAD_METRIC)!;
    expect(load.Properties.FilterPattern).toBe(`{ $.${FLEET_LOAD_METRIC} >= 0 }`);
    expect(load.Properties.MetricTransformations[0]).toEqual({
      MetricName: FLEET_LOAD_METRIC,
      MetricNamespace: 'Conversa',
      MetricValue: `$.${FLEET_LOAD_METRIC}`,
    });
    const routing = filters.find((f) => f.Properties.MetricTransformations[0].MetricName === FLEET_ROUTING_ERRORS_METRIC)!;
    expect(routing.Properties.FilterPattern).toBe('"[fleet] routing failed"');
    const alarm = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).find((a) => a.Properties.MetricName === FLEET_ROUTING_ERRORS_METRIC)!;
    expect(alarm.Properties).toMatchObject({ Namespace: 'Conversa', Statistic: 'Sum', Period: 60, EvaluationPeriods: 3, Threshold: 5 });
    expect(alarm.Properties.AlarmDescription).toMatch(/Runbook: docs\/runbooks\/taking-a-worker-out\.md$/);
  });

  it('the tasks’ own queues are watched through the age the tasks publish (no alarm can name a queue made at run time): WorkerCommandAge over 5 minutes', () => {
    const logGroupId = container.LogConfiguration.Options['awslogs-group'].Ref;
    const filter = Object.values(resourcesOf(template, 'AWS::Logs::MetricFilter')).find(
      (f) => f.Properties.MetricTransformations[0].MetricName === WORKER_COMMAND_AGE_METRIC,
    )!;
    expect(filter.Properties.LogGroupName).toEqual({ Ref: logGroupId });
    expect(filter.Properties.FilterPattern).toBe(`{ $.${WORKER_COMMAND_AGE_METRIC} >= 0 }`);
    expect(filter.Properties.MetricTransformations[0]).toEqual({
      MetricName: WORKER_COMMAND_AGE_METRIC,
      MetricNamespace: 'Conversa',
      MetricValue: `$.${WORKER_COMMAND_AGE_METRIC}`,
    });
    const alarms = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).filter((a) => a.Properties.MetricName === WORKER_COMMAND_AGE_METRIC);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.Properties).toMatchObject({
      Namespace: 'Conversa',
      Statistic: 'Maximum',
      Period: 60,
      Threshold: 300,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 5,
      TreatMissingData: 'notBreaching',
    });
    // One series for the whole fleet (no dimension): the tasks come and go.
    expect(alarms[0]!.Properties.Dimensions).toBeUndefined();
    expect(alarms[0]!.Properties.AlarmDescription).toMatch(/Runbook: docs\/runbooks\/taking-a-worker-out\.md$/);
    expect(readFileSync(new URL('../docs/runbooks/taking-a-worker-out.md', import.meta.url), 'utf8')).toContain('**`WorkerCommandsStuck`**');
  });

  it('gives a stopping task the time to hand its sessions over: the process gives up 10 s before ECS kills it', () => {
    expect(container.StopTimeout).toBe(workerStopTimeoutSeconds);
    const environment = Object.fromEntries(container.Environment.map((v: { Name: string; Value: unknown }) => [v.Name, v.Value]));
    expect(Number(environment.STOP_GRACE_SECONDS)).toBe(workerStopTimeoutSeconds - 10);
  });
});

describe('the worker task role', () => {
  it('may use the table, the data key, the bucket and the worker queue, and nothing else', () => {
    const roleId = task.Properties.TaskRoleArn['Fn::GetAtt'][0] as string;
    const table = only(template, 'AWS::DynamoDB::GlobalTable')[0];
    const bucket = mediaBucketOf(template);
    const dataKey = Object.entries(resourcesOf(template, 'AWS::SecretsManager::Secret')).find(([, s]) => /at rest/.test(s.Properties.Description))![0];
    const tableArn = { 'Fn::GetAtt': [table, 'Arn'] };
    const bucketArn = { 'Fn::GetAtt': [bucket, 'Arn'] };
    const sorted = (statements: Statement[]) => statements.map((s) => ({ ...s, Action: [s.Action].flat().sort() }));
    expect(sorted(statementsOfRole(template, roleId))).toEqual([
      {
        Effect: 'Allow',
        // grantReadWriteData: the stream actions come with it (the worker does not read the stream).
        Action: [
          'dynamodb:BatchGetItem',
          'dynamodb:BatchWriteItem',
          'dynamodb:ConditionCheckItem',
          'dynamodb:DeleteItem',
          'dynamodb:DescribeTable',
          'dynamodb:GetItem',
          'dynamodb:GetRecords',
          'dynamodb:GetShardIterator',
          'dynamodb:PutItem',
          'dynamodb:Query',
          'dynamodb:Scan',
          'dynamodb:UpdateItem',
        ],
        Resource: [tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }],
      },
      { Effect: 'Allow', Action: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'], Resource: { Ref: dataKey } },
      {
        Effect: 'Allow',
        Action: [
          's3:Abort*',
          's3:DeleteObject*',
          's3:GetBucket*',
          's3:GetObject*',
          's3:List*',
          's3:PutObject',
          's3:PutObjectLegalHold',
          's3:PutObjectRetention',
          's3:PutObjectTagging',
          's3:PutObjectVersionTagging',
        ],
        Resource: [bucketArn, { 'Fn::Join': ['', [bucketArn, '/*']] }],
      },
      {
        Effect: 'Allow',
        Action: ['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage', 'sqs:SendMessage'],
        Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
      },
      {
        // The fleet's own queues: made, routed to, drained and deleted by the tasks, only under the fleet's prefix.
        Effect: 'Allow',
        Action: [
          'sqs:ChangeMessageVisibility',
          'sqs:CreateQueue',
          'sqs:DeleteMessage',
          'sqs:DeleteQueue',
          'sqs:GetQueueAttributes',
          'sqs:GetQueueUrl',
          'sqs:ReceiveMessage',
          'sqs:SendMessage',
        ],
        Resource: {
          'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sqs:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:${fleetPrefix()}*`]],
        },
      },
    ]);
  });

  it('is not the execution role, which may only pull the image and write the log group', () => {
    const executionRoleId = task.Properties.ExecutionRoleArn['Fn::GetAtt'][0] as string;
    expect(executionRoleId).not.toBe(task.Properties.TaskRoleArn['Fn::GetAtt'][0]);
    const actions = statementsOfRole(template, executionRoleId)
      .flatMap((s) => [s.Action].flat())
      .sort();
    expect(actions).toEqual([
      'ecr:BatchCheckLayerAvailability',
      'ecr:BatchGetImage',
      'ecr:GetAuthorizationToken',
      'ecr:GetDownloadUrlForLayer',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
    ]);
  });
});
