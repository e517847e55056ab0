import type { RegisterPayload } from '#contracts/auth.ts';
import type { User } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import { isStrongPassword } from '#contracts/password.ts';
import { refusedBy } from '#db/transaction.ts';
import { findUserById, newUserItem, putSignedUpUser, signupClaimHolder, type UserItem, usersByEmail } from '#db/users.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { consume, limits } from './rate-limits.ts';
import { startSession } from './sessions.ts';
import { sendAddressCode } from './verify-email.ts';

/**
 * Signs up a person: a user with no account yet (they create one next), a verification code by
 * e-mail, and a session. An e-mail that already has a user anywhere is refused; so is the second of
 * two sign-ups racing with one e-mail (the sign-up claim on the e-mail is written with the user).
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
  await storeSignedUp(ports, item);
  await sendAddressCode(ports, item);
  const session = await startSession(ports, item);
  return { id: item.id, ...session };
}

/** Stores the user with the e-mail's sign-up claim; a claim left by a user deleted since is taken over. */
async function storeSignedUp(ports: Ports, item: UserItem): Promise<void> {
  try {
    await putSignedUpUser(ports.table, item);
    return;
  } catch (error) {
    if (!refusedBy(error, 'claim')) throw error;
  }
  const holder = await signupClaimHolder(ports.table, item.email);
  if (holder && (await findUserById(ports.table, holder))) throw fail.invalid(errorTexts.emailExists);
  try {
    await putSignedUpUser(ports.table, item, holder);
  } catch (error) {
    if (refusedBy(error, 'claim')) throw fail.invalid(errorTexts.emailExists);
    throw error;
  }
}
