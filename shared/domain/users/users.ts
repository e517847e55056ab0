/** Users of an account and the rules of docs/product.md#roles-and-permissions that govern them. */
import type { ListAnswer, User } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import { isStrongPassword } from '#contracts/password.ts';
import { effectiveLimits } from '#contracts/plans.ts';
import type { UserCreatePayload, UserUpdatePayload } from '#contracts/users.ts';
import { getAccountItem, releaseSeatStep, takeSeatStep } from '#db/accounts.ts';
import { putNewStep, refusedBy, replaceIfUnchangedStep, writeTogether } from '#db/transaction.ts';
import {
  accountUsers,
  claimUserEmailStep,
  getUserItem,
  newUserItem,
  releaseUserEmailStep,
  userEmailHolder,
  removeUserStep,
  setUserArchivedAt,
  releaseSignupClaim,
  userFields,
  userItem,
  type UserItem,
} from '#db/users.ts';
import { fail } from '../errors.ts';
import { applyListQuery, type ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { toUser } from './present-user.ts';
import { addressChangeNotice } from '../auth/emails.ts';
import { consume, limits } from '../auth/rate-limits.ts';
import { sendAddressCode } from '../auth/verify-email.ts';

export const userListRules: ListRules = {
  fields: ['id', 'name', 'email', 'isAdmin', 'isOwner', 'archivedAt', 'createdAt', 'updatedAt'],
  includes: ['account', 'avatar'],
  defaultOrder: [['name', 'ASC']],
};

async function accountRef(ports: Ports, session: AccountSession) {
  const account = await getAccountItem(ports.table, session.accountId);
  if (!account) throw fail.notFound();
  return account;
}

async function loadUser(ports: Ports, session: AccountSession, id: string): Promise<UserItem> {
  const item = await getUserItem(ports.table, session.accountId, id);
  if (!item) throw fail.notFound();
  return item;
}

export async function listUsers(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<User>> {
  const [account, items] = await Promise.all([accountRef(ports, session), accountUsers(ports.table, session.accountId)]);
  return applyListQuery(
    items.map((i) => toUser(i, account)),
    q,
  );
}

export async function getUser(ports: Ports, session: AccountSession, id: string): Promise<User> {
  const [account, item] = await Promise.all([accountRef(ports, session), loadUser(ports, session, id)]);
  return toUser(item, account);
}

export async function createUser(ports: Ports, session: AccountSession, payload: UserCreatePayload): Promise<User> {
  if (!session.user.isAdmin) throw fail.forbidden();
  if (!isStrongPassword(payload.password)) throw fail.invalid(errorTexts.strongPassword);
  const account = await accountRef(ports, session);
  const item = newUserItem(
    {
      id: ports.newId(),
      name: payload.name,
      email: payload.email,
      accountId: session.accountId,
      passwordHash: await ports.passwords.hash(payload.password),
      isAdmin: payload.isAdmin ?? false,
    },
    ports.clock().toISOString(),
  );
  try {
    await writeTogether(ports.table, {
      seat: takeSeatStep(session.accountId, 'usersCount', effectiveLimits(account.plan).users),
      email: claimUserEmailStep(session.accountId, item.email, item.id),
      user: putNewStep(item),
    });
  } catch (error) {
    if (refusedBy(error, 'seat')) throw fail.limit(errorTexts.contactOrUserLimit);
    if (refusedBy(error, 'email')) throw fail.invalid(errorTexts.emailExists);
    throw error;
  }
  return toUser(item, account);
}

/**
 * Edits a user. Admins edit anyone but the owner; everyone edits themselves; only admins change
 * the admin flag, and the owner stays an admin.
 *
 * A new e-mail never takes effect here: it waits as `pendingEmail` until the code mailed to it
 * comes back (`verifyEmail`), the current address is told of the request, and the user keeps the
 * current address meanwhile (docs/security.md, "Who owns an address"). Sending the current address
 * again cancels a pending change; sending the pending one again changes nothing. A password set by
 * someone else (an admin) ends the user's sessions.
 */
export async function updateUser(ports: Ports, session: AccountSession, id: string, payload: UserUpdatePayload): Promise<User> {
  const [account, current] = await Promise.all([accountRef(ports, session), loadUser(ports, session, id)]);
  const self = current.id === session.user.id;
  if (!self && (!session.user.isAdmin || current.isOwner)) throw fail.forbidden();
  const isAdmin = payload.isAdmin ?? current.isAdmin;
  if (isAdmin !== current.isAdmin && !session.user.isAdmin) throw fail.forbidden();
  // 'Não assinar minhas mensagens' is each person's own choice.
  const skipSignature = payload.skipSignature ?? current.skipSignature === true;
  if (skipSignature !== (current.skipSignature === true) && !self) throw fail.forbidden();
  if (current.isOwner && !isAdmin) throw fail.invalid(errorTexts.ownerMustBeAdmin);
  if (payload.password && !isStrongPassword(payload.password)) throw fail.invalid(errorTexts.strongPassword);

  const pendingEmail = payload.email === current.email ? null : payload.email;
  const newlyPending = pendingEmail !== null && pendingEmail !== current.pendingEmail;
  if (pendingEmail !== null && (await userEmailHolder(ports.table, session.accountId, pendingEmail))) throw fail.invalid(errorTexts.emailExists);
  if (newlyPending) await consume(ports, [[limits.mailPerEmail, pendingEmail]]);
  const passwordBySomeoneElse = Boolean(payload.password) && !self;
  const next = userItem({
    ...userFields(current),
    name: payload.name,
    isAdmin,
    skipSignature,
    pendingEmail,
    passwordHash: payload.password ? await ports.passwords.hash(payload.password) : current.passwordHash,
    sessionGeneration: (current.sessionGeneration ?? 0) + (passwordBySomeoneElse ? 1 : 0),
    updatedAt: ports.clock().toISOString(),
  });
  try {
    await writeTogether(ports.table, { user: replaceIfUnchangedStep(next, current.updatedAt) });
  } catch (error) {
    if (refusedBy(error, 'user')) throw fail.notFound();
    throw error;
  }
  if (newlyPending) {
    await sendAddressCode(ports, next);
    await ports.mailer.send(addressChangeNotice(current.email, current.name, pendingEmail, account.name));
  }
  return toUser(next, account);
}

function guardTarget(session: AccountSession, target: UserItem, action: 'archive' | 'delete') {
  if (!session.user.isAdmin) throw fail.forbidden();
  if (target.isOwner) throw fail.forbidden(action === 'archive' ? errorTexts.cannotArchiveOwner : errorTexts.cannotDeleteOwner);
  if (target.id === session.user.id) throw fail.forbidden(action === 'archive' ? errorTexts.cannotArchiveSelf : errorTexts.cannotDeleteSelf);
}

export async function archiveUser(ports: Ports, session: AccountSession, id: string, archive: boolean): Promise<User> {
  const [account, target] = await Promise.all([accountRef(ports, session), loadUser(ports, session, id)]);
  guardTarget(session, target, 'archive');
  if (!archive && target.archivedAt) {
    // Back among the active users only while the plan has room (an account over its limit after a downgrade).
    const active = (await accountUsers(ports.table, session.accountId)).filter((u) => !u.archivedAt).length;
    if (active >= effectiveLimits(account.plan).users) throw fail.limit(errorTexts.contactOrUserLimit);
  }
  const now = ports.clock().toISOString();
  const archived = await setUserArchivedAt(ports.table, target, archive ? (target.archivedAt ?? now) : null, now);
  return toUser(archived, account);
}

export async function deleteUser(ports: Ports, session: AccountSession, id: string): Promise<void> {
  const target = await loadUser(ports, session, id);
  guardTarget(session, target, 'delete');
  await writeTogether(ports.table, {
    user: removeUserStep(target),
    email: releaseUserEmailStep(session.accountId, target.email),
    seat: releaseSeatStep(session.accountId, 'usersCount'),
  });
  await releaseSignupClaim(ports.table, target.email, target.id);
}
