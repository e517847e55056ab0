import { readFileSync } from 'node:fs';
import { App, Stack } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { tableShape } from '#db/table-definition.ts';
import { httpRoutes } from '#functions/http/routes.ts';
import { workerQueue } from '#functions/queues/worker-queue.ts';
import { queueConsumers, visibilityTimeoutSeconds } from '#functions/queues/consumers.ts';
import { consumersOf, routerFilters, routerTimeoutSeconds, streamConsumers, streamRouters } from '#functions/streams/consumers.ts';
import { handlerConstructId } from './constructs/http-api.ts';
import { ACCESS_LOG_DAYS } from './constructs/media-bucket.ts';
import { routerDescription, StreamConsumers } from './constructs/stream-consumers.ts';
import { webSocketMockRoutes, webSocketRoutes } from './constructs/websocket-api.ts';
import { pingAction, pongMessage } from '#contracts/realtime-link.ts';
import { functionOf, groupRoutes, isPaymentHandler } from './constructs/http-function-groups.ts';
import { CONSUMERS_THAT_MANAGE_CONNECTIONS, CONSUMERS_THAT_SEND_MAIL, CONSUMERS_THAT_START_CONNECTIONS, ConversaStack } from './stack.ts';
import { DEFAULT_REGION } from './conversa-app.ts';
import { siteFixture } from './test-support/site-fixture.ts';
import { stageTemplates } from './test-support/stage-templates.ts';
import { wholeTemplate } from './test-support/whole-template.ts';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };

/** The feature flags of cdk.json, so the tests see the template `cdk synth` produces. */
const cdkContext = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

function synth(context: Record<string, unknown> = {}) {
  // Skipping bundling keeps the tests fast and lets them run before every handler file exists.
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  return wholeTemplate(new ConversaStack(app, 'ConversaStack', { siteAssetPath: siteFixture }));
}

function synthStack(props: ConstructorParameters<typeof ConversaStack>[2]) {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
  return new ConversaStack(app, 'ConversaStack', { siteAssetPath: siteFixture, ...props });
}

function resourcesOf(template: Template, type: string): Record<string, Resource> {
  return template.findResources(type) as Record<string, Resource>;
}

const handlerModules = [...new Set(httpRoutes.map((route) => route.handler))];
/** The HTTP functions: one per set of rights (`by-rights`, infra/constructs/http-function-groups.ts), each with its routes. */
const httpGroups = groupRoutes('by-rights', httpRoutes);
/** `http/<group>`: the description of the function that serves a handler module. */
const httpFunctionOf = (handler: string) => `http/${functionOf('by-rights', httpRoutes.find((r) => r.handler === handler)!)}`;
/** The stream's readers: one function per router that has consumers. */
const routers = streamRouters.filter((r) => consumersOf(r.name).length > 0);
/** The description of the function that runs a stream consumer: its router's. */
const runnerOf = (consumer: string) => routerDescription(streamConsumers.find((c) => c.name === consumer)!.router);
/** Whether the router with this description runs any of these consumers. */
const runsAny = (description: string, consumers: Iterable<string>) => [...consumers].some((name) => runnerOf(name) === description);
const wsHandlerModules = [...new Set(webSocketRoutes.map((route) => route.handler))];

/** Our Lambda functions whose description starts with `prefix` (`http/`, `ws/`, `streams/`, `queues/`, or '' for all of ours). */
function functionsOf(template: Template, prefix = ''): [string, Resource][] {
  return Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(([, fn]) => {
    const description = String(fn.Properties.Description);
    return /^(http|ws|streams|queues)\//.test(description) && description.startsWith(prefix);
  });
}

function onlyId(template: Template, type: string): string {
  const ids = Object.keys(resourcesOf(template, type));
  expect(ids, type).toHaveLength(1);
  return ids[0]!;
}

/** The media bucket: the one browsers may reach (it has CORS); the other holds the web app. */
function mediaBucketId(template: Template): string {
  const ids = Object.entries(resourcesOf(template, 'AWS::S3::Bucket'))
    .filter(([, bucket]) => bucket.Properties.CorsConfiguration)
    .map(([id]) => id);
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

/** `https://<distribution domain>`, as the template writes it. */
function siteUrlOf(template: Template): unknown {
  return { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [onlyId(template, 'AWS::CloudFront::Distribution'), 'DomainName'] }]] };
}

/** The logical ids of the JWT secret and the data key, told apart by their description. */
function secretIds(template: Template): { jwt: string; dataKey: string } {
  const secrets = Object.entries(resourcesOf(template, 'AWS::SecretsManager::Secret'));
  const find = (pattern: RegExp) => secrets.find(([, s]) => pattern.test(s.Properties.Description))![0];
  return { jwt: find(/access tokens/), dataKey: find(/at rest/) };
}

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

/** Every statement of the policies attached to a function's role. */
function statementsOf(template: Template, fn: Resource): Statement[] {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}

function allows(statements: Statement[], action: string, resource: (r: unknown) => boolean): boolean {
  return statements.some((s) => s.Effect === 'Allow' && [s.Action].flat().includes(action) && [s.Resource].flat().some(resource));
}

const same = (expected: unknown) => (r: unknown) => JSON.stringify(r) === JSON.stringify(expected);

/** The logical id of the worker queue: the queue whose URL the worker's container gets. */
function workerQueueOf(template: Template): string {
  const [task] = Object.values(resourcesOf(template, 'AWS::ECS::TaskDefinition'));
  const variables = task!.Properties.ContainerDefinitions[0].Environment as { Name: string; Value: { Ref: string } }[];
  return variables.find((v) => v.Name === 'WORKER_QUEUE_URL')!.Value.Ref;
}

let template: Template;
beforeAll(() => {
  template = stageTemplates('dev').main;
});

describe('the table', () => {
  it('is one pay-per-request table keyed on pk/sk', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    });
  });

  it('has both GSIs of the table shape, projecting all attributes', () => {
    expect(tableShape.globalIndexes.map((g) => g.indexName)).toEqual(['gsi1', 'gsi2']);
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      GlobalSecondaryIndexes: tableShape.globalIndexes.map((g) => ({
        IndexName: g.indexName,
        KeySchema: [
          { AttributeName: g.partitionKey, KeyType: 'HASH' },
          { AttributeName: g.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
  });

  it('streams new and old images and expires items on the ttl attribute', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
    });
  });

  it('in prod, has point-in-time recovery and deletion protection, and is retained on stack deletion', () => {
    stageTemplates('prod').main.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        Replicas: [
          Match.objectLike({
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
            DeletionProtectionEnabled: true,
          }),
        ],
      }),
    });
  });
});

/** The logical ids of the two Stripe secrets, told apart by their description. */
function stripeSecretIds(template: Template): { apiKey: string; webhook: string } {
  const secrets = Object.entries(resourcesOf(template, 'AWS::SecretsManager::Secret'));
  const find = (pattern: RegExp) => secrets.find(([, s]) => pattern.test(s.Properties.Description))![0];
  return { apiKey: find(/Stripe secret API key/), webhook: find(/Stripe webhook endpoint/) };
}

