import { revokeToken } from '#db/revocations.ts';
import type { Ports } from '../ports.ts';
import type { Session } from '../session.ts';

/** Ends a session: its token is refused from now until it would have expired. */
export function logout(ports: Ports, session: Session): Promise<void> {
  return revokeToken(ports.table, session.claims.jti, session.claims.exp);
}
