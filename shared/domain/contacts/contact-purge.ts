/**
 * Deleting a contact removes its conversation (LGPD): its messages, the guards that find them by
 * channel message id, the files they carry, its scheduled messages, its conversation events and the contact's avatar. The deletion itself answers at
 * once (the contact and a tombstone marked `purge`, `deleteContact`); this purge follows in the
 * background a bounded step at a time (`runContactPurgeStep`, called by the `contact-purge` stream
 * consumer for every change of the tombstone, which each step makes). Each step removes only what
 * is still there, so a retried step or a resumed purge (`resumeContactPurges`) does no harm.
 */
import { contactConversationEventKeys } from '#db/conversation-timers.ts';
import { advanceContactPurge, finishContactPurge, getContactTombstone, pendingContactPurges } from '#db/contact-purges.ts';
import { keys, type Key } from '#db/keys.ts';
import type { ContactTombstone } from '#db/contacts.ts';
import type { MessageItem } from '#db/messages.ts';
import { deleteKeys, firstItems } from '#db/partition-purge.ts';
import type { ResumeOptions } from '../job-staleness.ts';
import { eventMonths } from '../reports/event-months.ts';
import type { Ports } from '../ports.ts';
import { resumeJobs, runJobStep, type SteppedJob, type StepResult } from '../stepped-job.ts';

/** Messages removed by one step at most. */
const stepSize = 200;

/** One step of a contact's purge: some of its messages (and their files), or at last its avatar. */
async function purgeStep(ports: Ports, tombstone: ContactTombstone): Promise<StepResult<void>> {
  const { accountId, id: contactId } = tombstone;
  const { pk, skPrefix } = keys.contactMessages(accountId, contactId);
  const messages = await firstItems<MessageItem>(ports.table, pk, stepSize, skPrefix);
  if (messages.length) {
    // The files first: a step that fails after them finds the messages again and retries.
    await ports.storage.remove(messages.flatMap((m) => (m.file?.objectKey ? [m.file.objectKey] : [])));
    const guards: Key[] = messages.flatMap((m) => (m.channelMessageId ? [keys.channelMessage(accountId, m.serviceId, m.channelMessageId)] : []));
    await deleteKeys(ports.table, [...guards, ...messages]);
    return { progress: undefined };
  }
  // Its scheduled messages (ADR-0224): nothing more goes to a deleted contact.
  const scheduled = keys.contactScheduledMessages(accountId, contactId);
  const schedules = await firstItems<Key>(ports.table, scheduled.pk, stepSize, scheduled.skPrefix);
  if (schedules.length) {
    await deleteKeys(ports.table, schedules);
    return { progress: undefined };
  }
  // Its conversation events (reports, ADR-0234): the days already rolled up keep their counts, a
  // rebuild no longer counts it.
  for (const month of eventMonths({}, ports.clock())) {
    const events = await contactConversationEventKeys(ports.table, accountId, month, contactId, stepSize);
    if (events.length) {
      await deleteKeys(ports.table, events);
      return { progress: undefined };
    }
  }
  if (tombstone.avatarKey) await ports.storage.remove([tombstone.avatarKey]);
  return { done: true };
}

/** A contact's purge as a stepped job on its tombstone, which stays once the purge is done. */
export const contactPurgeJob: SteppedJob<{ accountId: string; id: string }, ContactTombstone, void> = {
  refOf: (image) => (typeof image.accountId === 'string' && typeof image.id === 'string' ? { accountId: image.accountId, id: image.id } : undefined),
  get: (table, ref) => getContactTombstone(table, ref.accountId, ref.id),
  isRunning: (tombstone) => Boolean(tombstone.purge),
  step: purgeStep,
  advance: (table, tombstone, _progress, now) => advanceContactPurge(table, tombstone, tombstone.purgeRound ?? 0, now),
  nudge: () => undefined,
  finish: finishContactPurge,
  pending: pendingContactPurges,
  steppedAt: (tombstone) => tombstone.purgeSteppedAt ?? tombstone.deletedAt,
};

/** One step of a contact's purge, for a change of its tombstone (`runJobStep`). */
export const runContactPurgeStep = (ports: Ports, accountId: string, contactId: string) => runJobStep(ports, contactPurgeJob, { accountId, id: contactId });

/** Moves unfinished contact purges on: every one (a restart), or those stalled (`resumeJobs`). */
export const resumeContactPurges = (ports: Pick<Ports, 'table' | 'clock'>, options: ResumeOptions = {}) => resumeJobs(ports, contactPurgeJob, options);