describe('the secrets', () => {
  it('are five: the JWT signing key and the data key, each generated by Secrets Manager, 64 characters long, the two Stripe secrets and CloudFront’s origin secret', () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 5);
    const { jwt, dataKey } = secretIds(template);
    expect(jwt).not.toBe(dataKey);
    for (const id of [jwt, dataKey]) {
      expect(resourcesOf(template, 'AWS::SecretsManager::Secret')[id]!.Properties.GenerateSecretString).toMatchObject({
        PasswordLength: 64,
        ExcludePunctuation: true,
      });
    }
  });
});

describe('the Lambda functions', () => {
  it('are one per set of HTTP rights, WebSocket route, stream router and queue consumer, and the four schedules', () => {
    expect(httpGroups.size).toBe(3);
    expect(routers.length).toBeGreaterThan(0);
    expect(queueConsumers.length).toBeGreaterThan(0);
    const ours = httpGroups.size + wsHandlerModules.length + routers.length + queueConsumers.length;
    // Plus the scheduled resume of stalled jobs, the lifecycle's timer poller, the campaigns'
    // runner, the product refresher and the webhooks' retries (their own tests below) and CDK's own: the custom resources that strip the worker VPC's default security
    // group of its rules, upload the web app, and (in dev) empty the buckets on deletion.
    template.resourceCountIs('AWS::Lambda::Function', ours + 5 + 3);
    template.resourceCountIs('Custom::VpcRestrictDefaultSG', 1);
    expect(functionsOf(template)).toHaveLength(ours);
    const descriptions = functionsOf(template).map(([, fn]) => fn.Properties.Description as string);
    expect(descriptions.sort()).toEqual(
      [
        ...[...httpGroups.keys()].map((group) => `http/${group}`),
        ...wsHandlerModules.map((h) => `ws/${h}`),
        ...routers.map((r) => routerDescription(r.name)),
        ...queueConsumers.map((c) => `queues/${c.name}`),
      ].sort(),
    );
  });

  it('run Node.js 24 on arm64 with 512 MB and active tracing; 10 s for requests (or what the route asks), twice the slowest consumer call for stream routers, what the queue list says for queue batches', () => {
    // A grouped function waits as long as the slowest of its routes may take.
    const routeTimeout = (description: string) => {
      const timeouts = (httpGroups.get(description.slice('http/'.length)) ?? []).flatMap((r) => (r.timeoutSeconds ? [r.timeoutSeconds] : []));
      return timeouts.length ? Math.max(...timeouts) : undefined;
    };
    const streamTimeout = (description: string) => routerTimeoutSeconds(consumersOf(routers.find((r) => routerDescription(r.name) === description)!.name));
    const queueTimeout = (description: string) => queueConsumers.find((c) => `queues/${c.name}` === description)?.timeoutSeconds;
    for (const [, fn] of functionsOf(template)) {
      const description = String(fn.Properties.Description);
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 512,
        Timeout: description.startsWith('streams/') ? streamTimeout(description) : (queueTimeout(description) ?? routeTimeout(description) ?? 10),
        TracingConfig: { Mode: 'Active' },
      });
    }
    expect(functionsOf(template, 'streams/').every(([, fn]) => fn.Properties.Timeout === streamTimeout(String(fn.Properties.Description)))).toBe(true);
    // The plan-limit consumer archives a Pro account's contacts in one call (300 s) where it can; its router allows two such calls.
    expect(functionsOf(template, runnerOf('plan-limits'))[0]![1].Properties.Timeout).toBe(600);
    expect(functionsOf(template, runnerOf('fanout'))[0]![1].Properties.Timeout).toBe(60);
  });

  it('all get the table, both secret ARNs and the bucket name in their environment', () => {
    const tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
    const bucketId = mediaBucketId(template);
    const { jwt, dataKey } = secretIds(template);
    const all = functionsOf(template);
    expect(all.length).toBe(httpGroups.size + wsHandlerModules.length + routers.length + queueConsumers.length);
    for (const [, fn] of all) {
      expect(fn.Properties.Environment.Variables, fn.Properties.Description).toMatchObject({
        TABLE_NAME: { Ref: tableId },
        JWT_SECRET_ARN: { Ref: jwt },
        DATA_KEY_ARN: { Ref: dataKey },
        BUCKET_NAME: { Ref: bucketId },
        NODE_OPTIONS: '--enable-source-maps',
      });
    }
  });

  it("HTTP functions also get the mail settings, the Telegram webhook origin, (the worker queue's producers) its URL and the Powertools settings, and nothing else", () => {
    const tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
    const bucketId = mediaBucketId(template);
    const { jwt, dataKey } = secretIds(template);
    const workerQueueId = workerQueueOf(template);
    const http = functionsOf(template, 'http/');
    expect(http).toHaveLength(httpGroups.size);
    for (const [, fn] of http.filter(([, f]) => f.Properties.Description !== 'http/payments')) {
      expect(fn.Properties.Environment.Variables).toEqual({
        TABLE_NAME: { Ref: tableId },
        JWT_SECRET_ARN: { Ref: jwt },
        DATA_KEY_ARN: { Ref: dataKey },
        BUCKET_NAME: { Ref: bucketId },
        TELEGRAM_MODE: 'webhook',
        // Through CloudFront and the WAF (the site's URL), not the API's own endpoint.
        TELEGRAM_WEBHOOK_BASE_URL: siteUrlOf(template),
        ...(fn.Properties.Description === 'http/channel-control' ? { WORKER_QUEUE_URL: { Ref: workerQueueId } } : {}),
        MAIL_FROM: 'nao-responda@example.com',
        APP_URL: siteUrlOf(template),
        // CloudFront's origin secret, which they check (infra/edge-behaviour.test.ts).
        ORIGIN_VERIFY_ARN: {
          Ref: Object.entries(resourcesOf(template, 'AWS::SecretsManager::Secret')).find(([, s]) => /CloudFront/.test(s.Properties.Description))![0],
        },
        NODE_OPTIONS: '--enable-source-maps',
        // Powertools (the operations block of the stack).
        POWERTOOLS_SERVICE_NAME: 'conversa',
        POWERTOOLS_METRICS_NAMESPACE: 'Conversa',
        POWERTOOLS_LOG_LEVEL: 'INFO',
      });
    }
  });

  it('log to their own log group, kept for a week in dev and three months in prod', () => {
    for (const [stage, days] of [
      [template, 7],
      [stageTemplates('prod').main, 90],
    ] as const) {
      const logGroups = resourcesOf(stage, 'AWS::Logs::LogGroup');
      for (const [, fn] of functionsOf(stage)) {
        const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
        expect(logGroups[logGroupId]?.Properties.RetentionInDays).toBe(days);
      }
    }
  });

  it('all may read and write the table and read both secrets', () => {
    const tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
    const { jwt, dataKey } = secretIds(template);
    for (const [, fn] of functionsOf(template)) {
      const statements = statementsOf(template, fn);
      for (const action of ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']) {
        expect(allows(statements, action, same({ 'Fn::GetAtt': [tableId, 'Arn'] })), `${fn.Properties.Description}: ${action}`).toBe(true);
      }
      for (const secret of [jwt, dataKey]) {
        expect(allows(statements, 'secretsmanager:GetSecretValue', same({ Ref: secret })), `${fn.Properties.Description}: ${secret}`).toBe(true);
      }
    }
  });

  it('HTTP functions and the account purge (it tells the owner) may send e-mail; HTTP, stream and queue functions may read and write the bucket; WebSocket functions may do neither', () => {
    const bucketId = mediaBucketId(template);
    const objects = same({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] });
    for (const [, fn] of functionsOf(template)) {
      const description = String(fn.Properties.Description);
      const statements = statementsOf(template, fn);
      const isHttp = description.startsWith('http/');
      const mails = isHttp || runsAny(description, CONSUMERS_THAT_SEND_MAIL);
      const usesBucket = isHttp || description.startsWith('streams/') || description.startsWith('queues/');
      expect(
        allows(statements, 'ses:SendEmail', (r) => r === '*'),
        description,
      ).toBe(mails);
      expect(
        allows(statements, 'ses:SendRawEmail', (r) => r === '*'),
        description,
      ).toBe(mails);
      expect(allows(statements, 's3:GetObject*', objects), description).toBe(usesBucket);
      expect(allows(statements, 's3:PutObject', objects), description).toBe(usesBucket);
    }
  });

  it('may send e-mail only as the SES identity given in context', () => {
    const scoped = synth({ sesIdentity: 'conversa.example' });
    const sesStatements = Object.values(resourcesOf(scoped, 'AWS::IAM::Policy'))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
      .filter((s) => [s.Action].flat().includes('ses:SendEmail'));
    // Plus the webhooks' retries, which mail the admins of a subscription it switches off.
    expect(sesStatements).toHaveLength(httpGroups.size + new Set([...CONSUMERS_THAT_SEND_MAIL].map(runnerOf)).size + 1);
    for (const s of sesStatements) {
      expect(JSON.stringify(s.Resource)).toContain(':identity/conversa.example');
      expect(s.Resource).not.toBe('*');
    }
  });
});

