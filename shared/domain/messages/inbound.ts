/**
 * What channels report: messages (stored once per channel id, creating the contact when unknown),
 * acks (which only move forward, except to deleted or error), edits, deletions and reactions.
 * Adapters reach these through the `InboundSink` of shared/domain/channels/inbound-sink.ts.
 *
 * One inbound message reads each item once: its channel-id guard, the contact's guard and the
 * contact (or, for a new sender, the account while the contact is made), and for a reply the
 * quoted message. Media and the sender's picture are fetched only for what is new.
 */
import { ack as acks, nextAck } from '#contracts/messages.ts';
import { messageTypeOf } from '#contracts/files.ts';
import { contactIdByChannel, getContactItem, type ContactFields, type ContactItem } from '#db/contacts.ts';
import { putFile } from '#db/files.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { channelMessageExists, editMessageText, messageByChannelId, moveAck, summaryOf, writeReactions, type MessageItem } from '#db/messages.ts';
import type { InboundAck, InboundAlias, InboundEdit, InboundMessage, InboundReaction } from '../channels/port.ts';
import { linkChannelIds } from '../contacts/channel-aliases.ts';
import { insertContact } from '../contacts/contacts.ts';
import type { Ports } from '../ports.ts';
import { refreshLastMessage } from './last-message.ts';
import { reopenedText, reopenOnInbound, routedDepartment, routedLines } from '../conversations/inbound-routing.ts';
import { conversationLine } from '../conversations/conversation-lines.ts';
import { applyLifecycle, isGoingOn, lifecycleOf, newProtocol } from '../automations/apply-lifecycle.ts';
import { type AutomationContext, automationContext, automationSettingsOf } from '../automations/automation-context.ts';
import { eventsWithoutAutomations } from '../automations/conversation-events.ts';
import { optOutOnInbound } from '../contacts/opt-out.ts';
import { TurnAfterMove } from '../automations/assign-in-turn.ts';
import type { LifecycleState } from '../automations/lifecycle.ts';
import type { Steps } from '#db/transaction.ts';
import { recordMessage } from './record-message.ts';

/** The connection a report comes from. */
export interface InboundConnection {
  accountId: string;
  serviceId: string;
}

async function knownContact(ports: Ports, from: InboundConnection, idFromService: string): Promise<ContactItem | undefined> {
  const id = await contactIdByChannel(ports.table, from.accountId, from.serviceId, idFromService);
  return id ? getContactItem(ports.table, from.accountId, id) : undefined;
}

/** The contact of a chat, made when unknown (routed to the connection's department), its other ids linked. */
export async function contactFor(ports: Ports, from: InboundConnection, input: Pick<InboundMessage, 'chat' | 'timestamp'>): Promise<ContactItem> {
  const { idFromService } = input.chat;
  const aliases = (input.chat.aliases ?? []).filter((a) => a !== idFromService);
  const link = (alias: string) => linkChannelIds(ports, { ...from, idFromService, alias, phoneNumber: input.chat.phoneNumber ?? null });
  const known = await knownContact(ports, from, idFromService);
  if (known) {
    // Ids the contact already has cost nothing more; a new one is linked (merging a contact made under it).
    let contact = known;
    for (const alias of aliases) if (!(contact.channelAliases ?? []).includes(alias)) contact = (await link(alias)) ?? contact;
    return contact;
  }
  // A contact made under another id of this chat (a WhatsApp @lid id before the number was known) takes this one.
  for (const alias of aliases) {
    if (await contactIdByChannel(ports.table, from.accountId, from.serviceId, alias)) {
      const linked = await link(alias);
      if (linked) return linked;
    }
  }
  const name = input.chat.name || (input.chat.lookupName ? await input.chat.lookupName() : '');
  const routed = await routedDepartment(ports, from);
  try {
    return await insertContact(
      ports,
      {
        accountId: from.accountId,
        serviceId: from.serviceId,
        name: name || input.chat.phoneNumber || idFromService,
        contactType: input.chat.isGroup ? 'group' : 'user',
        idFromService,
        channelAliases: aliases,
        email: null,
        phoneNumber: input.chat.phoneNumber ?? null,
        phoneCountry: null,
        gender: null,
        avatarKey: input.chat.avatar ? await input.chat.avatar() : null,
        ...routed,
      },
      routedLines(ports, routed, input.timestamp),
    );
  } catch (error) {
    // Two messages of a new contact at once: the other one created it.
    const again = await knownContact(ports, from, idFromService);
    if (again) return again;
    throw error;
  }
}

