/**
 * The realtime link's own messages, apart from the events (`realtime.ts`): the ticket that opens a
 * socket and the keep-alive. No zod here, so the browser's realtime module stays small.
 */

/** `POST /api/ws-ticket`: a one-time ticket for `/ws?ticket=`, valid `expiresIn` seconds. */
export interface WsTicketAnswer {
  ticket: string;
  expiresIn: number;
}

/**
 * The keep-alive the browser sends on an open socket. API Gateway routes it by
 * `$request.body.action` to the `ping` route, which a MOCK integration answers with `pongMessage`
 * without running any function (functions/ws/routes.ts).
 */
export const pingAction = 'ping';
export const pingMessage = JSON.stringify({ action: pingAction });
export const pongMessage = JSON.stringify({ event: 'pong' });

/**
 * How often an open socket pings: half of the 10 minutes after which API Gateway closes a connection
 * that sent nothing and CloudFront one that received nothing.
 */
export const pingIntervalMs = 5 * 60 * 1000;
