import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Aspects, CfnOutput, Duration, SecretValue, Stack, type StackProps, Tags, Token } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { httpRoutes, type HttpRoute } from '#functions/http/routes.ts';
import { queueConsumers, type QueueConsumerDef } from '#functions/queues/consumers.ts';
import { streamConsumers, type StreamConsumerDef } from '#functions/streams/consumers.ts';
import { unsetSecretValue } from '#functions/lib/signing-secret.ts';
import { ORIGIN_VERIFY_HEADER } from '#functions/lib/caller-address.ts';
import { workerQueue, type WorkerQueueDef } from '#functions/queues/worker-queue.ts';
import { serviceTypes } from '#contracts/services.ts';
import { templatePricesFrom } from '#contracts/template-prices.ts';
import { ChannelWorker } from './constructs/channel-worker.ts';
import { DataTable } from './constructs/data-table.ts';
import { JobResumer } from './constructs/job-resumer.ts';
import { TimerFirer } from './constructs/timer-firer.ts';
import { ConversaHttpApi } from './constructs/http-api.ts';
import { isPaymentHandler } from './constructs/http-function-groups.ts';
import { bucketOrigin, MediaBucket, mediaBucketName, originOf } from './constructs/media-bucket.ts';
import { Operations } from './constructs/operations.ts';
import { QueueConsumers } from './constructs/queue-consumers.ts';
import { StreamConsumers } from './constructs/stream-consumers.ts';
import { WebSite } from './constructs/web-site.ts';
import { ConversaWebSocketApi } from './constructs/websocket-api.ts';
import { EDGE_REGION } from './edge-stack.ts';
import { acknowledgeNagFindings } from './nag-suppressions.ts';
import { type StageName, type StageSettings, StageLogPolicy, stageSettings } from './stage.ts';

/** Repository root (this file is `infra/stack.ts`). */
const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export const DEFAULT_MAIL_FROM = 'nao-responda@example.com';
/** Powertools' service name and metrics namespace in the cloud (functions/lib/observability.ts has the same defaults). */
export const SERVICE_NAME = 'conversa';
export const METRICS_NAMESPACE = 'Conversa';
export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;

/**
 * Stream consumers that post to browsers (fanout) or close their connections (close-sessions)
 * through the WebSocket Management API and so get
 * `execute-api:ManageConnections`; the others get the endpoint in their environment but no right
 * to use it.
 */
export const CONSUMERS_THAT_MANAGE_CONNECTIONS: ReadonlySet<string> = new Set(['fanout', 'close-sessions']);

/**
 * Stream consumers that start connections (the plan-limit consumer, after an upgrade) and so need
 * the Telegram webhook base URL that a start registers.
 */
export const CONSUMERS_THAT_START_CONNECTIONS: ReadonlySet<string> = new Set(['plan-limits']);

/** Stream consumers that send e-mail (the account purge tells the owner it is done). */
export const CONSUMERS_THAT_SEND_MAIL: ReadonlySet<string> = new Set(['account-deletion']);

