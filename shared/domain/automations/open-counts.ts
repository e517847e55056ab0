/**
 * Round-robin's count of each person's open conversations (ADR-0221). The sparse
 * index (`keys.openAssignment`) is eventually consistent, so a conversation handed out a moment ago
 * may be missing from it; the account's ledger keeps round-robin's assignments of the last minute,
 * and each of those conversations is read strongly and counted for whoever has it open now (a
 * resolve, release, transfer or deletion since is seen at once), over what the index says of it.
 */
import { getContactItem, indexedOpenAssignments, openHolder } from '#db/contacts.ts';
import type { RecentAssignment } from '#db/round-robin-turns.ts';
import type { Ports } from '../ports.ts';

/** How long an assignment stays in the ledger: far longer than the index's lag (under a second). */
export const recentAssignmentMs = 60_000;

/** The ledger's entries still worth keeping at `now`, one per conversation (the newest). */
export function keptAssignments(recent: readonly RecentAssignment[], now: number): RecentAssignment[] {
  const newest = new Map<string, RecentAssignment>();
  for (const entry of recent) {
    if (entry.at <= now - recentAssignmentMs) continue;
    const seen = newest.get(entry.contactId);
    if (!seen || seen.at <= entry.at) newest.set(entry.contactId, entry);
  }
  return [...newest.values()];
}

/** How many conversations each of `userIds` has open: the index's set, corrected by a strong read of the recent ones. */
export async function openCounts(
  ports: Ports,
  accountId: string,
  userIds: readonly string[],
  recent: readonly RecentAssignment[],
): Promise<Map<string, number>> {
  const [indexed, current] = await Promise.all([
    Promise.all(userIds.map((userId) => indexedOpenAssignments(ports.table, accountId, userId))),
    Promise.all(recent.map(async ({ contactId }) => ({ contactId, contact: await getContactItem(ports.table, accountId, contactId, true) }))),
  ]);
  const open = new Map(userIds.map((userId, i) => [userId, new Set(indexed[i])]));
  for (const { contactId, contact } of current) {
    for (const set of open.values()) set.delete(contactId);
    const holder = contact ? openHolder(contact) : null;
    if (holder) open.get(holder)?.add(contactId);
  }
  return new Map([...open].map(([userId, set]) => [userId, set.size]));
}
