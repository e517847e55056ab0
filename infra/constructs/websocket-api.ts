import { join } from 'node:path';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration, WebSocketMockIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { handlerConstructId } from './http-api.ts';
import { NodeFunction, requireEntries } from './node-function.ts';

import { webSocketMockRoutes, webSocketRoutes } from '#functions/ws/routes.ts';

/** The WebSocket routes and their handler modules, and the routes answered by MOCK integrations (functions/ws/routes.ts, shared with the local gateway). */
export { webSocketMockRoutes, webSocketRoutes };

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
 * invoke their own function, and whose keep-alive route (`ping`) API Gateway answers itself. No API
 * Gateway authorizer: `$connect` reads the one-time `ticket` query parameter and spends it itself
 * (tickets are single-use and bound to a revocable session, which needs table writes and reads).
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
    // MOCK routes: API Gateway answers with the route's response; no function runs, nothing is
    // billed but the messages. Two-way (a route response and an integration response), so the answer
    // reaches the client: bytes from the origin are what keeps CloudFront's idle timer at bay.
    for (const mock of webSocketMockRoutes) {
      const integrationId = `${handlerConstructId(mock.routeKey)}Integration`;
      const route = this.api.addRoute(mock.routeKey, {
        integration: new WebSocketMockIntegration(integrationId, {
          requestTemplates: { $default: JSON.stringify({ statusCode: 200 }) },
          templateSelectionExpression: '\\$default',
        }),
        returnResponse: true,
      });
      const integration = route.node.findChild(integrationId) as apigw.WebSocketIntegration;
      new apigw.CfnIntegrationResponse(route, 'IntegrationResponse', {
        apiId: this.api.apiId,
        integrationId: integration.integrationId,
        integrationResponseKey: '$default',
        templateSelectionExpression: '\\$default',
        responseTemplates: { $default: mock.response },
      });
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
