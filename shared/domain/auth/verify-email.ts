/**
 * Proving an address: a user's first one (after sign-up or an admin adding them) or the new one a
 * change asked for. A code proves only the address it was sent to (docs/security.md, "Who owns an
 * address"): it confirms the user's address if that is the one, moves the user to it if it is the
 * pending one, and does nothing for any other.
 */
import type { VerifyEmailPayload } from '#contracts/auth.ts';
import { errorTexts } from '#contracts/errors.ts';
import { refusedBy, replaceIfUnchangedStep, writeTogether } from '#db/transaction.ts';
import { claimUserEmailStep, confirmAddressStep, findUserById, getUserItem, releaseUserEmailStep, type UserItem, userFields, userItem } from '#db/users.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { newAddressMail, verificationMail } from './emails.ts';
import { type CheckedCode, checkCodeWithinBudget, issueCode, verifyCodeLifetimeSeconds } from './one-time-codes.ts';
import { consume, limits } from './rate-limits.ts';

/** Confirms the address the code was sent to, and uses the code up (once, whatever runs at the same time). */
export async function verifyEmail(ports: Ports, payload: VerifyEmailPayload, address: string): Promise<void> {
  const checked = await checkCodeWithinBudget(ports, 'verify', payload.userId, payload.verifyCode, address);
  const found = await findUserById(ports.table, payload.userId);
  // The index may lag a write by a moment; the item itself is read as it is now.
  const user = found && (await getUserItem(ports.table, found.accountId, found.id, true));
  const now = ports.clock().toISOString();
  if (user?.pendingEmail && checked.address === user.pendingEmail) return moveToPendingAddress(ports, user, checked, now);
  if (!user || checked.address !== user.email) throw fail.invalid(errorTexts.invalidCode);
  try {
    await writeTogether(ports.table, { code: checked.spend, user: confirmAddressStep(user, checked.address, now) });
  } catch (error) {
    if (refusedBy(error, 'code', 'user')) throw fail.invalid(errorTexts.invalidCode);
    throw error;
  }
}

/**
 * The pending address becomes the user's (confirmed), in one transaction with the code's use and
 * the account's e-mail guards: refused with 'Email already exists' when another user of the
 * account took the address meanwhile.
 */
async function moveToPendingAddress(ports: Ports, user: UserItem, checked: CheckedCode, now: string): Promise<void> {
  if (!user.accountId) throw fail.invalid(errorTexts.invalidCode);
  const next = userItem({ ...userFields(user), email: checked.address, pendingEmail: null, emailVerified: true, updatedAt: now });
  try {
    await writeTogether(ports.table, {
      code: checked.spend,
      user: replaceIfUnchangedStep(next, user.updatedAt),
      newEmail: claimUserEmailStep(user.accountId, next.email, user.id),
      oldEmail: releaseUserEmailStep(user.accountId, user.email),
    });
  } catch (error) {
    if (refusedBy(error, 'newEmail')) throw fail.invalid(errorTexts.emailExists);
    if (refusedBy(error, 'code', 'user')) throw fail.invalid(errorTexts.invalidCode);
    throw error;
  }
}

/**
 * Sends a fresh code to the address waiting for proof: the pending one when a change was asked
 * for, else the user's own while unconfirmed. Says nothing either way.
 */
export async function resendVerification(ports: Ports, userId: string, address: string): Promise<void> {
  await consume(ports, [
    [limits.mailPerEmail, userId],
    [limits.mailPerAddress, address],
  ]);
  const user = await findUserById(ports.table, userId);
  if (!user || user.archivedAt) return;
  await sendAddressCode(ports, user);
}

/** Mails a code for the address `user` is waiting to prove, if any. */
export async function sendAddressCode(ports: Ports, user: UserItem): Promise<void> {
  const to = user.pendingEmail || (user.emailVerified ? null : user.email);
  if (!to) return;
  const code = await issueCode(ports, 'verify', user.id, to, verifyCodeLifetimeSeconds);
  const mail = to === user.email ? verificationMail(to, user.name, code, ports.appUrl, user.id) : newAddressMail(to, user.name, code, ports.appUrl, user.id);
  await ports.mailer.send(mail);
}
