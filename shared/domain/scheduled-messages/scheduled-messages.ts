/**
 * Scheduling, editing, cancelling and listing a contact's scheduled messages
 * (docs/product.md#scheduled-messages, ADR-0224). Whoever may send in the
 * conversation (sees it: visibility.ts) may schedule there, and edit or cancel what is scheduled
 * there until it is sent. The date and time are the account's wall clock (its business hours'
 * zone), turned into an instant by the recurrence.
 */
import { errorTexts } from '#contracts/errors.ts';
import { uploadKindOf } from '#contracts/files.ts';
import { type ScheduledMessage, type ScheduleMessagePayload, scheduleTexts } from '#contracts/scheduled-messages.ts';
import type { ContactItem } from '#db/contacts.ts';
import { getFileItem } from '#db/files.ts';
import {
  contactScheduledMessages,
  getScheduledMessage,
  putNewScheduledMessage,
  replaceScheduledMessage,
  type ScheduledMessageItem,
  scheduledMessageFields as fieldsOf,
  scheduledMessageItem,
} from '#db/scheduled-messages.ts';
import { accountBusinessHours } from '../business-hours/settings.ts';
import { loadVisibleContact } from '../conversations/visibility.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { nextWallClock, toScheduledMessage } from './present-scheduled-message.ts';
import { minutesOf, occurrenceAt, type Recurrence } from './recurrence.ts';

const invalidField = (path: string, message: string) => fail.invalid(errorTexts.invalidParams, [{ path, message }]);

/** The visible, active contact the schedule is for. */
async function contactToSchedule(ports: Ports, session: AccountSession, contactId: string): Promise<ContactItem> {
  const contact = await loadVisibleContact(ports, session, contactId);
  if (contact.archivedAt) throw fail.invalid(errorTexts.contactArchived);
  return contact;
}

/** The uploaded file to attach, checked as a send checks it (the existing upload path). */
async function fileToSchedule(ports: Ports, accountId: string, fileId: string | null | undefined): Promise<ScheduledMessageItem['file']> {
  if (!fileId) return null;
  const record = await getFileItem(ports.table, accountId, fileId);
  if (!record) throw invalidField('fileId', 'Arquivo não encontrado');
  const stored = await ports.storage.head(record.objectKey);
  const kind = uploadKindOf(record.mimetype);
  if (!stored || !kind || stored.size === 0 || stored.size > kind.maxBytes || stored.size !== record.size) throw fail.invalid(errorTexts.fileNotUploaded);
  return { id: record.id, name: record.name, mimetype: record.mimetype };
}

/** The recurrence the payload asks for, in the account's zone, and its first occurrence, refused when it has passed. */
async function recurrenceOf(ports: Ports, accountId: string, payload: ScheduleMessagePayload): Promise<{ recurrence: Recurrence; firstAt: number }> {
  const { hours } = await accountBusinessHours(ports, accountId);
  const recurrence: Recurrence = { repeat: payload.repeat, anchorDate: payload.date, minutes: minutesOf(payload.time), timeZone: hours.timeZone };
  const firstAt = occurrenceAt(recurrence, 0)!;
  if (firstAt <= ports.clock().getTime()) throw invalidField('time', scheduleTexts.past);
  return { recurrence, firstAt };
}

const byNext = (a: ScheduledMessageItem, b: ScheduledMessageItem) => (a.nextAt ?? '').localeCompare(b.nextAt ?? '') || a.id.localeCompare(b.id);

/** The conversation's schedules still to send, the soonest first. */
export async function listScheduledMessages(ports: Ports, session: AccountSession, contactId: string): Promise<ScheduledMessage[]> {
  await loadVisibleContact(ports, session, contactId);
  const items = await contactScheduledMessages(ports.table, session.accountId, contactId);
  return items
    .filter((i) => i.status === 'scheduled')
    .sort(byNext)
    .map(toScheduledMessage);
}

export async function scheduleMessage(ports: Ports, session: AccountSession, payload: ScheduleMessagePayload): Promise<ScheduledMessage> {
  const contact = await contactToSchedule(ports, session, payload.contactId);
  const [file, { recurrence, firstAt }] = await Promise.all([
    fileToSchedule(ports, session.accountId, payload.fileId),
    recurrenceOf(ports, session.accountId, payload),
  ]);
  const now = ports.clock();
  const item = scheduledMessageItem({
    id: ports.newId(now.getTime()),
    accountId: session.accountId,
    contactId: contact.id,
    serviceId: contact.serviceId,
    text: payload.text,
    file,
    repeat: recurrence.repeat,
    anchorDate: recurrence.anchorDate,
    minutes: recurrence.minutes,
    timeZone: recurrence.timeZone,
    index: 0,
    sentCount: 0,
    status: 'scheduled',
    nextAt: new Date(firstAt).toISOString(),
    version: 1,
    user: { id: session.user.id, name: session.user.name },
    lastMessageId: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  });
  await putNewScheduledMessage(ports.table, item);
  return toScheduledMessage(item);
}

/** A schedule of a conversation the caller sees, still waiting. */
async function pendingSchedule(ports: Ports, session: AccountSession, contactId: string, id: string): Promise<ScheduledMessageItem> {
  const existing = await getScheduledMessage(ports.table, session.accountId, contactId, id);
  if (!existing) throw fail.notFound();
  if (existing.status !== 'scheduled') throw invalidField('id', scheduleTexts.notPending);
  return existing;
}

/**
 * Edits a waiting schedule. Saved with the date, time and repetition it showed, it keeps its place
 * in the recurrence (a monthly one on the 31st stays on the 31st); otherwise it starts again from
 * the new date. Refused once the occurrence was sent or the schedule cancelled meanwhile.
 */
export async function updateScheduledMessage(ports: Ports, session: AccountSession, id: string, payload: ScheduleMessagePayload): Promise<ScheduledMessage> {
  await contactToSchedule(ports, session, payload.contactId);
  const existing = await pendingSchedule(ports, session, payload.contactId, id);
  const file = await fileToSchedule(ports, session.accountId, payload.fileId);
  const shown = nextWallClock(existing);
  const same = shown.date === payload.date && shown.time === payload.time && existing.repeat === payload.repeat;
  const when = same
    ? {}
    : await recurrenceOf(ports, session.accountId, payload).then(({ recurrence, firstAt }) => ({
        repeat: recurrence.repeat,
        anchorDate: recurrence.anchorDate,
        minutes: recurrence.minutes,
        timeZone: recurrence.timeZone,
        index: 0,
        nextAt: new Date(firstAt).toISOString(),
      }));
  const next = scheduledMessageItem({
    ...fieldsOf(existing),
    ...when,
    text: payload.text,
    file,
    version: existing.version + 1,
    updatedAt: ports.clock().toISOString(),
  });
  if (!(await replaceScheduledMessage(ports.table, next, existing.version))) throw invalidField('id', scheduleTexts.notPending);
  return toScheduledMessage(next);
}

/** Cancels a waiting schedule: nothing more of it is sent. */
export async function cancelScheduledMessage(ports: Ports, session: AccountSession, contactId: string, id: string): Promise<ScheduledMessage> {
  await loadVisibleContact(ports, session, contactId);
  const existing = await pendingSchedule(ports, session, contactId, id);
  const next = scheduledMessageItem({
    ...fieldsOf(existing),
    status: 'cancelled',
    nextAt: null,
    version: existing.version + 1,
    updatedAt: ports.clock().toISOString(),
  });
  if (!(await replaceScheduledMessage(ports.table, next, existing.version))) throw invalidField('id', scheduleTexts.notPending);
  return toScheduledMessage(next);
}
