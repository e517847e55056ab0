/**
 * When the account's time zone changes, its waiting scheduled messages keep their wall-clock time
 * in the new zone (ADR-0237, docs/product.md#scheduled-messages): a
 * reminder set for 09:00 still goes at 09:00, now the new zone's. Each schedule keeps its anchor
 * and the index of its next occurrence, so an occurrence already sent is not sent again; only the
 * zone and the instant of that next occurrence change. If that instant has already passed in the
 * new zone, it stays as it is, due: the poller sends it at its next run, once, as it does any late
 * occurrence (a repeating one then moves to its first occurrence after now).
 *
 * Read from the account's index of waiting schedules (no scan); each one re-read consistently and
 * written on condition of its version, so a firing, an edit or a cancel meanwhile is never
 * overwritten (the schedule is read again and moved if it still waits). A schedule already in the
 * zone is left alone: running it twice changes nothing.
 */
import {
  accountWaitingScheduledMessages,
  getScheduledMessage,
  replaceScheduledMessage,
  type ScheduledMessageItem,
  scheduledMessageFields,
  scheduledMessageItem,
} from '#db/scheduled-messages.ts';
import type { Ports } from '../ports.ts';
import { occurrenceAt } from './recurrence.ts';

/** How many schedules are moved at once. */
const together = 8;
/** Tries of one schedule that keeps changing under the move (each a firing, an edit or a cancel). */
const tries = 5;

/** The schedule's next version in `timeZone`, or null when it no longer waits or is already there. */
export function inZone(item: ScheduledMessageItem, timeZone: string, now: string): ScheduledMessageItem | null {
  if (item.status !== 'scheduled' || item.timeZone === timeZone) return null;
  const at = occurrenceAt({ repeat: item.repeat, anchorDate: item.anchorDate, minutes: item.minutes, timeZone }, item.index);
  if (at === null) return null;
  return scheduledMessageItem({
    ...scheduledMessageFields(item),
    timeZone,
    nextAt: new Date(at).toISOString(),
    version: item.version + 1,
    updatedAt: now,
  });
}

async function moveOne(ports: Pick<Ports, 'table' | 'clock'>, seen: ScheduledMessageItem, timeZone: string): Promise<boolean> {
  for (let attempt = 0; attempt < tries; attempt++) {
    const item = await getScheduledMessage(ports.table, seen.accountId, seen.contactId, seen.id);
    const next = item && inZone(item, timeZone, ports.clock().toISOString());
    if (!item || !next) return false;
    if (await replaceScheduledMessage(ports.table, next, item.version)) return true;
  }
  throw new Error(`scheduled message ${seen.id} kept changing while moved to ${timeZone}`);
}

/** Moves every waiting schedule of the account to `timeZone`; answers how many it moved. */
export async function moveSchedulesToZone(ports: Pick<Ports, 'table' | 'clock'>, accountId: string, timeZone: string): Promise<{ moved: number }> {
  let moved = 0;
  for await (const page of accountWaitingScheduledMessages(ports.table, accountId)) {
    const waiting = page.filter((item) => item.timeZone !== timeZone);
    for (let i = 0; i < waiting.length; i += together) {
      const done = await Promise.all(waiting.slice(i, i + together).map((item) => moveOne(ports, item, timeZone)));
      moved += done.filter(Boolean).length;
    }
  }
  return { moved };
}
