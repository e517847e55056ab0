/** The owner the benchmarks seed straight into the table: a verified admin, and the guard of their e-mail. */
import { ulid } from 'ulid';
import { entityTypes, keys } from '../shared/db/keys.ts';
import { newUserItem } from '../shared/db/users.ts';
import { scryptPasswords } from '../functions/lib/scrypt-passwords.ts';

export async function benchOwnerItems(accountId: string, email: string, password: string, now: string): Promise<Record<string, unknown>[]> {
  const user = newUserItem({ id: ulid(), name: 'Dona Bench', email, accountId, passwordHash: await scryptPasswords().hash(password), isAdmin: true }, now);
  return [
    { ...user, isOwner: true, emailVerified: true },
    { ...keys.userEmail(accountId, email), type: entityTypes.userEmail },
  ];
}
