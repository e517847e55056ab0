/** The WebSocket API's routes: route key and handler module under functions/ws. The stack and the local gateway both read this list. */
export const webSocketRoutes = [
  { routeKey: '$connect', handler: 'connect' },
  { routeKey: '$disconnect', handler: 'disconnect' },
  { routeKey: '$default', handler: 'default' },
] as const;

export type WebSocketRouteKey = (typeof webSocketRoutes)[number]['routeKey'];
