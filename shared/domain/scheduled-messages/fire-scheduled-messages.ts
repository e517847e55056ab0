/**
 * Sends the scheduled messages that came due (docs/product.md#scheduled-messages, ADR-0224), called by the lifecycle timers' minute poller (functions/schedules/fire-timers.ts
 * in the cloud, the local runtime's interval). Each occurrence is stored as the message of the person
 * who scheduled it, through the send path's own write (`recordTeamMessage`: the lifecycle moves as
 * for their reply, the stream hands it to the connection's lane, the acks and a failure show on its
 * bubble), in one transaction with the schedule's advance on condition of the version read. The
 * message's id is derived from the schedule and the occurrence's number, and stored put-if-absent.
 * So a run that dies before that write leaves the occurrence due for the next run, and a run that
 * repeats it (a retried poller, two pollers) stores, and so sends, nothing a second time.
 */
import { createHash } from 'node:crypto';
import { encodeTime } from 'ulid';
import { customerWindow } from '#contracts/customer-window.ts';
import { ack } from '#contracts/messages.ts';
import { getContactItem } from '#db/contacts.ts';
import { getFileItem } from '#db/files.ts';
import { messageItem, type MessageItem } from '#db/messages.ts';
import {
  dueScheduledMessagesOf,
  getScheduledMessage,
  replaceScheduledMessage,
  replaceScheduleStep,
  scheduleShards,
  type ScheduledMessageItem,
  scheduledMessageFields,
  scheduledMessageItem,
} from '#db/scheduled-messages.ts';
import { getServiceItem } from '#db/services.ts';
import { getUserItem } from '#db/users.ts';
import { accountBusinessHours } from '../business-hours/settings.ts';
import { recordTeamMessage } from '../messages/send-message.ts';
import { signsMessages } from '../messages/signature.ts';
import type { Ports } from '../ports.ts';
import { inZone } from './follow-time-zone.ts';
import { nextOccurrenceAfter } from './recurrence.ts';

export interface FiredSchedules {
  /** Occurrences stored for sending. */
  sent: number;
  /** Occurrences stored as failed (the contact archived, the connection disconnected...). */
  failed: number;
  /** Already taken, edited or cancelled since the index was read. */
  stale: number;
  /** Of a contact that is gone. */
  dropped: number;
}

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The message id of a schedule's `occurrence`-th send: a ULID whose time is the occurrence's due
 * time (so the thread orders it there) and whose random part is a hash of (schedule, occurrence):
 * the same occurrence always gets the same id, whichever run stores it.
 */
export function scheduledOccurrenceId(scheduleId: string, occurrence: number, dueAt: number): string {
  const digest = createHash('sha256').update(`${scheduleId}:${occurrence}`).digest();
  let random = '';
  for (let i = 0; i < 16; i++) random += crockford[digest[i]! & 31];
  return `${encodeTime(dueAt, 10)}${random}`;
}

/** Fires every schedule due by the ports' clock. */
export async function fireDueScheduledMessages(ports: Ports): Promise<FiredSchedules> {
  const now = ports.clock();
  const result: FiredSchedules = { sent: 0, failed: 0, stale: 0, dropped: 0 };
  for (let shard = 0; shard < scheduleShards; shard++) {
    for (;;) {
      const due = await dueScheduledMessagesOf(ports.table, shard, now.toISOString());
      for (const entry of due) result[await fire(ports, entry)]++;
      if (due.length < 100) break;
    }
  }
  return result;
}

/** Why an occurrence cannot go now: stored failed with this reason, as a send that failed (with 'Tentar novamente'). */
const failures = {
  archived: 'O contato está arquivado',
  disconnected: 'A conexão está desconectada',
  windowClosed: 'A janela de 24 horas está fechada: envie um modelo de mensagem',
  fileGone: 'O arquivo anexado não foi encontrado',
} as const;

