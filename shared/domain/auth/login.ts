import type { LoginAnswer, LoginPayload } from '#contracts/auth.ts';
import { errorTexts } from '#contracts/errors.ts';
import { usersByEmail, type UserItem } from '#db/users.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { type Limit, limits, withinFailureBudget } from './rate-limits.ts';
import { accountChoices, startSession } from './sessions.ts';

/** The users of an e-mail whose password is the one given (each stored hash checked once). */
export async function usersMatchingPassword(ports: Ports, email: string, password: string): Promise<UserItem[]> {
  const candidates = (await usersByEmail(ports.table, email)).filter((u) => !u.archivedAt);
  if (!candidates.length) {
    // Spend the same time as a real check so the answer does not tell whether the e-mail exists.
    await ports.passwords.verify(password, await ports.passwords.hash('timing-equaliser'));
    return [];
  }
  const verdicts = new Map<string, Promise<boolean>>();
  for (const c of candidates) if (!verdicts.has(c.passwordHash)) verdicts.set(c.passwordHash, ports.passwords.verify(password, c.passwordHash));
  const results = await Promise.all(candidates.map((c) => verdicts.get(c.passwordHash)!));
  return candidates.filter((_, i) => results[i]);
}

/**
 * Signs in. When the e-mail and password open several accounts and no accountId was chosen, the
 * answer is the list to choose from; a user still without an account is used only when no
 * account matches. Each try takes a unit of the e-mail's and the address's failure budgets before
 * the password is checked, and gives it back when the password was right.
 */
export function login(ports: Ports, payload: LoginPayload, address: string): Promise<LoginAnswer> {
  const budgets: [Limit, string][] = [
    [limits.loginPerEmail, payload.email],
    [limits.loginPerAddress, address],
  ];
  return withinFailureBudget(ports, budgets, async () => {
    const matching = await usersMatchingPassword(ports, payload.email, payload.password);
    const inAccounts = matching.filter((u) => u.accountId);
    let chosen: UserItem | undefined;
    if (payload.accountId) chosen = inAccounts.find((u) => u.accountId === payload.accountId);
    else if (inAccounts.length > 1) return { users: await accountChoices(ports, inAccounts) };
    else chosen = inAccounts[0] ?? matching[0];
    if (!chosen) throw fail.unauthorized(errorTexts.invalidCredentials);
    return startSession(ports, chosen);
  });
}
