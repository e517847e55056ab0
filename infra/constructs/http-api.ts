import { join } from 'node:path';
import { Duration, NestedStack, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { HttpRoute } from '#functions/http/routes.ts';
import { groupEntrySource, groupRoutes, stackLayout, writeGroupEntry } from './http-function-groups.ts';
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
 * The HTTP API (API Gateway v2, payload format 2.0) with its routes served by a few Lambda functions,
 * one per set of rights (`by-rights` in `http-function-groups.ts`, ADR-0202):
 * `api` (every route that needs only the common rights), `payments` (the Stripe secrets) and
 * `channel-control` (the channel worker's queue). A function serving several handler modules is
 * bundled from an entry generated from the route list: each route's module in a table keyed by
 * the route API Gateway matched (`functions/lib/route-table.ts`). Everything is derived from the
 * list: adding a route there adds its route here and its module to its group's function.
 *
 * The API, its stage and access logs belong to the enclosing stack; the functions (with their
 * roles, policies and log groups), integrations, permissions and routes live in nested stacks
 * (`routes`, ADR-0044), groups packed whole into stacks of at most `functionsPerStack` functions.
 */
/** Functions a nested stack of routes holds at most. */
const functionsPerStack = 45;

/** Where the generated entries of grouped functions are written (under the project, ignored by git). */
const groupEntriesDir = (projectRoot: string) => join(projectRoot, 'node_modules', '.cache', 'conversa', 'http-functions');

export class ConversaHttpApi extends Construct {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  /** The nested stacks holding the routes' functions, integrations and routes. */
  readonly routes: NestedStack[] = [];
  /** The function serving each handler module, keyed by the module path (`auth/login`); modules of a group share one. */
  readonly functions = new Map<string, NodeFunction>();
  /** The functions by group name (`api`, `payments`, `channel-control`). */
  readonly groups = new Map<string, NodeFunction>();

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

    const groups = groupRoutes(stackLayout, props.routes);
    const stackOf = new Map<string, NestedStack>();
    let current: { stack: NestedStack; count: number } | undefined;
    for (const group of groups.keys()) {
      if (!current || current.count + 1 > functionsPerStack) {
        const n = this.routes.length + 1;
        const stack = new NestedStack(this, n === 1 ? 'Routes' : `Routes${n}`, {
          description: `Conversa REST API (${n}): one function per set of rights, and the routes`,
        });
        this.routes.push(stack);
        current = { stack, count: 0 };
      }
      stackOf.set(group, current.stack);
      current.count += 1;
    }

    for (const [group, routes] of groups) {
      const modules = [...new Set(routes.map((route) => route.handler))];
      const entry =
        modules.length === 1
          ? entryOf(modules[0]!)
          : writeGroupEntry(groupEntriesDir(props.projectRoot), group, groupEntrySource(routes, props.handlersDir, API_PREFIX));
      // One timeout per function: the longest its routes ask for (API Gateway stops waiting at 30 s anyway).
      const timeouts = routes.filter((r) => r.timeoutSeconds).map((r) => r.timeoutSeconds!);
      const constructId = handlerConstructId(group);
      const stack = stackOf.get(group)!;
      const fn = new NodeFunction(stack, `${constructId}Fn`, {
        entry,
        projectRoot: props.projectRoot,
        description: `http/${group}`,
        environment: props.environment,
        ...(timeouts.length ? { timeout: Duration.seconds(Math.max(...timeouts)) } : {}),
      });
      this.groups.set(group, fn);
      for (const handler of modules) this.functions.set(handler, fn);
      const integration = new HttpLambdaIntegration(`${constructId}Integration`, fn, {
        payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
      });
      for (const route of routes) {
        const path = `${API_PREFIX}${route.path}`;
        new apigw.HttpRoute(stack, `${route.method}${handlerConstructId(path)}Route`, {
          httpApi: this.api,
          routeKey: apigw.HttpRouteKey.with(path, apigw.HttpMethod[route.method]),
          integration,
        });
      }
    }
  }

  /** The invoke URL of the default stage (ends with `/`). */
  get url(): string {
    return this.stage.url;
  }
}
