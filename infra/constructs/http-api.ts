import { join } from 'node:path';
import { Duration, NestedStack, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { HttpRoute } from '#functions/http/routes.ts';
import { NodeFunction, requireEntries } from './node-function.ts';

export interface HttpApiProps {
  /** The route list (`httpRoutes`): every route, its method and handler module. */
  readonly routes: readonly HttpRoute[];
  /** Absolute path of `functions/http`; a route's entry is `${handlersDir}/${handler}.ts`. */
  readonly handlersDir: string;
  /** Repository root, for bundling (package.json `imports` aliases, the lock file). */
  readonly projectRoot: string;
  /** Environment every handler gets. */
  readonly environment: Record<string, string>;
  /** Steady-state requests per second for the whole stage. @default DEFAULT_API_RATE_LIMIT */
  readonly rateLimit?: number;
  /** Burst capacity for the whole stage. @default DEFAULT_API_BURST_LIMIT */
  readonly burstLimit?: number;
}

/**
 * The stage's throttle, all clients together: a ceiling on what a bug or an attack can cost, well
 * above a busy hour (the first 50 a second was about what one browser's inbox burst sends). One
 * address's flood is the WAF's rate rule. Context `apiRateLimit` and `apiBurstLimit` change them.
 */
export const DEFAULT_API_RATE_LIMIT = 500;
export const DEFAULT_API_BURST_LIMIT = 1000;

/** Mount point of the REST API: the route list's paths are relative to it. */
export const API_PREFIX = '/api';

/** `auth/switch-account` -> `AuthSwitchAccount`: a stable construct id per handler module. */
export function handlerConstructId(handler: string): string {
  return handler
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/**
 * The HTTP API (API Gateway v2, payload format 2.0) with one Lambda function per handler module
 * of the route list, mounted under `/api`. Everything is derived from the list: adding a route
 * there adds its function and route here.
 *
 * The API, its stage and access logs belong to the enclosing stack; the functions (with their
 * roles, policies and log groups), integrations, permissions and routes, about seven resources a
 * route, live in nested stacks (`routes`), so the route list can grow without pushing any template
 * past CloudFormation's 500 resources (ADR-0044). Handler folders
 * (areas: `auth`, `contacts`, ...) are packed whole, in route-list order, into stacks of at most
 * `handlersPerStack` functions: `Routes`, then `Routes2`, ...
 */
/** Functions a nested stack of routes holds at most (about seven resources each, well under 500). */
const handlersPerStack = 45;

export class ConversaHttpApi extends Construct {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  /** The nested stacks holding the routes' functions, integrations and routes. */
  readonly routes: NestedStack[] = [];
  /** One function per handler module, keyed by the module path (`auth/login`). */
  readonly functions = new Map<string, NodeFunction>();

  constructor(scope: Construct, id: string, props: HttpApiProps) {
    super(scope, id);

    const entryOf = (handler: string) => join(props.handlersDir, `${handler}.ts`);
    const handlers = [...new Set(props.routes.map((route) => route.handler))];
    requireEntries(this, handlers.map(entryOf), 'routes.ts');

    this.api = new apigw.HttpApi(this, 'Api', {
      description: 'Conversa REST API (/api/*)',
      // The stage is created below, with throttling and access logs.
      createDefaultStage: false,
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.rateLimit ?? DEFAULT_API_RATE_LIMIT, burstLimit: props.burstLimit ?? DEFAULT_API_BURST_LIMIT },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTimeEpoch',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });

    // Areas whole, in route-list order, into stacks of at most `handlersPerStack` functions.
    const areaOf = (handler: string) => handler.split('/').slice(0, -1).join('/');
    const areas = [...new Set(handlers.map(areaOf))].map((area) => handlers.filter((h) => areaOf(h) === area));
    const stackOf = new Map<string, NestedStack>();
    let current: { stack: NestedStack; count: number } | undefined;
    for (const area of areas) {
      if (!current || current.count + area.length > handlersPerStack) {
        const n = this.routes.length + 1;
        const stack = new NestedStack(this, n === 1 ? 'Routes' : `Routes${n}`, {
          description: `Conversa REST API (${n}): one function per handler module, and the routes`,
        });
        this.routes.push(stack);
        current = { stack, count: 0 };
      }
      for (const handler of area) stackOf.set(handler, current.stack);
      current.count += area.length;
    }

    const integrations = new Map<string, HttpLambdaIntegration>();
    for (const handler of handlers) {
      const constructId = handlerConstructId(handler);
      const timeouts = props.routes.filter((r) => r.handler === handler && r.timeoutSeconds).map((r) => r.timeoutSeconds!);
      const fn = new NodeFunction(stackOf.get(handler)!, `${constructId}Fn`, {
        entry: entryOf(handler),
        projectRoot: props.projectRoot,
        description: `http/${handler}`,
        environment: props.environment,
        ...(timeouts.length ? { timeout: Duration.seconds(Math.max(...timeouts)) } : {}),
      });
      this.functions.set(handler, fn);
      integrations.set(
        handler,
        new HttpLambdaIntegration(`${constructId}Integration`, fn, {
          payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
        }),
      );
    }

    for (const route of props.routes) {
      const path = `${API_PREFIX}${route.path}`;
      new apigw.HttpRoute(stackOf.get(route.handler)!, `${route.method}${handlerConstructId(path)}Route`, {
        httpApi: this.api,
        routeKey: apigw.HttpRouteKey.with(path, apigw.HttpMethod[route.method]),
        integration: integrations.get(route.handler)!,
      });
    }
  }

  /** The invoke URL of the default stage (ends with `/`). */
  get url(): string {
    return this.stage.url;
  }
}