export interface ConversaStackProps extends StackProps {
  /** Sender of verification, reset and account-deletion e-mails. @default context `mailFrom`, else DEFAULT_MAIL_FROM */
  readonly mailFrom?: string;
  /**
   * Public URL of the web app, used in e-mail links and allowed by the media bucket's CORS.
   * @default context `appUrl`, else the site's own URL (custom domain or CloudFront's)
   */
  readonly appUrl?: string;
  /** `dev` or `prod` (ADR-0048). @default context `stage`, else dev */
  readonly stage?: StageName;
  /** The built web app to upload. @default context `siteAssetPath`, else web/dist */
  readonly siteAssetPath?: string;
  /**
   * ARN of the WAF web ACL (scope CLOUDFRONT, in us-east-1) for the distribution; the app wires the
   * edge stack's. @default context `webAclArn`, else none
   */
  readonly webAclArn?: string;
  /**
   * Custom domain of the site and its ACM certificate in us-east-1; both or neither.
   * @default context `domainName` and `certificateArn`, else CloudFront's domain
   */
  readonly domainName?: string;
  readonly certificateArn?: string;
  /**
   * Verified SES identity (domain or address) the functions may send as.
   * @default context `sesIdentity`, else any identity of the account
   */
  readonly sesIdentity?: string;
  /**
   * Public origin Telegram posts webhooks to (`<origin>/api/webhooks/telegram/…`).
   * @default context `publicApiUrl`, else the site's URL (CloudFront and the WAF in front)
   */
  readonly publicApiUrl?: string;
  /** Bot API server. @default context `telegramApiRoot`, else Telegram's own */
  readonly telegramApiRoot?: string;
  /** Graph API root the WhatsApp (API oficial) connector calls. @default context `whatsappCloudGraphUrl`, else Meta's own (connectors/whatsapp-cloud/config.ts) */
  readonly whatsappCloudGraphUrl?: string;
  /**
   * The operator's Meta app for Embedded Signup ('Conectar com a Meta' in the connection form): its
   * app id and its Facebook Login for Business configuration id, both or neither. With them the stack
   * makes the `MetaAppSecret` secret (holding 'unset' until the operator puts the app secret in) and
   * the site's CSP allows Meta's SDK. @default context `metaAppId` and `metaConfigId`, else none
   */
  readonly metaAppId?: string;
  readonly metaConfigId?: string;
  /** @default httpRoutes from functions/http/routes.ts */
  readonly routes?: readonly HttpRoute[];
  /** @default streamConsumers from functions/streams/consumers.ts */
  readonly streamConsumers?: readonly StreamConsumerDef[];
  /** @default queueConsumers from functions/queues/consumers.ts */
  readonly queueConsumers?: readonly QueueConsumerDef[];
  /** @default workerQueue from functions/queues/worker-queue.ts */
  readonly workerQueue?: WorkerQueueDef;
  /** Channel worker tasks (Fargate). @default context `workerDesiredCount`, else 1 */
  readonly workerDesiredCount?: number;
  /** Requests a second the HTTP API's stage accepts, all clients together. @default context `apiRateLimit`, else 500 */
  readonly apiRateLimit?: number;
  /** The stage's burst. @default context `apiBurstLimit`, else 1000 */
  readonly apiBurstLimit?: number;
  /** Where alarms are mailed. @default context `alarmEmail`, else no subscription */
  readonly alarmEmail?: string;
  /** The functions' log level (POWERTOOLS_LOG_LEVEL). @default context `logLevel`, else INFO */
  readonly logLevel?: (typeof LOG_LEVELS)[number];
}

/**
 * The serverless core in the cloud: the table and its stream, the secrets, the media bucket, the
 * REST API with one function per set of rights (ADR-0202), the WebSocket API, one function per table
 * stream consumer, one SQS FIFO queue and function per queue consumer (the send queue), and the
 * channel worker (a Fargate service holding WhatsApp sockets) with its queue, and the web app on
 * CloudFront with `/api` and `/ws` on the same origin. The HTTP routes and their functions are a
 * nested stack (see `ConversaHttpApi`).
 */
export class ConversaStack extends Stack {
  readonly table: DataTable;
  readonly jwtSecret: secretsmanager.Secret;
  /** What CloudFront sends the HTTP API to show a request came through it (and its WAF). */
  readonly originSecret: secretsmanager.Secret;
  readonly dataKey: secretsmanager.Secret;
  readonly stripeSecretKey: secretsmanager.Secret;
  readonly stripeWebhookSecret: secretsmanager.Secret;
  /** The Meta app's secret for Embedded Signup's code exchange; only with `metaAppId` and `metaConfigId`. */
  readonly metaAppSecret?: secretsmanager.Secret;
  readonly media: MediaBucket;
  readonly httpApi: ConversaHttpApi;
  readonly webSocketApi: ConversaWebSocketApi;
  readonly streamConsumers: StreamConsumers;
  readonly queueConsumers: QueueConsumers;
  readonly jobResumer: JobResumer;
  readonly timerFirer: TimerFirer;
  readonly campaignRunner: TimerFirer;
  readonly productsRefresher: TimerFirer;
  readonly webhookRetries: TimerFirer;
  readonly channelWorker: ChannelWorker;
  readonly stage: StageSettings;
  readonly site: WebSite;
  readonly operations: Operations;