describe('configuration from context', () => {
  let configured: Template;
  beforeAll(() => {
    configured = synth({ mailFrom: 'oi@conversa.example', appUrl: 'https://conversa.example/app' });
  });

  it('gives the HTTP functions MAIL_FROM and APP_URL', () => {
    const http = functionsOf(configured, 'http/');
    expect(http).toHaveLength(httpGroups.size);
    for (const [, fn] of http) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        MAIL_FROM: 'oi@conversa.example',
        APP_URL: 'https://conversa.example/app',
      });
    }
  });

  it("lets browsers reach the bucket from the site's origin and the app URL's origin only", () => {
    configured.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: [siteUrlOf(configured), 'https://conversa.example'] })] },
    });
  });
});

describe('the HTTP API', () => {
  it('is one HTTP API (v2) with a throttled, access-logged $default stage', () => {
    const httpApis = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Api')).filter(([, api]) => api.Properties.ProtocolType === 'HTTP');
    expect(httpApis).toHaveLength(1);
    const stages = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage')).filter((stage) => stage.Properties.ApiId.Ref === httpApis[0]![0]);
    expect(stages).toHaveLength(1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context\\.requestId') },
    });
  });

  it('has one route per entry of the route list, under /api', () => {
    const [httpApiId] = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Api')).find(([, api]) => api.Properties.ProtocolType === 'HTTP')!;
    const routeKeys = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route'))
      .filter((route) => route.Properties.ApiId.Ref === httpApiId)
      .map((route) => route.Properties.RouteKey as string);
    expect(routeKeys.sort()).toEqual(httpRoutes.map((r) => `${r.method} /api${r.path}`).sort());
  });

  it("sends each route to its handler's function with payload format 2.0", () => {
    const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route'));
    const integrations = resourcesOf(template, 'AWS::ApiGatewayV2::Integration');
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
    for (const route of httpRoutes) {
      const routeKey = `${route.method} /api${route.path}`;
      const resource = routes.find((r) => r.Properties.RouteKey === routeKey);
      expect(resource, routeKey).toBeDefined();
      const [, [, integrationRef]] = resource!.Properties.Target['Fn::Join'] as [string, [string, { Ref: string }]];
      const integration = integrations[integrationRef.Ref]!;
      expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      const functionId = integration.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
      expect(functions[functionId]?.Properties.Description, routeKey).toBe(httpFunctionOf(route.handler));
    }
  });

  it('lets API Gateway invoke every route (REST and WebSocket)', () => {
    // Plus EventBridge's permissions to run the scheduled resume, the timer poller, the campaigns' runner, the product refresher and the webhooks' retries.
    template.resourceCountIs('AWS::Lambda::Permission', httpRoutes.length + webSocketRoutes.length + 5);
  });
});

