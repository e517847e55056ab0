/**
 * An account over its plan's limits after a downgrade or a cancellation, and back under them after
 * an upgrade (ADR-0094). Nothing is deleted:
 *   users        the newest active users beyond the limit are archived (never the owner), and come
 *                back oldest first while the plan has room;
 *   connections  those beyond the limit in creation order are stopped (and may not be started while
 *                they stay beyond it), and start again once within it;
 *   contacts     the least recently active beyond the limit are archived, releasing their seats,
 *                and the most recently active come back first while the plan has seats.
 * Items archived or stopped by hand are never touched. `applyPlanLimits` reconciles what is stored
 * with the plan in force now, so running it again (a retry after a crash half-way, a late record)
 * only finishes what is left; every contact write moves its seats in the same transaction.
 */
import { effectiveLimits, type PlanLimits } from '#contracts/plans.ts';
import { getAccountItem, releaseSeatsStep, takeSeatsStep } from '#db/accounts.ts';
import { allContacts, contactFields, contactItem, nextUpdatedAt, type ContactItem } from '#db/contacts.ts';
import { accountServices, isRunningStatus, type ServiceItem } from '#db/services.ts';
import { refusedBy, replaceIfUnchangedStep, writeTogether } from '#db/transaction.ts';
import { accountUsers, setUserArchivedByLimit, type UserItem } from '#db/users.ts';
import type { Ports } from '../ports.ts';
import { startConnection, stopConnection } from '../services/lifecycle.ts';

type Limited = 'users' | 'connections' | 'contacts';

/** Whether a plan change moved any of the three limits (a change of name alone does nothing). */
export function limitsChanged(previous: Partial<PlanLimits> | null | undefined, next: Partial<PlanLimits> | null | undefined): boolean {
  const before = effectiveLimits(previous);
  const after = effectiveLimits(next);
  return (['users', 'connections', 'contacts'] as Limited[]).some((k) => before[k] !== after[k]);
}

const byCreation = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/** Users to archive (newest first, never the owner) or bring back (oldest first) to fit `limit`. */
export function usersToFit(users: readonly UserItem[], limit: number): { archive: UserItem[]; restore: UserItem[] } {
  const active = users.filter((u) => !u.archivedAt);
  if (active.length > limit) {
    const newestFirst = active.filter((u) => !u.isOwner).sort((a, b) => byCreation(b, a));
    return { archive: newestFirst.slice(0, active.length - limit), restore: [] };
  }
  const byLimit = users.filter((u) => u.archivedAt && u.archivedReason === 'limit').sort(byCreation);
  return { archive: [], restore: byLimit.slice(0, limit - active.length) };
}

/**
 * Connections to stop (running, beyond the limit in creation order, newest first) or start again
 * (stopped by the limit and within it, oldest first).
 */
export function connectionsToFit(services: readonly ServiceItem[], limit: number): { stop: ServiceItem[]; start: ServiceItem[] } {
  const ordered = [...services].sort(byCreation);
  const beyond = ordered.slice(limit);
  const within = ordered.slice(0, limit);
  return {
    stop: beyond.filter((s) => isRunningStatus(s.status)).reverse(),
    start: within.filter((s) => s.stoppedByLimit && s.status === 'disconnected'),
  };
}

/** Whether a connection sits beyond the plan's limit in creation order (it may not be started). */
export function isBeyondLimit(services: readonly ServiceItem[], serviceId: string, limit: number): boolean {
  return [...services].sort(byCreation).findIndex((s) => s.id === serviceId) >= limit;
}

/** Last activity: the last message's time, else the creation (a contact never written to is the least active). */
const activity = (c: ContactItem) => c.lastMessageAt ?? '';
const leastRecentlyActive = (a: ContactItem, b: ContactItem) => activity(a).localeCompare(activity(b)) || byCreation(a, b);

/**
 * Contacts to archive (least recently active first) or bring back (most recently active first) so
 * that `seatsTaken` (the account's counter of active contacts) fits `limit`.
 */
export function contactsToFit(contacts: readonly ContactItem[], seatsTaken: number, limit: number): { archive: ContactItem[]; restore: ContactItem[] } {
  if (seatsTaken > limit) {
    const active = contacts.filter((c) => !c.archivedAt).sort(leastRecentlyActive);
    return { archive: active.slice(0, seatsTaken - limit), restore: [] };
  }
  const byLimit = contacts.filter((c) => c.archivedAt && c.archivedReason === 'limit').sort((a, b) => leastRecentlyActive(b, a));
  return { archive: [], restore: byLimit.slice(0, limit - seatsTaken) };
}