export async function storeFile(ports: Ports, from: InboundConnection, input: Pick<InboundMessage, 'media' | 'type'>): Promise<MessageItem['file']> {
  const loaded = input.media ? await input.media.load() : null;
  if (!loaded) return null;
  const record = await putFile(ports.table, {
    id: ports.newId(),
    accountId: from.accountId,
    serviceId: from.serviceId,
    name: loaded.name,
    mimetype: loaded.mimetype,
    size: loaded.size,
    messageType: input.type,
    isPtt: input.type === 'voice',
    objectKey: loaded.objectKey,
    createdAt: ports.clock().toISOString(),
  });
  return { id: record.id, name: record.name, mimetype: record.mimetype, size: record.size, objectKey: record.objectKey };
}

/**
 * What a message from the person changes on its contact: the last inbound time moves forward (the
 * Cloud API's 24-hour window runs from it; a late older message leaves it), and a resolved
 * conversation reopens, a person's message to one not going on starting a conversation for
 * reports; where the account runs automations, the conversation lifecycle decides instead (a score
 * to the rating question does not reopen it), and answers in the same write.
 */
function inboundChanges(
  ports: Ports,
  contact: ContactItem,
  message: Pick<MessageItem, 'text' | 'timestamp'>,
  automations: AutomationContext | null,
  turn: TurnAfterMove,
  choice: string | null,
): { changes: Partial<ContactFields>; lines: MessageItem[]; steps?: Steps } {
  const { timestamp } = message;
  const lastInboundAt = contact.lastInboundAt && contact.lastInboundAt > timestamp ? contact.lastInboundAt : timestamp;
  if (automations) {
    const at = Math.max(ports.clock().getTime(), Date.parse(timestamp) + 1);
    // A button or list row picked answers with its option's key, whatever its label reads.
    const event = { kind: 'customer_message' as const, text: choice ?? message.text, protocol: newProtocol(ports, at) };
    const outcome = applyLifecycle(ports, contact, event, automations, { at, cause: 'customer' });
    turn.note(outcome);
    if (!outcome) return { changes: { lastInboundAt }, lines: [] };
    const state = outcome.changes.lifecycle as LifecycleState;
    const reopened = contact.lastMessageAt && !isGoingOn(lifecycleOf(contact)) && isGoingOn(state);
    return {
      changes: { ...outcome.changes, lastInboundAt },
      lines: [...(reopened ? [conversationLine(ports, contact, 'system', reopenedText, null, Date.parse(timestamp) - 1)] : []), ...outcome.lines],
      steps: outcome.steps,
    };
  }
  const reopened = reopenOnInbound(ports, contact, timestamp);
  const changes: Partial<ContactFields> = { ...reopened?.changes, lastInboundAt };
  const lines = reopened?.lines ?? [];
  // Reports count a person's conversations with no automation on too (ADR-0234).
  if (contact.contactType !== 'user') return { changes, lines };
  const at = Math.max(ports.clock().getTime(), Date.parse(timestamp) + 1);
  const event = { kind: 'customer_message' as const, text: message.text, protocol: newProtocol(ports, at) };
  return { changes, lines, steps: eventsWithoutAutomations(contact, event, changes, { at, cause: 'customer' }) };
}