describe('the WebSocket API', () => {
  const wsApiId = () => {
    const apis = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Api')).filter(([, api]) => api.Properties.ProtocolType === 'WEBSOCKET');
    expect(apis).toHaveLength(1);
    return apis[0]![0];
  };

  it('has exactly the $connect, $disconnect, $default and ping routes, with no API Gateway authorizer', () => {
    const apiId = wsApiId();
    const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).filter((route) => route.Properties.ApiId.Ref === apiId);
    expect(routes.map((r) => r.Properties.RouteKey).sort()).toEqual(['$connect', '$default', '$disconnect', 'ping']);
    expect(webSocketRoutes.map((r) => r.routeKey).sort()).toEqual(['$connect', '$default', '$disconnect']);
    expect(webSocketMockRoutes.map((r) => r.routeKey)).toEqual(['ping']);
    for (const route of routes) expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
  });

  it("sends each route to its handler's function (functions/ws/<handler>.ts)", () => {
    const apiId = wsApiId();
    const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).filter((route) => route.Properties.ApiId.Ref === apiId);
    const integrations = resourcesOf(template, 'AWS::ApiGatewayV2::Integration');
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
    for (const { routeKey, handler } of webSocketRoutes) {
      const route = routes.find((r) => r.Properties.RouteKey === routeKey);
      expect(route, routeKey).toBeDefined();
      const [, [, integrationRef]] = route!.Properties.Target['Fn::Join'] as [string, [string, { Ref: string }]];
      const integration = integrations[integrationRef.Ref]!;
      expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
      const uri = JSON.stringify(integration.Properties.IntegrationUri);
      const target = Object.entries(functions).find(([id]) => uri.includes(`"${id}"`));
      expect(target?.[1].Properties.Description, routeKey).toBe(`ws/${handler}`);
    }
  });

  it('answers the keep-alive on a ping route with a MOCK integration: API Gateway itself sends the pong back, no function runs', () => {
    // Browsers send {"action":"ping"}; the API routes on $request.body.action.
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' });
    const apiId = wsApiId();
    const route = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).find(
      ([, r]) => r.Properties.ApiId.Ref === apiId && r.Properties.RouteKey === pingAction,
    );
    expect(route).toBeDefined();
    const [routeId, { Properties: routeProps }] = route!;
    // Two-way: the route has a response, so the pong reaches the client (bytes from the origin
    // are what keeps CloudFront's idle timer from closing the socket).
    expect(routeProps.RouteResponseSelectionExpression).toBe('$default');
    template.hasResourceProperties('AWS::ApiGatewayV2::RouteResponse', { ApiId: { Ref: apiId }, RouteId: { Ref: routeId }, RouteResponseKey: '$default' });
    const [, [, integrationRef]] = routeProps.Target['Fn::Join'] as [string, [string, { Ref: string }]];
    const integration = resourcesOf(template, 'AWS::ApiGatewayV2::Integration')[integrationRef.Ref]!;
    expect(integration.Properties).toMatchObject({
      IntegrationType: 'MOCK',
      TemplateSelectionExpression: '\\$default',
      RequestTemplates: { $default: '{"statusCode":200}' },
    });
    expect(integration.Properties.IntegrationUri ?? '').toBe('');
    template.hasResourceProperties('AWS::ApiGatewayV2::IntegrationResponse', {
      ApiId: { Ref: apiId },
      IntegrationId: { Ref: integrationRef.Ref },
      IntegrationResponseKey: '$default',
      TemplateSelectionExpression: '\\$default',
      ResponseTemplates: { $default: pongMessage },
    });
  });

  it('has an auto-deployed, throttled stage named ws (the path browsers use on the site)', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: wsApiId() },
      StageName: 'ws',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    });
  });
});

describe('the media bucket', () => {
  it('is one bucket that blocks all public access and owns its objects', () => {
    // The site's bucket and its CloudFront access logs, the media bucket and its access logs.
    template.resourceCountIs('AWS::S3::Bucket', 4);
    mediaBucketId(template);
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
  });

  it('writes server access logs to a private, TLS-only bucket of its own that keeps them 90 days', () => {
    const media = resourcesOf(template, 'AWS::S3::Bucket')[mediaBucketId(template)]!;
    const logsId = (media.Properties.LoggingConfiguration as { DestinationBucketName: { Ref: string } }).DestinationBucketName.Ref;
    expect(media.Properties.LoggingConfiguration).toEqual({ DestinationBucketName: { Ref: logsId }, LogFilePrefix: 'media/' });
    const logs = resourcesOf(template, 'AWS::S3::Bucket')[logsId]!;
    expect(logs.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LifecycleConfiguration: { Rules: [{ Id: 'expire-access-logs', ExpirationInDays: ACCESS_LOG_DAYS, Status: 'Enabled' }] },
    });
    expect(logs.Properties.LoggingConfiguration).toBeUndefined();
    // S3's log delivery may write there, from this account and the media bucket only; nobody without TLS.
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logsId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Action: 's3:PutObject',
            Principal: { Service: 'logging.s3.amazonaws.com' },
            Condition: {
              ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [mediaBucketId(template), 'Arn'] } },
              StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
            },
          }),
        ]),
      },
    });
  });

  it('is encrypted at rest and refuses requests without TLS', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: Match.stringLikeRegexp('^(AES256|aws:kms)$') } }],
      },
    });
    const bucketId = mediaBucketId(template);
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  it('lets the app origin PUT, GET and HEAD with any header (presigned uploads and downloads)', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: {
        CorsRules: [
          Match.objectLike({
            AllowedOrigins: [siteUrlOf(template)],
            AllowedMethods: Match.arrayWith(['PUT', 'GET', 'HEAD']),
            AllowedHeaders: ['*'],
          }),
        ],
      },
    });
  });

  it('aborts incomplete multipart uploads after a day and, in prod, is retained on stack deletion', () => {
    stageTemplates('prod').main.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        LifecycleConfiguration: {
          Rules: [Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' })],
        },
      }),
    });
  });
});

