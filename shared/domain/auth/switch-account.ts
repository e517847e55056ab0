import { usersByEmail } from '#db/users.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { Session } from '../session.ts';
import { startSession } from './sessions.ts';

/**
 * Moves the session to another account the same e-mail belongs to ("the call that sets the session
 * account"). Proof of owning the e-mail is a confirmed e-mail or the very same password.
 */
export async function switchAccount(ports: Ports, session: Session, accountId: string) {
  const target = (await usersByEmail(ports.table, session.user.email)).find(
    (u) => u.accountId === accountId && !u.archivedAt && (session.user.emailVerified || u.passwordHash === session.user.passwordHash),
  );
  if (!target) throw fail.notFound();
  return startSession(ports, target);
}
