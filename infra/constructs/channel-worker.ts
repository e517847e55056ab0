import { Aws, Duration, RemovalPolicy, Size, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { defaultLivenessPort, livenessProbeCommand } from '#connectors/liveness.ts';
import type { WorkerQueueDef } from '#functions/queues/worker-queue.ts';

/** The worker image's Dockerfile, relative to the repository root (the build context). */
export const workerDockerfile = 'connectors/Dockerfile';

/**
 * The task's size. Half a vCPU: the steady state waits on sockets and the table (bench/whatsapp.md:
 * a send takes 0.05 ms of this process at p95), and the bursts are a start (about 0.4 s of one core
 * to load the bundle) and a rolling deploy's takeover, when every session of the old task opens
 * its socket here within one scan. 2 GiB: see `workerCapacity`.
 */
export const workerTaskSize = { cpu: 512, memoryMiB: 2048 } as const;

/**
 * Sessions one task may hold for a task of `memoryMiB`: three quarters of the memory (the rest for
 * garbage-collection headroom and media passing through), less the process's own 200 MiB (the
 * bundled process measured 121 MB RSS holding one session; the bench, under tsx, 168 MB with none
 * and 198 MB after its messages), divided by 40 MiB a session,
 * the budget the design set (ADR-0064, leases), not the 0.5 MB the bench measured: that is
 * the adapter's floor with a double in place of Baileys' real socket, which it cannot see.
 */
export function workerCapacity(memoryMiB: number): number {
  return Math.floor((memoryMiB * 0.75 - 200) / 40);
}

/**
 * How long ECS waits after SIGTERM before it kills the container (Fargate allows up to 120 s). The
 * graceful stop closes every socket at once and then deletes their leases: seconds. The process
 * gives up on its own 10 s earlier (`STOP_GRACE_SECONDS`), and a killed task's leases still
 * expire within 30 s, so a longer wait would only slow every deploy down.
 */
export const workerStopTimeoutSeconds = 60;

/**
 * The fleet's load, in percent: the sessions wanted over what the live tasks may hold (live tasks
 * times capacity), which every task publishes at each scan (connectors/main.ts). The service
 * scales on it (target tracking): unlike CPU (sessions cost memory, and sit idle) or sessions held
 * (capped by capacity, so it cannot see sessions nobody has room for), it grows with the demand
 * and falls as tasks are added.
 */
export const FLEET_LOAD_METRIC = 'FleetLoad';

/** Lines a worker logs when a command could not be routed (connectors/fleet-queues.ts, `routingFailed`), counted by a metric filter. */
export const FLEET_ROUTING_ERRORS_METRIC = 'FleetRoutingErrors';

/**
 * The age in seconds of the oldest command a task holds (received, not answered: waiting behind
 * its group or running, its visibility renewed by the heartbeat) or received in the last minute,
 * which every task publishes each minute (connectors/main.ts, `oldestCommandSeconds` of
 * connectors/worker-queue.ts). The tasks' own queues are made at run time, so no alarm of the
 * template can name them, and an alarm cannot take a SEARCH expression over their prefix: this is
 * their ApproximateAgeOfOldestMessage as the tasks see it.
 */
export const WORKER_COMMAND_AGE_METRIC = 'WorkerCommandAge';

/**
 * The fleet's autoscaling (ADR-0203): tasks are added when the load
 * passes `targetPercent` (one more every `scaleOutCooldownSeconds` at most) and removed only after
 * `scaleInCooldownSeconds` below it, so a dip does not churn sessions (each removed task hands its
 * sessions over: seconds without their sockets).
 */
export const workerScaling = { targetPercent: 70, scaleOutCooldownSeconds: 120, scaleInCooldownSeconds: 1800 } as const;

/** What the worker counts (connectors/main.ts), as metric names. */
export const WORKER_METRICS = ['MessagesSent', 'MessagesFailed', 'InboundMessages'] as const;

/** WhatsApp closes that stop a session (or a 500), by `reason` (connectors/main.ts, `whatsappEvents`). */
export const WHATSAPP_DISCONNECTS_METRIC = 'WhatsAppDisconnects';

export interface ChannelWorkerProps {
  /** Where the worker's business metrics go (the functions' POWERTOOLS_METRICS_NAMESPACE). */
  readonly metricsNamespace: string;
  /** Repository root: the image's build context (`.dockerignore` says what goes in). */
  readonly projectRoot: string;
  /** The worker queue's definition (`workerQueue`). */
  readonly queue: WorkerQueueDef;
  readonly table: dynamodb.ITableV2;
  /** The data key (channel credentials are sealed with it). */
  readonly dataKey: secretsmanager.ISecret;
  /** The media bucket (inbound media are downloaded into it, outbound read from it). */
  readonly bucket: s3.IBucket;
  /** Tasks to run at first. */
  readonly desiredCount: number;
  /** Fewest tasks autoscaling keeps. @default context `workerMinTasks`, else `desiredCount` */
  readonly minTasks?: number;
  /** Most tasks autoscaling runs. @default context `workerMaxTasks`, else the larger of `minTasks` and 4 */
  readonly maxTasks?: number;
  /** More environment for the container (e.g. TELEGRAM_MODE). */
  readonly environment?: Record<string, string>;
}

/**
 * The channel worker in the cloud: the long-running process that holds WhatsApp sockets
 * (`connectors/main.ts`), as an ECS Fargate service on arm64, and the SQS FIFO queue that carries
 * commands to it. The tasks sit in public subnets with a public IP and a security group with no
 * inbound rule at all (they only dial out: WhatsApp, AWS APIs), so no NAT gateway is paid for;
 * DynamoDB and S3 traffic takes free gateway endpoints. ADR-0080 has the reasons, and ADR-0081 the deployment settings.
 */
export class ChannelWorker extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly vpc: ec2.Vpc;
  readonly securityGroup: ec2.SecurityGroup;
  readonly cluster: ecs.Cluster;
  readonly taskDefinition: ecs.FargateTaskDefinition;
  readonly container: ecs.ContainerDefinition;
  readonly service: ecs.FargateService;
  readonly logGroup: logs.LogGroup;
  /** Own queues of the tasks are named `<fleetPrefix><worker id>.fifo`; the task role may create and delete only those. */
  readonly fleetPrefix: string;
  /** Commands a task could not route (no live task with room, a failed drain), per minute. */
  readonly routingErrors: cloudwatch.Metric;
  /** The oldest command any task holds or received, in seconds, each minute (`WORKER_COMMAND_AGE_METRIC`). */
  readonly commandAge: cloudwatch.Metric;
  readonly scaling: ecs.ScalableTaskCount;

  constructor(scope: Construct, id: string, props: ChannelWorkerProps) {
    super(scope, id);

    const secured = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;
    // Commands that kept failing; the connections' desired state is still in the table, so the
    // worker's scan converges on it anyway.
    this.deadLetterQueue = new sqs.Queue(this, 'Dlq', { ...secured, fifo: true, contentBasedDeduplication: false, retentionPeriod: Duration.days(14) });
    this.queue = new sqs.Queue(this, 'Queue', {
      ...secured,
      fifo: true,
      // Producers give exact ids (the local queue emulator refuses a message without one, as SQS does).
      contentBasedDeduplication: false,
      // One message group per connection: deduplication and throughput per group.
      deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      visibilityTimeout: Duration.seconds(props.queue.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.queue.maxReceiveCount },
    });

    // Up to 75 characters with the worker id (`task-` and 32 hex digits): the stack's name, cut short.
    this.fleetPrefix = `${Stack.of(this)
      .stackName.replace(/[^A-Za-z0-9_-]/g, '-')
      .slice(0, 28)}-worker-`;

    this.vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 }],
      // The default security group keeps no rule (cdk.json's flag says so too; explicit here).
      restrictDefaultSecurityGroup: true,
      // Every flow in and out of the worker's network interfaces (accepted and rejected), aggregated
      // over 10 minutes: a few records an hour per task, kept as long as the stage keeps logs.
      flowLogs: {
        All: {
          destination: ec2.FlowLogDestination.toCloudWatchLogs(new logs.LogGroup(this, 'FlowLogs', { removalPolicy: RemovalPolicy.DESTROY })),
          trafficType: ec2.FlowLogTrafficType.ALL,
          maxAggregationInterval: ec2.FlowLogMaxAggregationInterval.TEN_MINUTES,
        },
      },
      gatewayEndpoints: {
        DynamoDb: { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB, subnets: [{ subnetType: ec2.SubnetType.PUBLIC }] },
        S3: { service: ec2.GatewayVpcEndpointAwsService.S3, subnets: [{ subnetType: ec2.SubnetType.PUBLIC }] },
      },
    });

    this.securityGroup = new ec2.SecurityGroup(this, 'TaskSecurityGroup', {
      vpc: this.vpc,
      description: 'Channel worker tasks: no inbound rule; outbound HTTPS only (WhatsApp, AWS APIs)',
      allowAllOutbound: false,
    });
    this.securityGroup.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS and WSS: WhatsApp, AWS APIs, ECR');

    this.cluster = new ecs.Cluster(this, 'Cluster', {
      vpc: this.vpc,
      // The service's CPU and memory metrics come free with ECS; Container Insights would bill
      // per-task metrics for one or two tasks.
      containerInsightsV2: ecs.ContainerInsights.DISABLED,
    });

    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Task', {
      cpu: workerTaskSize.cpu,
      memoryLimitMiB: workerTaskSize.memoryMiB,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.ARM64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
    });

    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });

    this.container = this.taskDefinition.addContainer('Worker', {
      image: ecs.ContainerImage.fromAsset(props.projectRoot, { file: workerDockerfile, platform: Platform.LINUX_ARM64 }),
      essential: true,
      logging: ecs.LogDrivers.awsLogs({
        streamPrefix: 'worker',
        logGroup: this.logGroup,
        // A slow CloudWatch Logs must never block the process's writes (and with them its sockets).
        mode: ecs.AwsLogDriverMode.NON_BLOCKING,
        maxBufferSize: Size.mebibytes(25),
      }),
      environment: {
        ...props.environment,
        AWS_REGION: Stack.of(this).region,
        TABLE_NAME: props.table.tableName,
        BUCKET_NAME: props.bucket.bucketName,
        DATA_KEY_ARN: props.dataKey.secretArn,
        [props.queue.urlVariable]: this.queue.queueUrl,
        WORKER_CAPACITY: String(workerCapacity(workerTaskSize.memoryMiB)),
        WORKER_FLEET_PREFIX: this.fleetPrefix,
        WORKER_DLQ_ARN: this.deadLetterQueue.queueArn,
        LIVENESS_PORT: String(defaultLivenessPort),
        STOP_GRACE_SECONDS: String(workerStopTimeoutSeconds - 10),
      },
      healthCheck: {
        command: livenessProbeCommand(defaultLivenessPort),
        interval: Duration.seconds(30),
        timeout: Duration.seconds(5),
        retries: 3,
        // Start, read the data key, first scan: a few seconds; the period forgives a slow first scan.
        startPeriod: Duration.seconds(60),
      },
      stopTimeout: Duration.seconds(workerStopTimeoutSeconds),
    });

    // The business metrics the worker counts (sends answered, inbound stored): Powertools prints
    // them as EMF lines, which CloudWatch extracts by itself only from Lambda, so these filters turn
    // the same lines into the same metrics (namespace and dimensions as the functions' EMF).
    for (const metricName of WORKER_METRICS) {
      new logs.MetricFilter(this, `Metric${metricName}`, {
        logGroup: this.logGroup,
        metricNamespace: props.metricsNamespace,
        metricName,
        filterPattern: logs.FilterPattern.numberValue(`$.${metricName}`, '>=', 1),
        metricValue: `$.${metricName}`,
        dimensions: { channel: '$.channel', service: '$.service' },
      });
    }
    new logs.MetricFilter(this, `Metric${WHATSAPP_DISCONNECTS_METRIC}`, {
      logGroup: this.logGroup,
      metricNamespace: props.metricsNamespace,
      metricName: WHATSAPP_DISCONNECTS_METRIC,
      filterPattern: logs.FilterPattern.numberValue(`$.${WHATSAPP_DISCONNECTS_METRIC}`, '>=', 1),
      metricValue: `$.${WHATSAPP_DISCONNECTS_METRIC}`,
      dimensions: { reason: '$.reason', service: '$.service' },
    });

    // The task role: exactly what the worker touches.
    const role = this.taskDefinition.taskRole;
    props.table.grantReadWriteData(role);
    props.dataKey.grantRead(role);
    props.bucket.grantReadWrite(role);
    this.queue.grantConsumeMessages(role);
    // It may put commands back (a send to retry later, a command for a session another task holds).
    this.queue.grantSendMessages(role);
    // The fleet's own queues: each task makes its own, routes commands to the others', drains a dead one's and deletes it; nothing outside the prefix.
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [
          'sqs:CreateQueue',
          'sqs:DeleteQueue',
          'sqs:GetQueueUrl',
          'sqs:GetQueueAttributes',
          'sqs:SendMessage',
          'sqs:ReceiveMessage',
          'sqs:DeleteMessage',
          'sqs:ChangeMessageVisibility',
        ],
        resources: [`arn:${Aws.PARTITION}:sqs:${Aws.REGION}:${Aws.ACCOUNT_ID}:${this.fleetPrefix}*`],
      }),
    );

    this.service = new ecs.FargateService(this, 'Service', {
      cluster: this.cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: props.desiredCount,
      assignPublicIp: true,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      securityGroups: [this.securityGroup],
      // A new task starts and turns healthy before the old one is stopped; the leases, not these
      // numbers, keep one socket per number (ADR-0081).
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      circuitBreaker: { enable: true, rollback: true },
      enableExecuteCommand: false,
      propagateTags: ecs.PropagatedTagSource.SERVICE,
    });

    // The fleet's load and routing failures, from the tasks' EMF lines, as the business metrics above.
    new logs.MetricFilter(this, `Metric${FLEET_LOAD_METRIC}`, {
      logGroup: this.logGroup,
      metricNamespace: props.metricsNamespace,
      metricName: FLEET_LOAD_METRIC,
      filterPattern: logs.FilterPattern.numberValue(`$.${FLEET_LOAD_METRIC}`, '>=', 0),
      metricValue: `$.${FLEET_LOAD_METRIC}`,
    });
    new logs.MetricFilter(this, `Metric${FLEET_ROUTING_ERRORS_METRIC}`, {
      logGroup: this.logGroup,
      metricNamespace: props.metricsNamespace,
      metricName: FLEET_ROUTING_ERRORS_METRIC,
      filterPattern: logs.FilterPattern.literal('"[fleet] routing failed"'),
      metricValue: '1',
      defaultValue: 0,
    });
    new logs.MetricFilter(this, `Metric${WORKER_COMMAND_AGE_METRIC}`, {
      logGroup: this.logGroup,
      metricNamespace: props.metricsNamespace,
      metricName: WORKER_COMMAND_AGE_METRIC,
      filterPattern: logs.FilterPattern.numberValue(`$.${WORKER_COMMAND_AGE_METRIC}`, '>=', 0),
      metricValue: `$.${WORKER_COMMAND_AGE_METRIC}`,
    });
    // The oldest of every task's: one series with no dimension, its Maximum.
    this.commandAge = new cloudwatch.Metric({
      namespace: props.metricsNamespace,
      metricName: WORKER_COMMAND_AGE_METRIC,
      statistic: 'Maximum',
      period: Duration.minutes(1),
    });
    this.routingErrors = new cloudwatch.Metric({
      namespace: props.metricsNamespace,
      metricName: FLEET_ROUTING_ERRORS_METRIC,
      statistic: 'Sum',
      period: Duration.minutes(1),
    });

    const context = (key: string): number | undefined => {
      const value = this.node.tryGetContext(key);
      if (value === undefined) return undefined;
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) throw new Error(`Context ${key} must be a whole number of tasks, at least 1, not ${JSON.stringify(value)}`);
      return n;
    };
    const minTasks = props.minTasks ?? context('workerMinTasks') ?? props.desiredCount;
    const maxTasks = props.maxTasks ?? context('workerMaxTasks') ?? Math.max(minTasks, 4);
    if (maxTasks < minTasks) throw new Error(`workerMaxTasks (${maxTasks}) is under workerMinTasks (${minTasks})`);
    this.scaling = this.service.autoScaleTaskCount({ minCapacity: minTasks, maxCapacity: maxTasks });
    this.scaling.scaleToTrackCustomMetric('FleetLoad', {
      metric: new cloudwatch.Metric({
        namespace: props.metricsNamespace,
        metricName: FLEET_LOAD_METRIC,
        statistic: 'Average',
        period: Duration.minutes(1),
      }),
      targetValue: workerScaling.targetPercent,
      scaleOutCooldown: Duration.seconds(workerScaling.scaleOutCooldownSeconds),
      scaleInCooldown: Duration.seconds(workerScaling.scaleInCooldownSeconds),
    });
  }
}