describe('the stream consumers', () => {
  /** The function that runs a consumer (its router's) and that router's event source mapping. */
  function consumer(name: string) {
    const description = runnerOf(name);
    const fns = functionsOf(template, description).filter(([, fn]) => fn.Properties.Description === description);
    expect(fns, name).toHaveLength(1);
    const [fnId, fn] = fns[0]!;
    const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).filter((m) => m.Properties.FunctionName.Ref === fnId);
    expect(mappings, name).toHaveLength(1);
    return { fnId, fn, mapping: mappings[0]!, description };
  }
  const routerOf = (name: string) => consumer(consumersOf(name as (typeof routers)[number]['name'])[0]!.name);

  it("read the table's stream through at most two event source mappings (DynamoDB Streams: no more than two readers of a shard)", () => {
    const tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
    const readers = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).filter(
      (m) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] }),
    );
    expect(readers.length).toBeGreaterThan(0);
    expect(readers.length).toBeLessThanOrEqual(2);
  });

  it('each run in one of the routers, which get one event source mapping each on the table stream; the queue consumers one each on their queue', () => {
    expect(streamConsumers.length).toBeGreaterThan(0);
    expect(streamConsumers.every((c) => routers.some((r) => r.name === c.router))).toBe(true);
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', routers.length + queueConsumers.length);
    const tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
    for (const { name } of streamConsumers) {
      expect(consumer(name).mapping.Properties.EventSourceArn, name).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
    }
    for (const { name } of routers) {
      expect(routerOf(name).fn.Properties.Environment.Variables.STREAM_ROUTER, name).toBe(name);
    }
  });

  it('read from LATEST in their largest consumer batch, one batch per shard at a time, reporting partial failures, bisecting and retrying 5 times', () => {
    for (const { name } of routers) {
      expect(routerOf(name).mapping.Properties, name).toMatchObject({
        BatchSize: Math.max(...consumersOf(name).map((c) => c.batchSize)),
        StartingPosition: 'LATEST',
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        MaximumRetryAttempts: 5,
        ParallelizationFactor: 1,
        MaximumBatchingWindowInSeconds: 0,
      });
    }
  });

  it("are invoked only for records some consumer of the router asks for: at most two patterns (a mapping takes five), covering every consumer's item types", () => {
    for (const { name } of routers) {
      const filters = routerFilters(consumersOf(name));
      expect(filters, name).toBeDefined();
      expect(filters!.length).toBeLessThanOrEqual(2);
      expect(routerOf(name).mapping.Properties.FilterCriteria, name).toEqual({ Filters: filters!.map((f) => ({ Pattern: JSON.stringify(f) })) });
      const text = JSON.stringify(filters);
      for (const c of consumersOf(name)) {
        expect(c.filters, c.name).toBeDefined();
        for (const pattern of c.filters!) {
          const image =
            (pattern.dynamodb as Record<string, { type: { S: string[] } }>).NewImage ??
            (pattern.dynamodb as Record<string, { type: { S: string[] } }>).OldImage;
          for (const type of image!.type.S) expect(text, `${c.name} ${type}`).toContain(`"${type}"`);
        }
      }
    }
  });

  it('include contact-snapshots: contact and tombstone writes in batches of 1000, writing the bucket the API reads snapshots from', () => {
    const { fn, mapping } = consumer('contact-snapshots');
    expect(mapping.Properties.BatchSize).toBe(1000);
    const def = streamConsumers.find((c) => c.name === 'contact-snapshots')!;
    expect(def.batchSize).toBe(1000);
    expect(def.filters).toEqual([{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['Contact', 'ContactTombstone'] } } } }]);
    expect(fn.Properties.Timeout).toBeGreaterThanOrEqual(2 * 120);
    const objects = same({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [mediaBucketId(template), 'Arn'] }, '/*']] });
    expect(allows(statementsOf(template, fn), 's3:PutObject', objects)).toBe(true);
    expect(fn.Properties.Environment.Variables.BUCKET_NAME).toEqual({ Ref: mediaBucketId(template) });
  });

  it("send records that keep failing to their router's own SQS dead-letter queue", () => {
    const queues = resourcesOf(template, 'AWS::SQS::Queue');
    // The routers', plus each queue consumer's queue and dead-letter queue, and the worker queue and its dead-letter queue.
    template.resourceCountIs('AWS::SQS::Queue', routers.length + 2 * queueConsumers.length + 2);
    const destinations = new Set<string>();
    for (const { name } of routers) {
      const { fn, mapping } = routerOf(name);
      const destination = mapping.Properties.DestinationConfig?.OnFailure?.Destination;
      expect(destination, name).toBeDefined();
      const queueId = destination['Fn::GetAtt'][0] as string;
      expect(destination['Fn::GetAtt'][1]).toBe('Arn');
      expect(queues[queueId], name).toBeDefined();
      destinations.add(queueId);
      expect(allows(statementsOf(template, fn), 'sqs:SendMessage', same({ 'Fn::GetAtt': [queueId, 'Arn'] })), name).toBe(true);
    }
    expect(destinations.size).toBe(routers.length);
  });

  it('may read the table stream', () => {
    const tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
    for (const { name } of streamConsumers) {
      const statements = statementsOf(template, consumer(name).fn);
      expect(allows(statements, 'dynamodb:GetRecords', same({ 'Fn::GetAtt': [tableId, 'StreamArn'] })), name).toBe(true);
    }
  });

  it("get the WebSocket stage's callback URL as WS_MANAGEMENT_URL", () => {
    const wsApi = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Api')).find(([, api]) => api.Properties.ProtocolType === 'WEBSOCKET')![0];
    for (const { name } of streamConsumers) {
      expect(consumer(name).fn.Properties.Environment.Variables.WS_MANAGEMENT_URL, name).toEqual({
        // The app's stack has an explicit region (infra/conversa-app.ts), so CDK writes it out.
        'Fn::Join': ['', ['https://', { Ref: wsApi }, `.execute-api.${DEFAULT_REGION}.`, { Ref: 'AWS::URLSuffix' }, '/ws']],
      });
    }
  });

  it('the account purge mails as MAIL_FROM, may delete and list objects of the bucket, and may queue logouts for the channel worker (through its router)', () => {
    expect([...CONSUMERS_THAT_SEND_MAIL]).toEqual(['account-deletion']);
    const { fn } = consumer('account-deletion');
    expect(fn.Properties.Environment.Variables.MAIL_FROM).toBeDefined();
    expect(fn.Properties.Timeout).toBeGreaterThanOrEqual(120);
    const statements = statementsOf(template, fn);
    const bucketId = mediaBucketId(template);
    expect(allows(statements, 's3:DeleteObject*', same({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] }))).toBe(true);
    expect(allows(statements, 's3:List*', same({ 'Fn::GetAtt': [bucketId, 'Arn'] }))).toBe(true);
    expect(fn.Properties.Environment.Variables[workerQueue.urlVariable]).toBeDefined();
    expect(allows(statements, 'sqs:SendMessage', () => true)).toBe(true);
    for (const { name } of streamConsumers) {
      const { fn: runner, description } = consumer(name);
      expect(runner.Properties.Environment.Variables.MAIL_FROM, name).toEqual(runsAny(description, CONSUMERS_THAT_SEND_MAIL) ? expect.anything() : undefined);
    }
  });

  it('may manage WebSocket connections of the ws stage only in the router that runs fanout and close-sessions', () => {
    expect(streamConsumers.map((c) => c.name)).toContain('fanout');
    expect([...CONSUMERS_THAT_MANAGE_CONNECTIONS].every((n) => streamConsumers.some((c) => c.name === n))).toBe(true);
    const wsApi = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Api')).find(([, api]) => api.Properties.ProtocolType === 'WEBSOCKET')![0];
    const connections = (r: unknown) => {
      const text = JSON.stringify(r);
      return text.includes(`{"Ref":"${wsApi}"}`) && text.endsWith('"/ws/*/@connections/*"]]}');
    };
    for (const { name } of routers) {
      const { fn, description } = routerOf(name);
      expect(allows(statementsOf(template, fn), 'execute-api:ManageConnections', connections), name).toBe(
        runsAny(description, CONSUMERS_THAT_MANAGE_CONNECTIONS),
      );
    }
    expect(runsAny(runnerOf('fanout'), CONSUMERS_THAT_MANAGE_CONNECTIONS)).toBe(true);
    // Nobody else may.
    for (const [, fn] of [...functionsOf(template, 'http/'), ...functionsOf(template, 'ws/')]) {
      expect(allows(statementsOf(template, fn), 'execute-api:ManageConnections', () => true)).toBe(false);
    }
  });
});