/** Stores an inbound message; a redelivered one (same channel id) changes nothing. Answers the message, or null for a repeat. */
export async function receiveMessage(ports: Ports, from: InboundConnection, input: InboundMessage): Promise<MessageItem | null> {
  if (await channelMessageExists(ports.table, from.accountId, from.serviceId, input.channelMessageId)) return null;
  const contact = await contactFor(ports, from, input);
  const quoted = input.replyToChannelMessageId
    ? await messageByChannelId(ports.table, from.accountId, from.serviceId, input.replyToChannelMessageId)
    : undefined;
  // A file that comes after the message (`pendingText`) is attached by `attachInboundFile`.
  const later = Boolean(input.media?.pendingText);
  const file = later ? null : await storeFile(ports, from, input);
  const text = input.text || (input.media && !file ? (later ? input.media.pendingText! : input.media.unavailableText) : '');
  const now = ports.clock().toISOString();
  const id = ports.newId(Date.parse(input.timestamp) || undefined);
  const message: MessageItem = {
    ...keys.message(from.accountId, contact.id, id),
    type: entityTypes.message,
    id,
    accountId: from.accountId,
    contactId: contact.id,
    serviceId: from.serviceId,
    text,
    messageType: file ? (messageTypeOf(file.mimetype, input.type === 'voice') ?? input.type) : input.media ? 'text' : input.type,
    timestamp: new Date(Date.parse(input.timestamp) || Date.now()).toISOString(),
    isFromMe: input.isFromMe,
    ack: input.isFromMe ? acks.sent : acks.delivered,
    error: null,
    file,
    ...(later ? { filePending: true } : {}),
    quotedMessage: quoted ? summaryOf(quoted) : null,
    replyMessageId: quoted?.id ?? null,
    replyToChannelMessageId: input.replyToChannelMessageId ?? null,
    user: null,
    groupContact: input.chat.isGroup && input.author ? { id: input.author.idFromService, name: input.author.name } : null,
    channelMessageId: input.channelMessageId,
    sendAttempt: 0,
    createdAt: now,
    updatedAt: now,
  };
  // Automations answer a person's own chat, never a group's.
  const person = !input.isFromMe && contact.contactType === 'user';
  const [automations, settings] = person
    ? await Promise.all([automationContext(ports, from.accountId, from.serviceId), message.text ? automationSettingsOf(ports, from.accountId) : null])
    : [null, null];
  const turn = new TurnAfterMove();
  const outcome = await recordMessage(ports, message, {
    countUnread: !input.isFromMe,
    guardChannelId: input.channelMessageId,
    contact,
    also: input.isFromMe
      ? undefined
      : (current) => {
          const changes = inboundChanges(ports, current, message, automations, turn, input.choice ?? null);
          // An opt-out word typed (not a button or list row tapped) is recorded with the message, after the lifecycle's answers (ADR-0225).
          const at = Math.max(ports.clock().getTime(), Date.parse(message.timestamp) + 1) + 2;
          const optOut = settings && !input.choice && optOutOnInbound(ports, current, message.text, settings.optOut, at);
          return optOut ? { ...changes, changes: { ...changes.changes, ...optOut.changes }, lines: [...changes.lines, ...optOut.lines] } : changes;
        },
  });
  if (!outcome.stored) return null;
  await turn.run(ports, { accountId: from.accountId, contactId: contact.id }, automations);
  return outcome.message;
}

/** Moves a message's ack as the channel reports; never backwards except to deleted or error. */
export async function receiveAck(ports: Ports, from: InboundConnection, input: InboundAck): Promise<MessageItem | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const message = await messageByChannelId(ports.table, from.accountId, from.serviceId, input.channelMessageId);
    if (!message) return null;
    const next = (input.next ?? nextAck)(message.ack, input.ack);
    if (next === message.ack) return message;
    const reason = next === acks.error ? input.reason : undefined;
    const updated = await moveAck(ports.table, message, next, ports.clock().toISOString(), reason);
    if (updated) {
      await refreshLastMessage(ports, updated);
      return updated;
    }
  }
  return null;
}

/** A message edited on the channel: the new text replaces the old. */
export async function receiveEdit(ports: Ports, from: InboundConnection, input: InboundEdit): Promise<MessageItem | null> {
  const message = await messageByChannelId(ports.table, from.accountId, from.serviceId, input.channelMessageId);
  if (!message || message.text === input.text) return message ?? null;
  const updated = await editMessageText(ports.table, message, input.text, ports.clock().toISOString(), input.edited ?? true);
  await refreshLastMessage(ports, updated);
  return updated;
}

/** A reaction set or taken away on the channel; the latest one per reactor wins. */
export async function receiveReaction(ports: Ports, from: InboundConnection, input: InboundReaction): Promise<MessageItem | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const message = await messageByChannelId(ports.table, from.accountId, from.serviceId, input.channelMessageId);
    if (!message) return null;
    const current = message.reactions ?? {};
    const previous = current[input.reactorId];
    // A late delivery of an older reaction does not undo a newer one.
    if (previous && previous.at > input.timestamp) return message;
    const { [input.reactorId]: _, ...others } = current;
    void _;
    const next = input.emoji ? { ...others, [input.reactorId]: { emoji: input.emoji, fromMe: input.fromMe, at: input.timestamp } } : others;
    const updated = await writeReactions(ports.table, message, next, ports.clock().toISOString());
    if (updated) return updated;
  }
  return null;
}

/** A message deleted for everyone on the channel: its ack becomes deleted (-1). */
export function receiveDeletion(ports: Ports, from: InboundConnection, channelMessageId: string): Promise<MessageItem | null> {
  return receiveAck(ports, from, { channelMessageId, ack: acks.deleted });
}

/** Two ids of one chat (a WhatsApp @lid id and the phone-number JID): one contact holds both. */
export async function receiveAlias(ports: Ports, from: InboundConnection, input: InboundAlias): Promise<ContactItem | undefined> {
  return linkChannelIds(ports, { ...from, ...input });
}
