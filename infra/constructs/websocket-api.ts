import { join } from 'node:path';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { handlerConstructId } from './http-api.ts';
import { NodeFunction, requireEntries } from './node-function.ts';

import { webSocketRoutes } from '../../functions/ws/routes.ts';

/** The WebSocket routes and their handler modules (functions/ws/routes.ts, shared with the local gateway). */
export { webSocketRoutes };

/**
 * The stage's name, which is also the path browsers connect to on the site's origin
 * (`wss://<site>/ws`): CloudFront forwards `/ws` to the API as it is, and API Gateway takes the
 * first path segment as the stage.
 */
export const WEBSOCKET_STAGE = 'ws';

export interface WebSocketApiProps {
  /** Absolute path of `functions/ws`. */
  readonly handlersDir: string;
  /** Repository root, for bundling. */
  readonly projectRoot: string;
  /** Environment every handler gets. */
  readonly environment: Record<string, string>;
  /** @default WEBSOCKET_STAGE */
  readonly stageName?: string;
  /** Steady-state messages per second for the stage. @default 50 */
  readonly rateLimit?: number;
  /** Burst capacity for the stage. @default 100 */
  readonly burstLimit?: number;
}

/**
 * The realtime API: a WebSocket API whose `$connect`, `$disconnect` and `$default` routes each
 * invoke their own function. No API Gateway authorizer: `$connect` reads the `token` query
 * parameter and checks it itself (tokens are revocable, which needs a table read).
 */
export class ConversaWebSocketApi extends Construct {
  readonly api: apigw.WebSocketApi;
  readonly stage: apigw.WebSocketStage;
  /** One function per route, keyed by handler module (`connect`). */
  readonly functions = new Map<string, NodeFunction>();

  constructor(scope: Construct, id: string, props: WebSocketApiProps) {
    super(scope, id);

    const entryOf = (handler: string) => join(props.handlersDir, `${handler}.ts`);
    requireEntries(
      this,
      webSocketRoutes.map((route) => entryOf(route.handler)),
      'infra/constructs/websocket-api.ts',
    );

    this.api = new apigw.WebSocketApi(this, 'Api', { description: 'Conversa realtime events (WebSocket)' });

    for (const handler of new Set(webSocketRoutes.map((route) => route.handler))) {
      this.functions.set(
        handler,
        new NodeFunction(this, `${handlerConstructId(handler)}Fn`, {
          entry: entryOf(handler),
          projectRoot: props.projectRoot,
          description: `ws/${handler}`,
          environment: props.environment,
        }),
      );
    }
    for (const route of webSocketRoutes) {
      const integration = new WebSocketLambdaIntegration(`${handlerConstructId(route.routeKey)}Integration`, this.functions.get(route.handler)!);
      this.api.addRoute(route.routeKey, { integration });
    }

    this.stage = new apigw.WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: props.stageName ?? WEBSOCKET_STAGE,
      autoDeploy: true,
      throttle: { rateLimit: props.rateLimit ?? 50, burstLimit: props.burstLimit ?? 100 },
    });
  }

  /** `wss://{apiId}.execute-api.{region}.amazonaws.com/{stage}`: what browsers connect to. */
  get url(): string {
    return this.stage.url;
  }

  /** `https://{apiId}.execute-api.{region}.amazonaws.com/{stage}`: the Management API endpoint. */
  get callbackUrl(): string {
    return this.stage.callbackUrl;
  }
}