describe('the send queue', () => {
  const [sendQueue] = queueConsumers;

  /** The queue consumer's function, its mapping, its queue and the queue's dead-letter queue. */
  function queueConsumer(name: string) {
    const [fnId, fn] = functionsOf(template, `queues/${name}`).find(([, f]) => f.Properties.Description === `queues/${name}`)!;
    const mapping = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).find((m) => m.Properties.FunctionName.Ref === fnId)!;
    const queueId = mapping.Properties.EventSourceArn['Fn::GetAtt'][0] as string;
    const queues = resourcesOf(template, 'AWS::SQS::Queue');
    const queue = queues[queueId]!;
    const dlqId = queue.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string;
    return { fnId, fn, mapping, queueId, queue, dlqId, dlq: queues[dlqId]! };
  }

  it('is listed with the send consumer, filled by the outbound dispatcher', () => {
    expect(sendQueue).toMatchObject({ name: 'send-outbound', urlVariable: 'OUTBOUND_QUEUE_URL', fifo: true, batchSize: 10, producers: ['dispatch-outbound'] });
  });

  it('is FIFO, deduplicating on the ids it is given, per message group (high throughput), SQS-encrypted', () => {
    const { queue } = queueConsumer(sendQueue!.name);
    expect(queue.Properties).toMatchObject({
      FifoQueue: true,
      ContentBasedDeduplication: false,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      SqsManagedSseEnabled: true,
    });
  });

  it('hides a batch for six times the consumer timeout, and sends a message to a FIFO dead-letter queue after maxReceiveCount receives', () => {
    const { queue, dlqId, dlq } = queueConsumer(sendQueue!.name);
    expect(queue.Properties.VisibilityTimeout).toBe(visibilityTimeoutSeconds(sendQueue!));
    expect(queue.Properties.VisibilityTimeout).toBe(6 * sendQueue!.timeoutSeconds);
    expect(queue.Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: sendQueue!.maxReceiveCount });
    expect(dlq.Properties).toMatchObject({ FifoQueue: true, SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
  });

  it('refuses requests without TLS, on the queue and its dead-letter queue', () => {
    const { queueId, dlqId } = queueConsumer(sendQueue!.name);
    for (const id of [queueId, dlqId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });

  it('is read by its consumer in batches of 10, reporting partial batch failures', () => {
    const { mapping } = queueConsumer(sendQueue!.name);
    expect(mapping.Properties).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });

  it('lets its consumer change the visibility of its records, and gives it the URL', () => {
    const { fn, queueId } = queueConsumer(sendQueue!.name);
    const statements = statementsOf(template, fn);
    expect(allows(statements, 'sqs:ChangeMessageVisibility', same({ 'Fn::GetAtt': [queueId, 'Arn'] }))).toBe(true);
    expect(allows(statements, 'sqs:DeleteMessage', same({ 'Fn::GetAtt': [queueId, 'Arn'] }))).toBe(true);
    expect(fn.Properties.Environment.Variables.OUTBOUND_QUEUE_URL).toEqual({ Ref: queueId });
  });

  it('may be sent to by the outbound dispatcher only, which gets the URL', () => {
    const { queueId } = queueConsumer(sendQueue!.name);
    for (const [, fn] of functionsOf(template)) {
      const description = String(fn.Properties.Description);
      const producer = runsAny(description, sendQueue!.producers);
      expect(allows(statementsOf(template, fn), 'sqs:SendMessage', same({ 'Fn::GetAtt': [queueId, 'Arn'] })), description).toBe(producer);
      expect(fn.Properties.Environment.Variables.OUTBOUND_QUEUE_URL !== undefined, description).toBe(producer || description === `queues/${sendQueue!.name}`);
    }
  });
});

describe('Telegram', () => {
  const webhookRoute = 'POST /api/webhooks/telegram/{serviceId}';
  // Telegram's webhook needs only the common rights: it is served by the `api` function.
  const webhookFn = () => functionsOf(template, httpFunctionOf('../webhooks/telegram'));

  it('has a public webhook route carrying the connection id, with no API Gateway authorizer', () => {
    const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).filter((r) => r.Properties.RouteKey === webhookRoute);
    expect(routes).toHaveLength(1);
    expect(routes[0]!.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
  });

  it('sends the webhook route to the function holding functions/webhooks/telegram.ts, with 30 s for media downloads', () => {
    expect(webhookFn()).toHaveLength(1);
    const [fnId, fn] = webhookFn()[0]!;
    expect(fn.Properties.Timeout).toBe(30);
    const route = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).find((r) => r.Properties.RouteKey === webhookRoute)!;
    const integrationId = (route.Properties.Target['Fn::Join'][1] as unknown[])[1] as { Ref: string };
    const integration = resourcesOf(template, 'AWS::ApiGatewayV2::Integration')[integrationId.Ref]!;
    expect(JSON.stringify(integration.Properties.IntegrationUri)).toContain(fnId);
  });

  it('lets the webhook function open sealed secrets (the data key) and store messages and media, nothing more', () => {
    const [, fn] = webhookFn()[0]!;
    const statements = statementsOf(template, fn);
    const { dataKey } = secretIds(template);
    expect(allows(statements, 'secretsmanager:GetSecretValue', same({ Ref: dataKey }))).toBe(true);
    expect(allows(statements, 'dynamodb:PutItem', () => true)).toBe(true);
    expect(allows(statements, 's3:PutObject', () => true)).toBe(true);
    expect(allows(statements, 'ses:SendEmail', () => true)).toBe(true);
    expect(fn.Properties.Environment.Variables).not.toHaveProperty('TELEGRAM_TOKEN');
    // Tokens and webhook secrets live sealed in the table; no plaintext secret is in any environment.
    for (const [, f] of functionsOf(template)) {
      expect(JSON.stringify(f.Properties.Environment.Variables)).not.toMatch(/bot\d+:|secret_token/i);
    }
  });

  it('the router that runs the consumers that start connections (plan limits, after an upgrade) gets the Telegram webhook origin; the other does not', () => {
    expect([...CONSUMERS_THAT_START_CONNECTIONS]).toEqual(['plan-limits']);
    for (const { name } of routers) {
      const description = routerDescription(name);
      const [[, fn]] = functionsOf(template, description).filter(([, f]) => f.Properties.Description === description) as [[string, any]];
      const base = fn.Properties.Environment.Variables.TELEGRAM_WEBHOOK_BASE_URL;
      expect(base, name).toEqual(runsAny(description, CONSUMERS_THAT_START_CONNECTIONS) ? siteUrlOf(template) : undefined);
    }
  });

  it('every function sends through the Bot API in webhook mode, and the send queue consumer too', () => {
    for (const [, fn] of functionsOf(template)) expect(fn.Properties.Environment.Variables.TELEGRAM_MODE).toBe('webhook');
    expect(functionsOf(template, 'queues/send-outbound')).toHaveLength(1);
  });

  it('takes the webhook origin and the Bot API root from context when given', () => {
    const custom = synth({ publicApiUrl: 'https://app.example.com', telegramApiRoot: 'https://bot-api.example.com' });
    for (const [, fn] of functionsOf(custom, 'http/')) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        TELEGRAM_WEBHOOK_BASE_URL: 'https://app.example.com',
        TELEGRAM_API_ROOT: 'https://bot-api.example.com',
      });
    }
    for (const [, fn] of [...functionsOf(custom, 'streams/'), ...functionsOf(custom, 'queues/')]) {
      expect(fn.Properties.Environment.Variables.TELEGRAM_API_ROOT).toBe('https://bot-api.example.com');
    }
  });
});

