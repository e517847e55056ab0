/**
 * What the channel worker is told through its queue (SQS FIFO in the cloud, the emulator locally;
 * `functions/queues/worker-queue.ts`). One message group per connection, so a connection's
 * commands run in the order they were queued and one at a time; every command names its
 * connection, and the worker that holds the connection's session runs it.
 *
 * - `changed`: the connection item changed (status, run, removal): reconcile its session.
 * - `send`: a send of a channel whose sends run in the session (`SessionHolding.sendsInSession`).
 * - `logout`: unpair on the channel and forget the session's auth state.
 * - `read`: an agent opened the conversation: send the channel's read receipts for the customer's
 *   unread messages (WhatsApp's blue ticks), through the session.
 * - `check`: a contact was made by hand: ask the channel whether the person is on it, and under
 *   which ids, through the session (`shared/domain/contacts/contact-check.ts`).
 */
import { z } from 'zod';
import { serviceTypes, type ServiceType } from '#contracts/services.ts';
import { entityTypes } from '#db/keys.ts';
import type { DispatchRequest } from '../messages/outbound-queue.ts';
import type { Channels } from './registry.ts';

const connection = { accountId: z.string().min(1), serviceId: z.string().min(1) };

/** The most messages one `read` command names (the newest unread ones; WhatsApp's own clients send one receipt per batch). */
export const maxReadReceipts = 100;

export const workerCommandSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('changed'),
    ...connection,
    /** Which change: the stream record's sequence number (so a retried stream batch queues it once). */
    change: z.string().min(1),
  }),
  z.object({
    kind: z.literal('send'),
    request: z.object({ ...connection, contactId: z.string().min(1), messageId: z.string().min(1), sendAttempt: z.number().int().positive() }),
    /**
     * Set when the send was moved out of its connection's group because it waits for the day's
     * cap on new chats (connectors/send-caps.ts): it then waits in its conversation's own group,
     * so the connection's other sends keep going and the conversation keeps its order.
     */
    held: z.literal(true).optional(),
  }),
  z.object({
    kind: z.literal('logout'),
    ...connection,
    /** The connection's channel: the connection may be deleted by the time the worker runs the command. */
    channelType: z.enum(serviceTypes),
    /** A new id per logout asked for (a ULID), so two logouts are two commands. */
    requestId: z.string().min(1),
  }),
  z.object({
    kind: z.literal('read'),
    ...connection,
    channelType: z.enum(serviceTypes),
    /** The conversation read, and the chat's id on the channel (the contact's `idFromService`). */
    contactId: z.string().min(1),
    chat: z.string().min(1),
    /** The customer's messages read, by channel id; `author` in groups (the member who wrote it). */
    messages: z
      .array(z.object({ channelMessageId: z.string().min(1), author: z.string().min(1).nullable() }))
      .min(1)
      .max(maxReadReceipts),
  }),
  z.object({
    kind: z.literal('check'),
    ...connection,
    channelType: z.enum(serviceTypes),
    contactId: z.string().min(1),
    /** The contact's id on the channel when it was made (a check of an id the contact no longer has changes nothing). */
    id: z.string().min(1),
  }),
]);

export type WorkerCommand = z.infer<typeof workerCommandSchema>;

/** A send request as a command. */
export const sendCommand = (request: DispatchRequest): WorkerCommand => ({ kind: 'send', request });

/** The connection a command is about. */
export function commandConnection(command: WorkerCommand): { accountId: string; serviceId: string } {
  return command.kind === 'send' ? command.request : command;
}

/** The message group a command waits in: its connection's, or for a held send its conversation's. */
export function commandGroup(command: WorkerCommand): string {
  if (command.kind === 'send' && command.held) return `${command.request.serviceId}#${command.request.contactId}`;
  return commandConnection(command).serviceId;
}

/**
 * The deduplication id: the same command queued twice within five minutes (a retried stream
 * batch, a retried request) is queued once. A send is its message's attempt, as on the send queue.
 */
export function commandDeduplicationId(command: WorkerCommand): string {
  switch (command.kind) {
    case 'changed':
      return `changed#${command.serviceId}#${command.change}`;
    case 'send':
      return `send#${command.request.messageId}#${command.request.sendAttempt}${command.held ? '#held' : ''}`;
    case 'logout':
      return `logout#${command.serviceId}#${command.requestId}`;
    case 'read':
      // The newest message read names the receipt: opening the conversation twice queues it once.
      return `read#${command.serviceId}#${command.contactId}#${command.messages[0]!.channelMessageId}`;
    case 'check':
      return `check#${command.serviceId}#${command.contactId}#${command.id}`;
  }
}

/** The port of the worker queue. */
export interface WorkerQueue {
  /** Adds commands at the end of their connections' groups, in the order given. */
  enqueue(commands: readonly WorkerCommand[]): Promise<void>;
}

/** What a connection's session depends on: a change to anything else (its name, its QR code) leaves the session as it is. */
type SessionInputs = {
  [field: string]: unknown;
  type?: string;
  id?: unknown;
  accountId?: unknown;
  channelType?: unknown;
  status?: unknown;
  runId?: unknown;
  tokenSealed?: unknown;
};

/**
 * The `changed` command for a changed item, or null: only connections of channels that hold
 * sessions, and only when what a session depends on changed (created, removed, status, run,
 * credentials). `change` names the change (the stream record's sequence number).
 */
export function changedCommandOf(channels: Channels, change: { next?: SessionInputs; previous?: SessionInputs; sequence: string }): WorkerCommand | null {
  const item = change.next ?? change.previous;
  if (item?.type !== entityTypes.service || typeof item.id !== 'string' || typeof item.accountId !== 'string') return null;
  if (!channels.get(item.channelType as ServiceType)?.sessions) return null;
  const { next, previous } = change;
  const same = next && previous && next.status === previous.status && next.runId === previous.runId && next.tokenSealed === previous.tokenSealed;
  if (same) return null;
  return { kind: 'changed', accountId: item.accountId, serviceId: item.id, change: change.sequence };
}
