/**
 * The realtime link's one-time tickets (ADR-0187): a browser trades its access token for a ticket
 * over HTTPS (`POST /api/ws-ticket`, the token in a header) and opens the socket with the ticket in
 * the URL, which WAF and CloudFront log; the 7-day token never goes there. A ticket opens one socket,
 * once, within `wsTicketSeconds`, and only while the session that asked it lives.
 */
import { randomBytes } from 'node:crypto';
import type { WsTicketAnswer } from '#contracts/realtime-link.ts';
import { putWsTicket, spendWsTicket } from '#db/ws-tickets.ts';
import { liveSession } from '../auth/resolve-session.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { Session } from '../session.ts';

/** How long a ticket opens a socket: a browser asks it right before connecting. */
const wsTicketSeconds = 30;

/** A random ticket (256 bits) bound to `session`, stored until it is spent or expires. */
export async function issueWsTicket(ports: Ports, session: Session): Promise<WsTicketAnswer> {
  const ticket = randomBytes(32).toString('base64url');
  const { jti, gen, exp } = session.claims;
  await putWsTicket(ports.table, ticket, {
    userId: session.user.id,
    accountId: session.accountId,
    jti,
    generation: gen,
    tokenExpiresAt: exp,
    isAdmin: session.user.isAdmin,
    expiresAt: ports.clock().getTime() + wsTicketSeconds * 1000,
  });
  return { ticket, expiresIn: wsTicketSeconds };
}

/**
 * Spends a ticket and answers the session it was asked by, checked again as every request's is
 * (`liveSession`: revoked, user archived or gone, a newer session generation). Refused (401) when
 * the ticket is missing, unknown, spent, expired, or its token expired meanwhile; spent even then.
 */
export async function redeemWsTicket(ports: Ports, ticket: string | undefined): Promise<Session> {
  if (!ticket) throw fail.unauthorized();
  const item = await spendWsTicket(ports.table, ticket);
  const now = ports.clock().getTime();
  if (!item || item.expiresAt <= now || item.tokenExpiresAt * 1000 <= now) throw fail.unauthorized();
  return liveSession(ports, { sub: item.userId, acc: item.accountId, jti: item.jti, gen: item.generation, exp: item.tokenExpiresAt });
}
