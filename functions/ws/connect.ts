/**
 * $connect: first refuses (403), in the cloud, an upgrade that did not come through CloudFront (no
 * origin secret header: the WebSocket API's own URL, past the WAF; functions/lib/caller-address.ts),
 * then spends the one-time ticket given as the `ticket` query parameter (`POST /api/ws-ticket`
 * asked it with the access token, which never goes in this URL) and checks its session again:
 * refused (401) when the ticket is missing, unknown, spent, expired, or its session has ended since
 * (revoked, the user archived or removed, a newer session generation). Records the connection under
 * the session's account with the session it was opened with, so ending that session closes it
 * (functions/streams/close-sessions.ts), and the user's role, which the fan-out's visibility filter
 * needs (shared/domain/realtime/audience.ts).
 */
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { recordConnection } from '#db/ws-connections.ts';
import { DomainError } from '#domain/errors.ts';
import { redeemWsTicket } from '#domain/realtime/ws-tickets.ts';
import { cameThroughCloudFront } from '#lib/caller-address.ts';
import { logTenant, observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';

interface ConnectEvent {
  headers?: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string>;
  requestContext: { connectionId: string };
}

export const handler = observed(async (event: ConnectEvent): Promise<APIGatewayProxyResultV2> => {
  // The WebSocket API's own execute-api URL skips CloudFront and its WAF: refused in the cloud.
  if (!(await cameThroughCloudFront(event.headers))) return { statusCode: 403 };
  const ports = defaultPorts();
  try {
    const session = await redeemWsTicket(ports, event.queryStringParameters?.ticket);
    logTenant({ accountId: session.accountId, userId: session.user.id });
    if (!session.accountId) return { statusCode: 403 };
    const now = ports.clock();
    await recordConnection(
      ports.table,
      {
        connectionId: event.requestContext.connectionId,
        accountId: session.accountId,
        userId: session.user.id,
        isAdmin: session.user.isAdmin,
        connectedAt: now.toISOString(),
        jti: session.claims.jti,
        generation: session.claims.gen,
        tokenExpiresAt: session.claims.exp,
      },
      Math.floor(now.getTime() / 1000),
    );
    return { statusCode: 200 };
  } catch (error) {
    if (error instanceof DomainError) return { statusCode: 401 };
    throw error;
  }
});
