import { revokeToken } from '#db/revocations.ts';
import type { Ports } from '../ports.ts';
import type { Session } from '../session.ts';

/**
 * Ends a session: its token is refused from now until it would have expired, and its realtime
 * connections are closed by the stream (functions/streams/close-sessions.ts).
 */
export function logout(ports: Ports, session: Session): Promise<void> {
  const { jti, exp } = session.claims;
  return revokeToken(ports.table, { jti, expiresAt: exp, accountId: session.accountId, userId: session.user.id });
}