describe('Stripe', () => {
  const webhookRoute = 'POST /api/webhooks/stripe';
  const paymentFunctions = (t: Template) => functionsOf(t, 'http/payments');

  it('has a public webhook route with no API Gateway authorizer, sent to functions/webhooks/stripe.ts', () => {
    const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).filter((r) => r.Properties.RouteKey === webhookRoute);
    expect(routes).toHaveLength(1);
    expect(routes[0]!.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    const [[fnId]] = functionsOf(template, httpFunctionOf('../webhooks/stripe')) as [[string, Resource]];
    const integrationId = (routes[0]!.Properties.Target['Fn::Join'][1] as unknown[])[1] as { Ref: string };
    expect(JSON.stringify(resourcesOf(template, 'AWS::ApiGatewayV2::Integration')[integrationId.Ref]!.Properties.IntegrationUri)).toContain(fnId);
  });

  it('has the payment routes of the route list under /api', () => {
    const keys = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /api/payments/products',
        'POST /api/payments/create-checkout-session',
        'GET /api/payments/checkout-session',
        'POST /api/payments/portal-session',
      ]),
    );
  });

  it("keeps the API key and the webhook secret in Secrets Manager, holding 'unset' until an operator sets them", () => {
    const { apiKey, webhook } = stripeSecretIds(template);
    for (const id of [apiKey, webhook]) {
      const secret = resourcesOf(template, 'AWS::SecretsManager::Secret')[id]!;
      expect(secret.Properties.SecretString).toBe('unset');
      expect(secret.Properties.GenerateSecretString).toBeUndefined();
    }
  });

  it('gives the payment function, serving the payment routes and nothing else, the secret ARNs and read access to them', () => {
    const { apiKey, webhook } = stripeSecretIds(template);
    const payments = paymentFunctions(template);
    expect(payments.map(([, f]) => f.Properties.Description)).toEqual(['http/payments']);
    expect(httpGroups.get('payments')!.map((r) => r.handler)).toEqual(handlerModules.filter(isPaymentHandler));
    expect(
      [...httpGroups]
        .filter(([group]) => group !== 'payments')
        .flatMap(([, routes]) => routes)
        .some((r) => isPaymentHandler(r.handler)),
    ).toBe(false);
    for (const [, fn] of functionsOf(template)) {
      const isPayment = payments.some(([, p]) => p === fn);
      const variables = fn.Properties.Environment.Variables;
      const statements = statementsOf(template, fn);
      for (const [name, id] of [
        ['STRIPE_SECRET_KEY_ARN', apiKey],
        ['STRIPE_WEBHOOK_SECRET_ARN', webhook],
      ] as const) {
        expect(variables[name], `${fn.Properties.Description}: ${name}`).toEqual(isPayment ? { Ref: id } : undefined);
        expect(allows(statements, 'secretsmanager:GetSecretValue', same({ Ref: id })), `${fn.Properties.Description}: ${name}`).toBe(isPayment);
      }
      expect(variables).not.toHaveProperty('STRIPE_SECRET_KEY');
    }
  });

  it("has the product refresher read Stripe's API key (never the webhook's secret) every 10 minutes, with the price context, so the API function serves the product (ADR-0228)", () => {
    const { apiKey, webhook } = stripeSecretIds(template);
    const found = Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(([, fn]) => fn.Properties.Description === 'schedules/refresh-products');
    expect(found).toHaveLength(1);
    const [fnId, fn] = found[0]!;
    const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule')).filter((r) => JSON.stringify(r.Properties.Targets ?? []).includes(fnId));
    expect(rules.map((r) => r.Properties.ScheduleExpression)).toEqual(['rate(10 minutes)']);
    const variables = fn.Properties.Environment.Variables;
    expect(variables.STRIPE_SECRET_KEY_ARN).toEqual({ Ref: apiKey });
    expect(variables).not.toHaveProperty('STRIPE_WEBHOOK_SECRET_ARN');
    const statements = statementsOf(template, fn);
    expect(allows(statements, 'secretsmanager:GetSecretValue', same({ Ref: apiKey }))).toBe(true);
    expect(allows(statements, 'secretsmanager:GetSecretValue', same({ Ref: webhook }))).toBe(false);
    expect(httpGroups.get('api')!.map((r) => r.handler)).toContain('payments/list-products');
    const custom = synth({ stripePriceId: 'price_123' });
    const refresher = Object.values(resourcesOf(custom, 'AWS::Lambda::Function')).find((f) => f.Properties.Description === 'schedules/refresh-products')!;
    expect(refresher.Properties.Environment.Variables).toMatchObject({ STRIPE_PRICE_ID: 'price_123' });
  });

  it('takes the price, or its lookup key, and a Stripe-compatible API URL from context', () => {
    const custom = synth({ stripePriceId: 'price_123', stripePriceLookupKey: 'pro_monthly', stripeApiUrl: 'https://stripe-mock.example.com' });
    const payments = paymentFunctions(custom);
    expect(payments).toHaveLength(1);
    for (const [, fn] of payments) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        STRIPE_PRICE_ID: 'price_123',
        STRIPE_PRICE_LOOKUP_KEY: 'pro_monthly',
        STRIPE_API_URL: 'https://stripe-mock.example.com',
      });
    }
    for (const [, fn] of paymentFunctions(template)) expect(fn.Properties.Environment.Variables).not.toHaveProperty('STRIPE_PRICE_ID');
  });
});

describe('the outputs', () => {
  it('give the API URL, the table name, the WebSocket URL and the bucket name', () => {
    template.hasOutput('ApiUrl', {});
    template.hasOutput('TableName', { Value: { Ref: onlyId(template, 'AWS::DynamoDB::GlobalTable') } });
    template.hasOutput('WebSocketUrl', {
      Value: { 'Fn::Join': ['', Match.arrayWith(['wss://', Match.stringLikeRegexp('^/ws$')])] },
    });
    template.hasOutput('BucketName', { Value: { Ref: mediaBucketId(template) } });
  });
});

describe('synthesis with bundling', () => {
  it('fails naming every handler module that does not exist', () => {
    const app = new App({ context: cdkContext });
    const routes = [
      ...httpRoutes,
      { method: 'GET', path: '/nope', handler: 'nope/missing-one' },
      { method: 'GET', path: '/nope/{id}', handler: 'nope/missing-two' },
    ] as const;
    expect(() => new ConversaStack(app, 'Broken', { routes })).toThrow(/nope\/missing-one\.ts[\s\S]*nope\/missing-two\.ts/);
  });

  it('fails naming every stream consumer module that does not exist', () => {
    const app = new App({ context: cdkContext });
    const stack = new Stack(app, 'Consumers');
    const table = new dynamodb.TableV2(stack, 'Table', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      dynamoStream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
    });
    const consumers = [...streamConsumers, { name: 'ghost', handler: 'ghost-consumer', router: 'jobs' as const, batchSize: 1 }];
    expect(
      () =>
        new StreamConsumers(stack, 'Streams', {
          consumers,
          table,
          handlersDir: new URL('../functions/streams', import.meta.url).pathname,
          projectRoot: new URL('..', import.meta.url).pathname,
          environment: {},
        }),
    ).toThrow(/consumers\.ts[\s\S]*ghost-consumer\.ts/);
  });
});