async function fire(ports: Ports, entry: ScheduledMessageItem): Promise<keyof FiredSchedules> {
  const now = ports.clock();
  // The index lags and may be stale: the item itself, read consistently, decides.
  const stored = await getScheduledMessage(ports.table, entry.accountId, entry.contactId, entry.id);
  if (stored?.status !== 'scheduled' || !stored.nextAt || stored.nextAt > now.toISOString()) return 'stale';
  // Still on a zone the account has left (stored before the account's index of waiting schedules held it, or
  // edited across the change): its time in the account's zone decides (ADR-0237).
  const { hours } = await accountBusinessHours(ports, stored.accountId);
  const rezoned = inZone(stored, hours.timeZone, now.toISOString());
  if (rezoned?.nextAt && rezoned.nextAt > now.toISOString()) {
    await replaceScheduledMessage(ports.table, rezoned, stored.version);
    return 'stale';
  }
  const schedule = rezoned ? { ...rezoned, version: stored.version } : stored;
  const contact = await getContactItem(ports.table, schedule.accountId, schedule.contactId);
  if (!contact) {
    // Deleted: its purge takes the item; meanwhile it leaves the due index.
    const ended = scheduledMessageItem({
      ...scheduledMessageFields(schedule),
      status: 'cancelled',
      nextAt: null,
      version: schedule.version + 1,
      updatedAt: now.toISOString(),
    });
    await replaceScheduledMessage(ports.table, ended, schedule.version);
    return 'dropped';
  }
  const [service, user, fileRecord] = await Promise.all([
    getServiceItem(ports.table, schedule.accountId, contact.serviceId),
    getUserItem(ports.table, schedule.accountId, schedule.user.id),
    schedule.file ? getFileItem(ports.table, schedule.accountId, schedule.file.id) : undefined,
  ]);
  const failure = contact.archivedAt
    ? failures.archived
    : service?.status !== 'connected'
      ? failures.disconnected
      : customerWindow({ lastInboundAt: contact.lastInboundAt, service: { type: service.channelType } }, now).kind === 'closed'
        ? failures.windowClosed
        : schedule.file && !fileRecord
          ? failures.fileGone
          : null;
  const author = { accountId: schedule.accountId, user: { id: schedule.user.id, skipSignature: user?.skipSignature } };
  const signed = !failure && schedule.text.trim() !== '' && Boolean(user) && (await signsMessages(ports, author));
  const occurrence = schedule.sentCount + 1;
  const at = now.toISOString();
  const file: MessageItem['file'] = fileRecord
    ? { id: fileRecord.id, name: fileRecord.name, mimetype: fileRecord.mimetype, size: fileRecord.size, objectKey: fileRecord.objectKey }
    : null;
  const message = messageItem({
    id: scheduledOccurrenceId(schedule.id, occurrence, Date.parse(schedule.nextAt ?? stored.nextAt)),
    accountId: schedule.accountId,
    contactId: contact.id,
    serviceId: contact.serviceId,
    text: schedule.text,
    messageType: fileRecord ? fileRecord.messageType : 'text',
    timestamp: at,
    isFromMe: true,
    ack: failure ? ack.error : ack.sending,
    error: failure,
    file,
    quotedMessage: null,
    replyMessageId: null,
    replyToChannelMessageId: null,
    user: schedule.user,
    groupContact: null,
    channelMessageId: null,
    sendAttempt: 1,
    createdAt: at,
    updatedAt: at,
    ...(signed ? { signed: true as const } : {}),
  });
  const following = nextOccurrenceAfter(schedule, schedule.index, now.getTime());
  const advanced = scheduledMessageItem({
    ...scheduledMessageFields(schedule),
    index: following ? following.index : schedule.index,
    nextAt: following ? new Date(following.at).toISOString() : null,
    status: following ? 'scheduled' : 'sent',
    sentCount: occurrence,
    lastMessageId: message.id,
    version: schedule.version + 1,
    updatedAt: at,
  });
  const outcome = await recordTeamMessage(ports, author, contact, message, { schedule: replaceScheduleStep(advanced, schedule.version) });
  if (!outcome.stored) return 'stale';
  return failure ? 'failed' : 'sent';
}
