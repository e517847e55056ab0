/** Accounts: create (the creator becomes owner and admin, and the session moves there), read, update, usage. */
import type { Account, ListAnswer, Usage } from '#contracts/entities.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import type { SessionAnswer } from '#contracts/auth.ts';
import { getAccountItem, newAccountItem, renameAccount } from '#db/accounts.ts';
import { putNewStep, writeTogether } from '#db/transaction.ts';
import { claimUserEmailStep, removeUserStep, userItem } from '#db/users.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession, Session } from '../session.ts';
import { applyListQuery, type ListRules } from '../list-query.ts';
import { reachableUsers, startSession } from '../auth/sessions.ts';
import { toAccount, toUsage } from './present-account.ts';

export const accountListRules: ListRules = {
  fields: ['id', 'name', 'createdAt'],
  defaultOrder: [['name', 'ASC']],
};

/** The accounts the caller may switch to: those of the users its own credentials open (`reachableUsers`). */
export async function listAccounts(ports: Ports, session: Session, q: ListQuery): Promise<ListAnswer<Account>> {
  const memberships = await reachableUsers(ports, session.user);
  const items = await Promise.all(memberships.map((u) => getAccountItem(ports.table, u.accountId!)));
  return applyListQuery(items.filter((a) => a !== undefined).map(toAccount), q);
}

/**
 * Creates an account owned by the caller. A caller without an account moves into it; a caller
 * who already has one gets a new user there with the same e-mail, name and password. Either way
 * the answer carries the new session.
 */
export async function createAccount(ports: Ports, session: Session, name: string): Promise<Account & SessionAnswer> {
  const now = ports.clock().toISOString();
  const account = { ...newAccountItem(ports.newId(), name, now), usersCount: 1 };
  const current = session.user;
  const owner = userItem({
    id: session.accountId ? ports.newId() : current.id,
    name: current.name,
    email: current.email,
    accountId: account.id,
    passwordHash: current.passwordHash,
    isAdmin: true,
    isOwner: true,
    emailVerified: current.emailVerified,
    avatarUrl: current.avatarUrl,
    archivedAt: null,
    createdAt: session.accountId ? now : current.createdAt,
    updatedAt: now,
  });
  await writeTogether(ports.table, {
    account: putNewStep(account),
    owner: putNewStep(owner),
    email: claimUserEmailStep(account.id, owner.email, owner.id),
    // A caller without an account moves: its account-less item goes.
    movedFrom: !session.accountId && removeUserStep(current),
  });
  return { ...toAccount(account), ...(await startSession(ports, owner)) };
}

async function ownAccount(ports: Ports, session: AccountSession, id: string) {
  if (id !== session.accountId) throw fail.notFound();
  const item = await getAccountItem(ports.table, session.accountId);
  if (!item) throw fail.notFound();
  return item;
}

export async function getAccount(ports: Ports, session: AccountSession, id: string): Promise<Account> {
  return toAccount(await ownAccount(ports, session, id));
}

export async function updateAccount(ports: Ports, session: AccountSession, id: string, name: string): Promise<Account> {
  await ownAccount(ports, session, id);
  if (!session.user.isAdmin) throw fail.forbidden();
  return toAccount(await renameAccount(ports.table, session.accountId, name, ports.clock().toISOString()));
}

export async function getUsage(ports: Ports, session: AccountSession, id: string): Promise<Usage> {
  return toUsage(await ownAccount(ports, session, id));
}
