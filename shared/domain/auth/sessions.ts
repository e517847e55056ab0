/** Turning a user into a signed-in session, and reading the users a session may act as. */
import type { SessionAnswer, AccountChoice } from '#contracts/auth.ts';
import { getAccountItem } from '#db/accounts.ts';
import { type UserItem, usersByEmail } from '#db/users.ts';
import { toUser } from '../users/present-user.ts';
import type { Ports } from '../ports.ts';

export async function accountRef(ports: Ports, accountId: string | null) {
  if (!accountId) return null;
  const account = await getAccountItem(ports.table, accountId);
  return account ? { id: account.id, name: account.name } : null;
}

export async function presentUser(ports: Ports, item: UserItem) {
  return toUser(item, await accountRef(ports, item.accountId));
}

export async function startSession(ports: Ports, item: UserItem): Promise<SessionAnswer> {
  const [{ token }, user] = await Promise.all([ports.tokens.issue(item.id, item.accountId, item.sessionGeneration ?? 0), presentUser(ports, item)]);
  return { accessToken: token, user };
}

/** The choice list shown when one e-mail and password open several accounts. */
export async function accountChoices(ports: Ports, items: UserItem[]): Promise<AccountChoice[]> {
  const choices = await Promise.all(
    items.map(async (item) => {
      const account = await accountRef(ports, item.accountId);
      return account ? { id: item.id, name: item.name, email: item.email, accountId: account.id, account } : null;
    }),
  );
  return choices.filter((c): c is AccountChoice => c !== null).sort((a, b) => a.account.name.localeCompare(b.account.name, 'pt-BR'));
}

/**
 * The users a session may move to (switch-account) and whose accounts it lists: the users of its
 * own e-mail, active and in an account, that share its password hash. A hash is salted, so two
 * users share one only when one was copied from the other (a person creating another account), never
 * by choosing the same password: these are the users the caller's own credentials open. Having the
 * same e-mail string, confirmed or not, proves nothing about who holds another user's password (an
 * admin sets the first password of the users they add), so it is never enough on its own
 * (docs/security.md, "Who owns an address").
 */
export async function reachableUsers(ports: Ports, user: UserItem): Promise<UserItem[]> {
  const sameEmail = await usersByEmail(ports.table, user.email);
  return sameEmail.filter((u) => u.accountId && !u.archivedAt && u.email === user.email && u.passwordHash === user.passwordHash);
}