/** Contacts per transaction: each is one member, and the account's counter one more. */
const contactsPerWrite = 50;

export interface PlanLimitsOutcome {
  usersArchived: number;
  usersRestored: number;
  connectionsStopped: number;
  connectionsStarted: number;
  contactsArchived: number;
  contactsRestored: number;
}

async function fitUsers(ports: Ports, accountId: string, limit: number, outcome: PlanLimitsOutcome): Promise<void> {
  const { archive, restore } = usersToFit(await accountUsers(ports.table, accountId), limit);
  for (const user of archive) {
    if (await setUserArchivedByLimit(ports.table, user, ports.clock().toISOString(), ports.clock().toISOString())) outcome.usersArchived++;
  }
  for (const user of restore) {
    if (await setUserArchivedByLimit(ports.table, user, null, ports.clock().toISOString())) outcome.usersRestored++;
  }
}

async function fitConnections(ports: Ports, accountId: string, limit: number, outcome: PlanLimitsOutcome): Promise<void> {
  const { stop, start } = connectionsToFit(await accountServices(ports.table, accountId), limit);
  for (const service of stop) {
    await stopConnection(ports, service, false, { byLimit: true });
    outcome.connectionsStopped++;
  }
  for (const service of start) {
    try {
      await startConnection(ports, service);
      outcome.connectionsStarted++;
    } catch (error) {
      // A connection whose channel refuses it now (a revoked bot token) stays stopped with its reason.
      console.warn(`Starting connection ${service.id} again after an upgrade failed`, error);
    }
  }
}

/** One pass over the contacts; answers whether every write went through (false: something changed meanwhile). */
async function fitContacts(ports: Ports, accountId: string, limit: number, outcome: PlanLimitsOutcome): Promise<boolean> {
  const account = await getAccountItem(ports.table, accountId);
  if (!account) return true;
  const { archive, restore } = contactsToFit(await allContacts(ports.table, accountId), account.contactsCount ?? 0, limit);
  const archiving = archive.length > 0;
  const chosen = archiving ? archive : restore;
  for (let i = 0; i < chosen.length; i += contactsPerWrite) {
    const chunk = chosen.slice(i, i + contactsPerWrite);
    const steps = Object.fromEntries(
      chunk.map((current) => {
        const updatedAt = nextUpdatedAt(ports.clock(), current.updatedAt);
        const next = contactItem({
          ...contactFields(current),
          archivedAt: archiving ? updatedAt : null,
          archivedReason: archiving ? 'limit' : null,
          updatedAt,
        });
        return [`contact ${current.id}`, replaceIfUnchangedStep(next, current.updatedAt)];
      }),
    );
    try {
      await writeTogether(ports.table, {
        ...steps,
        seats: archiving ? releaseSeatsStep(accountId, 'contactsCount', chunk.length) : takeSeatsStep(accountId, 'contactsCount', chunk.length, limit),
      });
    } catch (error) {
      // A contact changed (a message arrived) or seats moved meanwhile: read again and go on.
      if (refusedBy(error, ...Object.keys(steps), 'seats')) return false;
      throw error;
    }
    if (archiving) outcome.contactsArchived += chunk.length;
    else outcome.contactsRestored += chunk.length;
  }
  return true;
}

/** Passes over the contacts before giving up on a busy account (the stream retries the record). */
const contactPasses = 5;

/** Brings an account's users, connections and contacts in line with the plan in force now. */
export async function applyPlanLimits(ports: Ports, accountId: string): Promise<PlanLimitsOutcome> {
  const outcome: PlanLimitsOutcome = {
    usersArchived: 0,
    usersRestored: 0,
    connectionsStopped: 0,
    connectionsStarted: 0,
    contactsArchived: 0,
    contactsRestored: 0,
  };
  const account = await getAccountItem(ports.table, accountId);
  if (!account) return outcome;
  const limits = effectiveLimits(account.plan);
  await fitUsers(ports, accountId, limits.users, outcome);
  await fitConnections(ports, accountId, limits.connections, outcome);
  for (let pass = 1; !(await fitContacts(ports, accountId, limits.contacts, outcome)); pass++) {
    if (pass === contactPasses) throw new Error(`Contacts of account ${accountId} kept changing while the plan's limit was applied`);
  }
  return outcome;
}
