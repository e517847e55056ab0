import type { RegisterPayload } from '#contracts/auth.ts';
import type { User } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import { isStrongPassword } from '#contracts/password.ts';
import { newUserItem, putNewUser, usersByEmail } from '#db/users.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { verificationMail } from './emails.ts';
import { issueCode, verifyCodeLifetimeSeconds } from './one-time-codes.ts';
import { consume, limits } from './rate-limits.ts';
import { startSession } from './sessions.ts';

/**
 * Signs up a person: a user with no account yet (they create one next), a verification code by
 * e-mail, and a session. An e-mail that already has a user anywhere is refused.
 */
export async function register(ports: Ports, payload: RegisterPayload, address: string): Promise<{ id: string; accessToken: string; user: User }> {
  if (!isStrongPassword(payload.password)) throw fail.invalid(errorTexts.strongPassword);
  await consume(ports, [[limits.registerPerAddress, address]]);
  if ((await usersByEmail(ports.table, payload.email)).length) throw fail.invalid(errorTexts.emailExists);

  const item = newUserItem(
    {
      id: ports.newId(),
      name: payload.name,
      email: payload.email,
      accountId: null,
      passwordHash: await ports.passwords.hash(payload.password),
      isAdmin: false,
    },
    ports.clock().toISOString(),
  );
  await putNewUser(ports.table, item);
  const code = await issueCode(ports, 'verify', item.id, verifyCodeLifetimeSeconds);
  await ports.mailer.send(verificationMail(item.email, item.name, code, ports.appUrl, item.id));
  const session = await startSession(ports, item);
  return { id: item.id, ...session };
}