  constructor(scope: Construct, id: string, props: ConversaStackProps = {}) {
    super(scope, id, props);

    const context = (key: string): string | undefined => {
      const value: unknown = this.node.tryGetContext(key);
      return typeof value === 'string' && value.length > 0 ? value : undefined;
    };
    const wholeContext = (key: string): number | undefined => {
      const value: unknown = this.node.tryGetContext(key);
      if (value === undefined) return undefined;
      const number = Number(value);
      if (!Number.isInteger(number) || number < 0) throw new Error(`Context ${key} must be a whole number, not ${JSON.stringify(value)}`);
      return number;
    };
    const mailFrom = props.mailFrom ?? context('mailFrom') ?? DEFAULT_MAIL_FROM;
    const sesIdentity = props.sesIdentity ?? context('sesIdentity');
    const telegramApiRoot = props.telegramApiRoot ?? context('telegramApiRoot');
    const whatsappCloudGraphUrl = props.whatsappCloudGraphUrl ?? context('whatsappCloudGraphUrl');
    const metaAppId = props.metaAppId ?? context('metaAppId');
    const metaConfigId = props.metaConfigId ?? context('metaConfigId');
    if (!metaAppId !== !metaConfigId) throw new Error('Give metaAppId and metaConfigId together (Embedded Signup needs both), or neither');
    if (metaAppId && !/^\d{5,25}$/.test(metaAppId)) throw new Error(`Context metaAppId must be the Meta app's numeric id, not ${metaAppId}`);
    if (metaConfigId && !/^\d{5,25}$/.test(metaConfigId)) throw new Error(`Context metaConfigId must be a numeric configuration id, not ${metaConfigId}`);
    // The template price table a campaign's plan estimates with (ADR-0227): an object in
    // cdk.json or its JSON on -c, checked here so a mistyped table fails synthesis, not the route.
    const pricesContext: unknown = this.node.tryGetContext('whatsappTemplatePrices');
    const whatsappTemplatePrices =
      pricesContext === undefined || pricesContext === ''
        ? undefined
        : JSON.stringify(templatePricesFrom(typeof pricesContext === 'string' ? pricesContext : JSON.stringify(pricesContext)));

    this.stage = stageSettings(props.stage ?? this.node.tryGetContext('stage'));
    // Not on the dashboard nor the worker's scalable target: CloudFormation's published resource
    // schemas (what cfn-lint checks against) have no Tags on AWS::CloudWatch::Dashboard or
    // AWS::ApplicationAutoScaling::ScalableTarget, although CDK's L1s take them.
    Tags.of(this).add('conversa:stage', this.stage.name, {
      excludeResourceTypes: ['AWS::CloudWatch::Dashboard', 'AWS::ApplicationAutoScaling::ScalableTarget'],
    });
    Aspects.of(this).add(new StageLogPolicy(this.stage));

    this.table = new DataTable(this, 'Data', {
      removalPolicy: this.stage.dataRemovalPolicy,
      deletionProtection: this.stage.tableDeletionProtection,
      pointInTimeRecovery: this.stage.pointInTimeRecovery,
    });

    // Handlers fetch the value at cold start through JWT_SECRET_ARN: it never appears in the
    // template, the environment or the logs. Alphanumeric, 64 characters (~380 bits).
    // Both generated secrets stay when a prod stack is deleted, like the table: the data key is the
    // only way to open the channel credentials sealed in it (docs/deploy.md, "Re-create prod").
    this.jwtSecret = new secretsmanager.Secret(this, 'JwtSecret', {
      description: 'HMAC key that signs Conversa access tokens',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: this.stage.dataRemovalPolicy,
    });

    // Key material for encrypting channel tokens at rest (AES-256-GCM, key = SHA-256 of it),
    // read through DATA_KEY_ARN like the JWT secret. Separate from it so either can be rotated
    // on its own schedule.
    this.dataKey = new secretsmanager.Secret(this, 'DataKey', {
      description: 'Key material that encrypts Conversa channel credentials at rest',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: this.stage.dataRemovalPolicy,
    });

    // CloudFront adds it to every request for the HTTP API and the WebSocket API, and the HTTP
    // functions and $connect refuse requests without it: neither API's own execute-api URL, which
    // bypasses the WAF, leads anywhere (functions/lib/caller-address.ts). Read through ORIGIN_VERIFY_ARN like the others.
    this.originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description: 'Header value CloudFront sends the Conversa HTTP and WebSocket APIs; requests without it are refused',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    });

    // Stripe's API key and the webhook endpoint's signing secret come from Stripe, not from us: the
    // stack creates them holding 'unset' (payments answer 'not configured') and operators put the
    // real values in after deploying. Only the payment functions may read them.
    this.stripeSecretKey = new secretsmanager.Secret(this, 'StripeSecretKey', {
      description: 'Stripe secret API key (sk_...) for Conversa payments; set after deploy',
      secretStringValue: SecretValue.unsafePlainText(unsetSecretValue),
    });
    this.stripeWebhookSecret = new secretsmanager.Secret(this, 'StripeWebhookSecret', {
      description: 'Signing secret (whsec_...) of the Stripe webhook endpoint /api/webhooks/stripe; set after deploy',
      secretStringValue: SecretValue.unsafePlainText(unsetSecretValue),
    });

    const mediaName = mediaBucketName(this.stage.name);
    this.media = new MediaBucket(this, 'Media', {
      bucketName: mediaName,
      removalPolicy: this.stage.dataRemovalPolicy,
      autoDeleteObjects: this.stage.autoDeleteMedia,
    });
    const bucket = this.media.bucket;

    /** What every function gets, whatever its trigger. */
    const common = {
      TABLE_NAME: this.table.table.tableName,
      JWT_SECRET_ARN: this.jwtSecret.secretArn,
      DATA_KEY_ARN: this.dataKey.secretArn,
      BUCKET_NAME: bucket.bucketName,
      // Telegram updates come to the webhook route; sends are Bot API calls from the functions.
      TELEGRAM_MODE: 'webhook',
      ...(telegramApiRoot ? { TELEGRAM_API_ROOT: telegramApiRoot } : {}),
      // The Cloud API's webhook (media, the quality rating) and sends call the Graph API from the functions.
      ...(whatsappCloudGraphUrl ? { WHATSAPP_CLOUD_GRAPH_URL: whatsappCloudGraphUrl } : {}),
    };

    // First of the function groups: a missing queue consumer module fails synthesis before the
    // other groups spend a minute bundling.
    const queueList = props.queueConsumers ?? queueConsumers;
    this.queueConsumers = new QueueConsumers(this, 'Queues', {
      consumers: queueList,
      handlersDir: join(projectRoot, 'functions', 'queues'),
      projectRoot,
      environment: common,
    });

    this.httpApi = new ConversaHttpApi(this, 'Http', {
      // The stage's throttle is a ceiling for the whole product; one address's flood is the WAF's.
      rateLimit: props.apiRateLimit ?? wholeContext('apiRateLimit'),
      burstLimit: props.apiBurstLimit ?? wholeContext('apiBurstLimit'),
      routes: props.routes ?? httpRoutes,
      handlersDir: join(projectRoot, 'functions', 'http'),
      projectRoot,
      // APP_URL comes with the site, below.
      environment: { ...common, MAIL_FROM: mailFrom, ...(whatsappTemplatePrices ? { WHATSAPP_TEMPLATE_PRICES: whatsappTemplatePrices } : {}) },
    });

    this.webSocketApi = new ConversaWebSocketApi(this, 'Ws', {
      handlersDir: join(projectRoot, 'functions', 'ws'),
      projectRoot,
      environment: common,
    });

    this.streamConsumers = new StreamConsumers(this, 'Streams', {
      consumers: props.streamConsumers ?? streamConsumers,
      table: this.table.table,
      handlersDir: join(projectRoot, 'functions', 'streams'),
      projectRoot,
      environment: { ...common, WS_MANAGEMENT_URL: this.webSocketApi.callbackUrl },
    });

    // Moves on purges and exports whose chain of stream-driven steps broke (ADR-0118); it only lists and nudges them, so it gets the table and no secret.
    this.jobResumer = new JobResumer(this, 'Schedules', {
      table: this.table.table,
      handlersDir: join(projectRoot, 'functions', 'schedules'),
      projectRoot,
      environment: { TABLE_NAME: this.table.table.tableName },
    });
    // The conversation lifecycle's timers (menu timeout, 'no one answered', inactivity), every minute.
    this.timerFirer = new TimerFirer(this, 'LifecycleTimers', {
      table: this.table.table,
      handlersDir: join(projectRoot, 'functions', 'schedules'),
      projectRoot,
      environment: { TABLE_NAME: this.table.table.tableName },
    });
    // The campaigns' lanes (ADR-0227): each run feeds them for about a minute, sleeping between sends.
    this.campaignRunner = new TimerFirer(this, 'CampaignRunner', {
      table: this.table.table,
      handlersDir: join(projectRoot, 'functions', 'schedules'),
      projectRoot,
      environment: { TABLE_NAME: this.table.table.tableName },
      poller: { file: 'run-campaigns.ts', timeout: Duration.seconds(75), description: "Sends the running campaigns' messages at their pace" },
    });

    // Producers: the stream consumers that fill a queue get its URL and may send to it, nothing more.
    for (const consumer of queueList) {
      const queue = this.queueConsumers.queues.get(consumer.name)!;
      for (const producer of consumer.producers) {
        const fn = this.streamConsumers.functions.get(producer);
        if (!fn) throw new Error(`Queue "${consumer.name}" names producer "${producer}", which is not a stream consumer`);
        fn.addEnvironment(consumer.urlVariable, queue.queueUrl);
        queue.grantSendMessages(fn);
      }
    }

    // The channel worker and its queue. Producers: the stream consumers and the HTTP handlers the
    // queue's definition names (a logout goes through the worker that holds the session). The
    // worker never long-polls Telegram: bots have webhooks here.
    const workerQueueDef = props.workerQueue ?? workerQueue;
    this.channelWorker = new ChannelWorker(this, 'Worker', {
      projectRoot,
      queue: workerQueueDef,
      table: this.table.table,
      dataKey: this.dataKey,
      bucket,
      desiredCount: props.workerDesiredCount ?? wholeContext('workerDesiredCount') ?? 1,
      environment: { TELEGRAM_MODE: 'webhook', POWERTOOLS_SERVICE_NAME: SERVICE_NAME, POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE },
      metricsNamespace: METRICS_NAMESPACE,
    });
    const workerProducers = workerQueueDef.producers.map((producer) => {
      const fn = this.streamConsumers.functions.get(producer);
      if (!fn) throw new Error(`The worker queue "${workerQueueDef.name}" names producer "${producer}", which is not a stream consumer`);
      return fn;
    });
    const workerRouteProducers = workerQueueDef.routeProducers.map((handler) => {
      const fn = this.httpApi.functions.get(handler);
      if (!fn) throw new Error(`The worker queue "${workerQueueDef.name}" names route producer "${handler}", which is not an HTTP handler`);
      return fn;
    });
    // Once per function: consumers that share a router share its function.
    for (const fn of new Set([...workerProducers, ...workerRouteProducers])) {
      fn.addEnvironment(workerQueueDef.urlVariable, this.channelWorker.queue.queueUrl);
      this.channelWorker.queue.grantSendMessages(fn);
    }

    // Payments: the Stripe secrets and which price checkout sells (context `stripePriceId` or
    // `stripePriceLookupKey`; `stripeApiUrl` for a Stripe-compatible server other than Stripe's).
    const stripeEnvironment = {
      STRIPE_SECRET_KEY_ARN: this.stripeSecretKey.secretArn,
      STRIPE_WEBHOOK_SECRET_ARN: this.stripeWebhookSecret.secretArn,
      ...Object.fromEntries(
        (
          [
            ['STRIPE_PRICE_ID', context('stripePriceId')],
            ['STRIPE_PRICE_LOOKUP_KEY', context('stripePriceLookupKey')],
            ['STRIPE_API_URL', context('stripeApiUrl')],
          ] as const
        ).filter(([, value]) => value),
      ),
    };
    // Once per function: the payment handlers share one (the `payments` group), which serves nothing else.
    const paymentFunctions = new Set([...this.httpApi.functions].filter(([handler]) => isPaymentHandler(handler)).map(([, fn]) => fn));
    for (const fn of paymentFunctions) {
      for (const [name, value] of Object.entries(stripeEnvironment)) fn.addEnvironment(name, value);
      this.stripeSecretKey.grantRead(fn);
      this.stripeWebhookSecret.grantRead(fn);
    }
    // The product for sale, read from Stripe into the table every 10 minutes (and on Stripe's
    // product and price events), so `GET /payments/products` is served by the `api` function, which
    // holds no Stripe secret (ADR-0228). It reads the API key, never the webhook's secret.
    this.productsRefresher = new TimerFirer(this, 'ProductsRefresher', {
      table: this.table.table,
      handlersDir: join(projectRoot, 'functions', 'schedules'),
      projectRoot,
      environment: {
        TABLE_NAME: this.table.table.tableName,
        ...Object.fromEntries(Object.entries(stripeEnvironment).filter(([name]) => name !== 'STRIPE_WEBHOOK_SECRET_ARN')),
      },
      poller: {
        file: 'refresh-products.ts',
        timeout: Duration.seconds(30),
        description: 'Reads the product for sale from Stripe into the table',
        every: Duration.minutes(10),
      },
    });
    this.stripeSecretKey.grantRead(this.productsRefresher.function);

    const sendEmail = new iam.PolicyStatement({
      actions: ['ses:SendEmail', 'ses:SendRawEmail'],
      resources: [
        sesIdentity
          ? this.formatArn({ service: 'ses', resource: 'identity', resourceName: sesIdentity })
          : // No identity configured: any identity verified in this account and region. SES
            // itself still refuses senders that are not verified.
            '*',
      ],
    });
    const httpFunctions = [...this.httpApi.groups.values()];
    const wsFunctions = [...this.webSocketApi.functions.values()];
    // The routers that run the stream consumers (each consumer's grants go to its router, below).
    const streamFunctions = [...this.streamConsumers.routers.values()];
    const queueFunctions = [...this.queueConsumers.functions.values()];
    for (const fn of [...httpFunctions, ...wsFunctions, ...streamFunctions, ...queueFunctions]) {
      this.table.table.grantReadWriteData(fn);
      this.jwtSecret.grantRead(fn);
      this.dataKey.grantRead(fn);
    }
    for (const fn of httpFunctions) {
      bucket.grantReadWrite(fn);
      fn.addToRolePolicy(sendEmail);
      fn.addEnvironment('ORIGIN_VERIFY_ARN', this.originSecret.secretArn);
      this.originSecret.grantRead(fn);
    }
    // $connect checks the same secret on the WebSocket upgrade (functions/ws/connect.ts).
    const wsConnect = this.webSocketApi.functions.get('connect')!;
    wsConnect.addEnvironment('ORIGIN_VERIFY_ARN', this.originSecret.secretArn);
    this.originSecret.grantRead(wsConnect);
    // Consumers read files to send them and presign downloads.
    for (const fn of streamFunctions) bucket.grantReadWrite(fn);
    // A consumer's rights go to the router that runs it, once per router.
    const routersOf = (names: ReadonlySet<string>) =>
      new Set([...names].map((name) => this.streamConsumers.functions.get(name)).filter((fn) => fn !== undefined));
    for (const fn of routersOf(CONSUMERS_THAT_MANAGE_CONNECTIONS)) this.webSocketApi.stage.grantManagementApiAccess(fn);
    for (const fn of routersOf(CONSUMERS_THAT_SEND_MAIL)) {
      fn.addToRolePolicy(sendEmail);
      fn.addEnvironment('MAIL_FROM', mailFrom);
    }
    // The send queue's consumer reads files to send them and presigns their download URLs.
    for (const fn of queueFunctions) bucket.grantReadWrite(fn);

    // ---- The web app: S3 and CloudFront, with /api and /ws on the same origin ----
    // (ADR-0045). One build serves every stage: the app calls `/api` and
    // `/ws` on whatever origin served it.
    const domainName = props.domainName ?? context('domainName');
    const certificateArn = props.certificateArn ?? context('certificateArn');
    if (!domainName !== !certificateArn) throw new Error('Give both domainName and certificateArn (an ACM certificate in us-east-1), or neither');
    if (certificateArn && !Token.isUnresolved(certificateArn) && certificateArn.split(':')[3] !== EDGE_REGION) {
      throw new Error(`CloudFront needs a certificate in ${EDGE_REGION}, not ${certificateArn}`);
    }
    this.site = new WebSite(this, 'Site', {
      assetPath: props.siteAssetPath ?? context('siteAssetPath') ?? join(projectRoot, 'web', 'dist'),
      httpApiId: this.httpApi.api.apiId,
      // Resolved by CloudFormation at deploy time: the template holds a reference, not the value.
      apiOriginHeaders: { [ORIGIN_VERIFY_HEADER]: this.originSecret.secretValue.unsafeUnwrap() },
      webSocketApiId: this.webSocketApi.api.apiId,
      mediaOrigin: bucketOrigin(mediaName),
      metaSdk: Boolean(metaAppId),
      webAclArn: props.webAclArn ?? context('webAclArn'),
      logRemovalPolicy: this.stage.logRemovalPolicy,
      ...(domainName && certificateArn
        ? { domain: { name: domainName, certificate: acm.Certificate.fromCertificateArn(this, 'SiteCertificate', certificateArn) } }
        : {}),
    });
    const givenAppUrl = props.appUrl ?? context('appUrl');
    const appUrl = givenAppUrl ?? this.site.url;
    this.media.allowBrowsersFrom([this.site.url, ...(givenAppUrl && originOf(givenAppUrl) !== this.site.url ? [originOf(givenAppUrl)] : [])]);
    for (const fn of httpFunctions) fn.addEnvironment('APP_URL', appUrl);
    // Outbound webhooks' retries (ADR-0233): every minute, the deliveries whose
    // next attempt came due, signed with their subscription's secret (the data key opens it); a
    // subscription switched off after a day of failures mails the account's admins.
    this.webhookRetries = new TimerFirer(this, 'WebhookRetries', {
      table: this.table.table,
      handlersDir: join(projectRoot, 'functions', 'schedules'),
      projectRoot,
      environment: { TABLE_NAME: this.table.table.tableName, DATA_KEY_ARN: this.dataKey.secretArn, MAIL_FROM: mailFrom, APP_URL: appUrl },
      poller: { file: 'deliver-webhooks.ts', timeout: Duration.seconds(60), description: 'Retries the webhook deliveries whose next attempt came due' },
    });
    this.dataKey.grantRead(this.webhookRetries.function);
    this.webhookRetries.function.addToRolePolicy(sendEmail);

    // Where Telegram posts updates: `${base}/api/webhooks/telegram/{serviceId}`, through CloudFront
    // and the WAF unless told otherwise (the rate rule leaves webhook paths alone). Start and restart
    // register it with a per-connection secret token that the webhook function checks.
    const webhookBase = props.publicApiUrl ?? context('publicApiUrl') ?? this.site.url;
    if (/\.execute-api\./.test(webhookBase)) {
      throw new Error(
        `publicApiUrl ${webhookBase} is the API's own URL, which refuses what did not come through CloudFront: give the site's URL (or leave it out)`,
      );
    }
    for (const fn of httpFunctions) fn.addEnvironment('TELEGRAM_WEBHOOK_BASE_URL', webhookBase);
    for (const [name, fn] of this.streamConsumers.functions) {
      if (CONSUMERS_THAT_START_CONNECTIONS.has(name)) fn.addEnvironment('TELEGRAM_WEBHOOK_BASE_URL', webhookBase);
    }

    // Embedded Signup (ADR-0217): the routes read the app's ids and secret; whatever
    // starts a WhatsApp (API oficial) connection reads the secret and the public origin, to give a
    // connection on this app its WABA's webhook override (connectors/whatsapp-cloud/webhook-override.ts).
    if (metaAppId && metaConfigId) {
      const metaAppSecret = new secretsmanager.Secret(this, 'MetaAppSecret', {
        description: 'Secret of the Meta app that runs WhatsApp Embedded Signup (App settings > Basic); set after deploy',
        secretStringValue: SecretValue.unsafePlainText(unsetSecretValue),
      });
      this.metaAppSecret = metaAppSecret;
      const starters = [
        ...httpFunctions,
        ...[...this.streamConsumers.functions].filter(([name]) => CONSUMERS_THAT_START_CONNECTIONS.has(name)).map(([, fn]) => fn),
      ];
      for (const fn of new Set(starters)) {
        fn.addEnvironment('META_APP_SECRET_ARN', metaAppSecret.secretArn);
        fn.addEnvironment('WHATSAPP_CLOUD_WEBHOOK_BASE_URL', webhookBase);
        metaAppSecret.grantRead(fn);
      }
      for (const fn of httpFunctions) {
        fn.addEnvironment('META_APP_ID', metaAppId);
        fn.addEnvironment('META_CONFIG_ID', metaConfigId);
      }
    }
    new CfnOutput(this, 'SiteUrl', { value: this.site.url, description: 'The web app (and /api, /ws on the same origin)' });
    new CfnOutput(this, 'DistributionDomain', {
      value: this.site.distribution.distributionDomainName,
      description: 'Point the custom domain here (CNAME or alias)',
    });

    // ---- Operations: Powertools settings of every function, the alarm topic, the alarms and the
    // dashboard (infra/constructs/operations.ts). X-Ray active tracing is a NodeFunction default.
    const logLevel = props.logLevel ?? context('logLevel')?.toUpperCase() ?? 'INFO';
    if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new Error(`Context logLevel must be one of ${LOG_LEVELS.join(', ')}, not ${logLevel}`);
    const scheduledFunctions = [
      this.jobResumer.function,
      this.timerFirer.function,
      this.campaignRunner.function,
      this.productsRefresher.function,
      this.webhookRetries.function,
    ];
    const allFunctions = [...httpFunctions, ...wsFunctions, ...streamFunctions, ...queueFunctions, ...scheduledFunctions];
    for (const fn of allFunctions) {
      fn.addEnvironment('POWERTOOLS_SERVICE_NAME', SERVICE_NAME);
      fn.addEnvironment('POWERTOOLS_METRICS_NAMESPACE', METRICS_NAMESPACE);
      fn.addEnvironment('POWERTOOLS_LOG_LEVEL', logLevel);
    }
    this.operations = new Operations(this, 'Operations', {
      alarmEmail: props.alarmEmail ?? context('alarmEmail'),
      httpApi: this.httpApi.api,
      webSocketStage: this.webSocketApi.stage,
      functionGroups: new Map([
        ['http', httpFunctions],
        ['ws', wsFunctions],
        ['consumers', [...streamFunctions, ...queueFunctions]],
        ['scheduled', scheduledFunctions],
      ]),
      streamConsumers: this.streamConsumers.routers,
      streamConsumerNames: [...this.streamConsumers.functions.keys()],
      deadLetterQueues: new Map([
        ...[...this.streamConsumers.deadLetterQueues].map(([name, queue]) => [`stream router ${name}`, queue] as const),
        ...[...this.queueConsumers.deadLetterQueues].map(([name, queue]) => [`queue ${name}`, queue] as const),
        [`worker queue ${workerQueueDef.name}`, this.channelWorker.deadLetterQueue],
      ]),
      worker: {
        service: this.channelWorker.service,
        queue: this.channelWorker.queue,
        routingErrors: this.channelWorker.routingErrors,
        commandAge: this.channelWorker.commandAge,
      },
      metricsNamespace: METRICS_NAMESPACE,
      serviceName: SERVICE_NAME,
      channels: serviceTypes,
      // `/webhooks/stripe`, `/webhooks/telegram/{serviceId}`: the sources their handlers count refusals of.
      webhookSources: [...new Set((props.routes ?? httpRoutes).filter((r) => r.path.startsWith('/webhooks/')).map((r) => r.path.split('/')[2]!))],
    });
    // ---- End of operations.

    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.url, description: 'Invoke URL of the REST API stage' });
    new CfnOutput(this, 'TableName', { value: this.table.table.tableName, description: 'The DynamoDB table' });
    new CfnOutput(this, 'WebSocketUrl', { value: this.webSocketApi.url, description: 'wss:// URL of the realtime API stage' });
    new CfnOutput(this, 'BucketName', { value: bucket.bucketName, description: 'The media bucket' });
    new CfnOutput(this, 'WorkerService', { value: this.channelWorker.service.serviceName, description: 'The channel worker ECS service' });
    new CfnOutput(this, 'WorkerLogGroup', { value: this.channelWorker.logGroup.logGroupName, description: "The channel worker's logs" });
    new CfnOutput(this, 'AlarmTopic', { value: this.operations.topic.topicArn, description: 'SNS topic every alarm notifies' });

    // cdk-nag (AwsSolutions): what this stack accepts and why, on the resources concerned.
    acknowledgeNagFindings(this, { customDomain: Boolean(domainName && certificateArn), sesIdentity: Boolean(sesIdentity) });
  }
}
