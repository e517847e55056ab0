import type { VerifyEmailPayload } from '#contracts/auth.ts';
import { findUserById, markEmailVerified } from '#db/users.ts';
import { fail } from '../errors.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { Ports } from '../ports.ts';
import { verificationMail } from './emails.ts';
import { checkCodeWithinBudget, issueCode, spendCode, verifyCodeLifetimeSeconds } from './one-time-codes.ts';
import { consume, limits } from './rate-limits.ts';

/** Confirms a user's e-mail with the code that was sent to it. */
export async function verifyEmail(ports: Ports, payload: VerifyEmailPayload, address: string): Promise<void> {
  await checkCodeWithinBudget(ports, 'verify', payload.userId, payload.verifyCode, address);
  const user = await findUserById(ports.table, payload.userId);
  if (!user) throw fail.invalid(errorTexts.invalidCode);
  await markEmailVerified(ports.table, user, ports.clock().toISOString());
  await spendCode(ports, 'verify', payload.userId);
}

/** Sends a fresh verification code, unless the e-mail is already confirmed. Says nothing either way. */
export async function resendVerification(ports: Ports, userId: string, address: string): Promise<void> {
  await consume(ports, [
    [limits.mailPerEmail, userId],
    [limits.mailPerAddress, address],
  ]);
  const user = await findUserById(ports.table, userId);
  if (!user || user.emailVerified || user.archivedAt) return;
  const code = await issueCode(ports, 'verify', user.id, verifyCodeLifetimeSeconds);
  await ports.mailer.send(verificationMail(user.email, user.name, code, ports.appUrl, user.id));
}
