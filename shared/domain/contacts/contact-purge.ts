/**
 * Deleting a contact removes its conversation (LGPD): its messages, the guards that find them by
 * channel message id, the files they carry and the contact's avatar. The deletion itself answers at
 * once (the contact and a tombstone marked `purge`, `deleteContact`); this purge follows in the
 * background a bounded step at a time (`runContactPurgeStep`, called by the `contact-purge` stream
 * consumer for every change of the tombstone, which each step makes). Each step removes only what
 * is still there, so a retried step or a resumed purge (`resumeContactPurges`) does no harm.
 */
import { advanceContactPurge, finishContactPurge, getContactTombstone, pendingContactPurges } from '#db/contact-purges.ts';
import { keys, type Key } from '#db/keys.ts';
import type { MessageItem } from '#db/messages.ts';
import { deleteKeys, firstItems } from '#db/partition-purge.ts';
import type { Ports } from '../ports.ts';
import { isStalled, type ResumeOptions } from '../job-staleness.ts';

/** Messages removed by one step at most. */
const stepSize = 200;

export async function runContactPurgeStep(ports: Ports, accountId: string, contactId: string): Promise<void> {
  const tombstone = await getContactTombstone(ports.table, accountId, contactId);
  if (!tombstone?.purge) return;
  const { pk, skPrefix } = keys.contactMessages(accountId, contactId);
  const messages = await firstItems<MessageItem>(ports.table, pk, stepSize, skPrefix);
  if (messages.length) {
    // The files first: a step that fails after them finds the messages again and retries.
    await ports.storage.remove(messages.flatMap((m) => (m.file?.objectKey ? [m.file.objectKey] : [])));
    const guards: Key[] = messages.flatMap((m) => (m.channelMessageId ? [keys.channelMessage(accountId, m.serviceId, m.channelMessageId)] : []));
    await deleteKeys(ports.table, [...guards, ...messages]);
    await advanceContactPurge(ports.table, tombstone, tombstone.purgeRound ?? 0, ports.clock().toISOString());
    return;
  }
  if (tombstone.avatarKey) await ports.storage.remove([tombstone.avatarKey]);
  await finishContactPurge(ports.table, tombstone);
}

/**
 * Moves unfinished contact purges on: every one (a restarted runtime lost the records that drove
 * them), or those stalled (`options.stalledFor`), each only at the round it was seen at.
 */
export async function resumeContactPurges(ports: Pick<Ports, 'table' | 'clock'>, options: ResumeOptions = {}): Promise<number> {
  const now = ports.clock();
  let moved = 0;
  for (const tombstone of await pendingContactPurges(ports.table)) {
    if (!isStalled(tombstone.purgeSteppedAt ?? tombstone.deletedAt, now, options)) continue;
    if (await advanceContactPurge(ports.table, tombstone, tombstone.purgeRound ?? 0, now.toISOString())) moved++;
  }
  return moved;
}
