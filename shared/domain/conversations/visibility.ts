/**
 * Who sees which conversation (docs/product.md#team-inbox). Admins see every one. A member sees the conversations
 * assigned to them, the unassigned ones of their departments and the unassigned ones of no
 * department (the account's general queue); with the account's `membersSeeAll` setting, every one.
 * Enforced here for every read and write of a conversation: a conversation a member may not see
 * answers 404, like an id of another account.
 */
import type { Where } from '#contracts/list-query.ts';
import { getAccountItem } from '#db/accounts.ts';
import { getContactItem, type ContactItem } from '#db/contacts.ts';
import { accountDepartments } from '../departments/departments.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

export interface Viewer {
  userId: string;
  seesAll: boolean;
  /** The departments the viewer belongs to (archived ones too: their conversations stay with them). */
  departmentIds: string[];
}

/** What the rule reads of an account besides the user: its setting and its departments' members. */
export interface AccountVisibility {
  membersSeeAll: boolean;
  departments: { id: string; userIds: string[] }[];
}

export async function accountVisibility(ports: Ports, accountId: string): Promise<AccountVisibility> {
  const [account, departments] = await Promise.all([getAccountItem(ports.table, accountId), accountDepartments(ports, accountId)]);
  return { membersSeeAll: account?.inboxSettings?.membersSeeAll === true, departments };
}

/** The viewer a user is (the HTTP session's user, or a realtime connection's), given the account's setting. */
export function viewerFrom(user: { id: string; isAdmin: boolean }, account: AccountVisibility): Viewer {
  if (user.isAdmin) return { userId: user.id, seesAll: true, departmentIds: [] };
  return {
    userId: user.id,
    seesAll: account.membersSeeAll,
    departmentIds: account.departments.filter((d) => d.userIds.includes(user.id)).map((d) => d.id),
  };
}

export async function viewerOf(ports: Ports, session: AccountSession): Promise<Viewer> {
  if (session.user.isAdmin) return viewerFrom(session.user, { membersSeeAll: true, departments: [] });
  return viewerFrom(session.user, await accountVisibility(ports, session.accountId));
}

export function canSee(viewer: Viewer, contact: Pick<ContactItem, 'userId' | 'departmentId'>): boolean {
  if (viewer.seesAll) return true;
  if (contact.userId) return contact.userId === viewer.userId;
  return !contact.departmentId || viewer.departmentIds.includes(contact.departmentId);
}

/** A list query's `where` narrowed to what the viewer sees (the list query's own `or` nesting). */
export function visibleWhere(viewer: Viewer, where: Where): Where {
  if (viewer.seesAll) return where;
  const options: Where[] = [{ userId: viewer.userId }, { userId: null, departmentId: null }];
  if (viewer.departmentIds.length) options.push({ userId: null, departmentId: { in: viewer.departmentIds } });
  // (A) and (o1 or o2 ...) = (o1 and A) or (o2 and A): each option holds A as its single `or`.
  return { or: options.map((option) => ({ ...option, or: [where] })) };
}

/** A contact the caller may see, or 404. */
export async function loadVisibleContact(ports: Ports, session: AccountSession, id: string, viewer?: Viewer): Promise<ContactItem> {
  const [item, who] = await Promise.all([getContactItem(ports.table, session.accountId, id), viewer ?? viewerOf(ports, session)]);
  if (!item || !canSee(who, item)) throw fail.notFound();
  return item;
}