describe('queue consumers', () => {
  it('fail synthesis with bundling when a module is missing, and a queue naming a producer that is no stream consumer', () => {
    const ghost = { ...queueConsumers[0]!, name: 'ghost', handler: 'ghost-consumer' };
    // No HTTP routes: bundling every route's function first is minutes on a busy machine, and beside the point.
    expect(() => new ConversaStack(new App({ context: cdkContext }), 'Ghost', { queueConsumers: [ghost], routes: [] })).toThrow(
      /queues\/consumers\.ts[\s\S]*ghost-consumer\.ts/,
    );
    const orphan = { ...queueConsumers[0]!, producers: ['nobody'] };
    expect(() => synthStack({ queueConsumers: [orphan] })).toThrow(/producer "nobody"/);
  });
});

describe('handlerConstructId', () => {
  it('turns a handler module path into a PascalCase construct id', () => {
    expect(handlerConstructId('auth/switch-account')).toBe('AuthSwitchAccount');
    expect(handlerConstructId('accounts/get-usage')).toBe('AccountsGetUsage');
  });
});

describe.each([
  { what: "the conversation lifecycle's timer poller", description: 'schedules/fire-timers', timeout: 55 },
  // It sleeps between a campaign's sends for about 55 s of each run (ADR-0227).
  { what: "the campaigns' runner", description: 'schedules/run-campaigns', timeout: 75 },
])('$what', ({ description, timeout }) => {
  const poller = () => {
    const found = Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(([, fn]) => fn.Properties.Description === description);
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('runs every minute from its own rule, without retries (the next minute is the retry), and may read and write the table only', () => {
    const [fnId, fn] = poller();
    const rules = Object.entries(resourcesOf(template, 'AWS::Events::Rule')).filter(([, r]) => JSON.stringify(r.Properties.Targets ?? []).includes(fnId));
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties).toMatchObject({ ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [rules[0]![0], 'Arn'] },
    });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: fnId }, MaximumRetryAttempts: 0 });
    expect(fn.Properties).toMatchObject({ Timeout: timeout, Runtime: 'nodejs24.x', Architectures: ['arm64'] });
    expect(Object.keys(fn.Properties.Environment.Variables)).toContain('TABLE_NAME');
    expect(Object.keys(fn.Properties.Environment.Variables).some((k) => k.includes('SECRET') || k.includes('KEY'))).toBe(false);
  });
});

describe("the webhooks' retries (ADR-0233)", () => {
  it('runs every minute from its own rule without retries, opens the secrets with the data key, mails through SES, and never allows loopback', () => {
    const found = Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(([, fn]) => fn.Properties.Description === 'schedules/deliver-webhooks');
    expect(found).toHaveLength(1);
    const [fnId, fn] = found[0]!;
    const rules = Object.entries(resourcesOf(template, 'AWS::Events::Rule')).filter(([, r]) => JSON.stringify(r.Properties.Targets ?? []).includes(fnId));
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties).toMatchObject({ ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: fnId }, MaximumRetryAttempts: 0 });
    expect(fn.Properties).toMatchObject({ Timeout: 60, Runtime: 'nodejs24.x', Architectures: ['arm64'] });
    const variables = Object.keys(fn.Properties.Environment.Variables);
    expect(variables).toEqual(expect.arrayContaining(['TABLE_NAME', 'DATA_KEY_ARN', 'MAIL_FROM', 'APP_URL']));
    expect(variables).not.toContain('WEBHOOKS_ALLOW_LOOPBACK');
    expect(variables.filter((k) => k.includes('SECRET'))).toEqual([]);
  });
});

describe('the scheduled resume of stalled jobs', () => {
  const resumer = () => {
    const found = Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(([, fn]) => fn.Properties.Description === 'schedules/resume-jobs');
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('runs every 10 minutes from an EventBridge rule whose only target is the resume function, which EventBridge may invoke', () => {
    const [fnId] = resumer();
    const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule')).filter(
      (r) => r.Properties.ScheduleExpression && JSON.stringify(r.Properties.Targets).includes(fnId),
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]!.Properties).toMatchObject({ ScheduleExpression: 'rate(10 minutes)', State: 'ENABLED' });
    expect(rules[0]!.Properties.Targets).toEqual([expect.objectContaining({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })]);
    const ruleId = Object.entries(resourcesOf(template, 'AWS::Events::Rule')).find(([, r]) => r === rules[0])![0];
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
    });
    // A failing run is tried twice more (three errors trip the errors alarm), then left to the next run.
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: fnId }, MaximumRetryAttempts: 2 });
  });

  it('runs Node.js 24 on arm64 with tracing, 60 s, knowing the table and the Powertools settings and no secret', () => {
    const [, fn] = resumer();
    const tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Timeout: 60, TracingConfig: { Mode: 'Active' } });
    expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual(
      ['NODE_OPTIONS', 'POWERTOOLS_LOG_LEVEL', 'POWERTOOLS_METRICS_NAMESPACE', 'POWERTOOLS_SERVICE_NAME', 'TABLE_NAME'].sort(),
    );
    expect(fn.Properties.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableId });
  });

  it('may only list the pending jobs (Query on gsi1) and move them on (UpdateItem), besides writing its traces', () => {
    const [, fn] = resumer();
    const tableId = onlyId(template, 'AWS::DynamoDB::GlobalTable');
    const statements = statementsOf(template, fn);
    const actions = statements.flatMap((s) => [s.Action].flat()).filter((a) => !a.startsWith('xray:'));
    expect(actions.sort()).toEqual(['dynamodb:Query', 'dynamodb:UpdateItem']);
    expect(allows(statements, 'dynamodb:Query', same({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/index/gsi1']] }))).toBe(true);
    expect(allows(statements, 'dynamodb:UpdateItem', same({ 'Fn::GetAtt': [tableId, 'Arn'] }))).toBe(true);
    expect(statements.every((s) => s.Effect === 'Allow')).toBe(true);
  });

  it("is watched by the scheduled functions' Lambda errors alarm (throttles: the account-wide alarm)", () => {
    const [fnId] = resumer();
    for (const prefix of ['OperationsLambdaErrorsScheduled']) {
      const alarms = Object.entries(resourcesOf(template, 'AWS::CloudWatch::Alarm')).filter(([id]) => id.startsWith(prefix));
      expect(alarms, prefix).toHaveLength(1);
      expect(JSON.stringify(alarms[0]![1].Properties.Metrics)).toContain(JSON.stringify({ Ref: fnId }));
    }
  });
});
