/**
 * The WebSocket API's routes. The stack and the local gateway both read these lists. API Gateway
 * picks a client message's route by `$request.body.action`, `$default` when no route has that key.
 */
import { pingAction, pongMessage } from '#contracts/realtime-link.ts';

/** Routes that run a function: route key and handler module under functions/ws. */
export const webSocketRoutes = [
  { routeKey: '$connect', handler: 'connect' },
  { routeKey: '$disconnect', handler: 'disconnect' },
  { routeKey: '$default', handler: 'default' },
] as const;

export type WebSocketRouteKey = (typeof webSocketRoutes)[number]['routeKey'];

/** A route API Gateway answers itself (a MOCK integration with a route response): `response` goes back to the client, no function runs. */
export interface WebSocketMockRoute {
  routeKey: string;
  response: string;
}

/**
 * The keep-alive: browsers send `{"action":"ping"}` every few minutes (API Gateway closes a
 * connection idle for 10 minutes, CloudFront one that received nothing for 10) and get
 * `{"event":"pong"}` back, at no Lambda invocation.
 */
export const webSocketMockRoutes: readonly WebSocketMockRoute[] = [{ routeKey: pingAction, response: pongMessage }];
