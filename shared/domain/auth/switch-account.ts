import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { Session } from '../session.ts';
import { reachableUsers, startSession } from './sessions.ts';

/**
 * Moves the session to another account ("the call that sets the session account"): only to a user
 * the caller's own credentials open (`reachableUsers`), never into another person's user that merely
 * has the same e-mail. Anything else answers 404, as an account the caller does not belong to.
 */
export async function switchAccount(ports: Ports, session: Session, accountId: string) {
  const target = (await reachableUsers(ports, session.user)).find((u) => u.accountId === accountId);
  if (!target) throw fail.notFound();
  return startSession(ports, target);
}
