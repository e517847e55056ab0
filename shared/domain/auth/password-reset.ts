import type { ResetPasswordAnswer, ResetPasswordPayload } from '#contracts/auth.ts';
import { errorTexts } from '#contracts/errors.ts';
import { isStrongPassword } from '#contracts/password.ts';
import { refusedBy, replaceIfUnchangedStep, writeTogether } from '#db/transaction.ts';
import { getUserItem, type UserItem, userFields, userItem, usersByEmail } from '#db/users.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { resetMail } from './emails.ts';
import { checkCodeWithinBudget, issueCode, resetCodeLifetimeSeconds } from './one-time-codes.ts';
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
  const code = await issueCode(ports, 'reset', email, email, resetCodeLifetimeSeconds);
  await ports.mailer.send(resetMail(email, code, ports.appUrl));
}

/**
 * Sets a new password with the e-mailed code. When the e-mail has users in several accounts and
 * none was chosen, answers the list (the code stays valid for the second call). The code is used
 * up in the same transaction as the password is written, so of concurrent uses exactly one
 * succeeds; every older session of the user ends and the e-mail counts as confirmed (the code
 * proved it).
 */
export async function resetPassword(ports: Ports, payload: ResetPasswordPayload, address: string): Promise<ResetPasswordAnswer> {
  if (!isStrongPassword(payload.password)) throw fail.invalid(errorTexts.strongPassword);
  const checked = await checkCodeWithinBudget(ports, 'reset', payload.email, payload.verifyCode, address);
  const passwordHash = await ports.passwords.hash(payload.password);
  for (let attempt = 0; ; attempt++) {
    const users = (await usersByEmail(ports.table, checked.address)).filter((u) => !u.archivedAt && u.email === checked.address);
    const inAccounts = users.filter((u) => u.accountId);
    let target: UserItem | undefined;
    if (payload.accountId) target = inAccounts.find((u) => u.accountId === payload.accountId);
    else if (inAccounts.length > 1) return { accounts: await accountChoices(ports, inAccounts) };
    else target = inAccounts[0] ?? users[0];
    // The index may lag a write by a moment; the item itself is read as it is now.
    const current = target && (await getUserItem(ports.table, target.accountId, target.id, true));
    if (!current || current.archivedAt || current.email !== checked.address) throw fail.invalid(errorTexts.invalidCode);

    const next = userItem({
      ...userFields(current),
      passwordHash,
      emailVerified: true,
      sessionGeneration: (current.sessionGeneration ?? 0) + 1,
      updatedAt: ports.clock().toISOString(),
    });
    try {
      await writeTogether(ports.table, { code: checked.spend, user: replaceIfUnchangedStep(next, current.updatedAt) });
      return startSession(ports, next);
    } catch (error) {
      if (refusedBy(error, 'code')) throw fail.invalid(errorTexts.invalidCode);
      if (!refusedBy(error)) throw error;
      // The user changed between the read and the write, or a concurrent transaction got there first: read again.
      if (attempt >= 2) throw fail.invalid(errorTexts.invalidCode);
    }
  }
}
