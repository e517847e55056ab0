import type { ResetPasswordAnswer, ResetPasswordPayload } from '#contracts/auth.ts';
import { errorTexts } from '#contracts/errors.ts';
import { isStrongPassword } from '#contracts/password.ts';
import { setUserPassword, type UserItem, usersByEmail } from '#db/users.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { resetMail } from './emails.ts';
import { checkCodeWithinBudget, issueCode, resetCodeLifetimeSeconds, spendCode } from './one-time-codes.ts';
import { consume, limits } from './rate-limits.ts';
import { accountChoices, startSession } from './sessions.ts';

/** Sends a reset code to an e-mail that has users. The caller learns nothing about whether it has. */
export async function forgotPassword(ports: Ports, email: string, address: string): Promise<void> {
  await consume(ports, [
    [limits.mailPerEmail, email],
    [limits.mailPerAddress, address],
  ]);
  const users = (await usersByEmail(ports.table, email)).filter((u) => !u.archivedAt);
  if (!users.length) return;
  const code = await issueCode(ports, 'reset', email, resetCodeLifetimeSeconds);
  await ports.mailer.send(resetMail(email, code, ports.appUrl));
}

/**
 * Sets a new password with the e-mailed code. When the e-mail has users in several accounts and
 * none was chosen, answers the list (the code stays valid for the second call).
 */
export async function resetPassword(ports: Ports, payload: ResetPasswordPayload, address: string): Promise<ResetPasswordAnswer> {
  if (!isStrongPassword(payload.password)) throw fail.invalid(errorTexts.strongPassword);
  await checkCodeWithinBudget(ports, 'reset', payload.email, payload.verifyCode, address);
  const users = (await usersByEmail(ports.table, payload.email)).filter((u) => !u.archivedAt);
  const inAccounts = users.filter((u) => u.accountId);
  let target: UserItem | undefined;
  if (payload.accountId) target = inAccounts.find((u) => u.accountId === payload.accountId);
  else if (inAccounts.length > 1) return { accounts: await accountChoices(ports, inAccounts) };
  else target = inAccounts[0] ?? users[0];
  if (!target) throw fail.invalid(errorTexts.invalidCode);

  const now = ports.clock().toISOString();
  const passwordHash = await ports.passwords.hash(payload.password);
  const updated = await setUserPassword(ports.table, target, passwordHash, now);
  await spendCode(ports, 'reset', payload.email);
  return startSession(ports, updated);
}
