/**
 * Forwarding (docs/product.md#team-inbox, ADR-0218): a message of one conversation
 * sent again to up to 10 contacts, each as a new message of the caller's marked `forwarded`, stored at
 * ack 0 like any send (send-message.ts), so the outbound stream hands each to its channel. The text
 * goes as it was; a file goes as a copy of the stored object under a file record of its own, since a
 * conversation's files go with it when its contact is deleted (contact-purge.ts). Not signed: a
 * forward carries someone else's words.
 */
import { customerWindow } from '#contracts/customer-window.ts';
import { errorTexts, type ErrorText } from '#contracts/errors.ts';
import { ack, type ForwardMessagePayload, forwardTexts, type Message } from '#contracts/messages.ts';
import { getContactItem, type ContactItem } from '#db/contacts.ts';
import { putFile } from '#db/files.ts';
import { fileObjectKey } from '#db/keys.ts';
import { getMessageItem, messageItem, type MessageItem, type StoredFile } from '#db/messages.ts';
import { getServiceItem, type ServiceItem } from '#db/services.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { canSee, loadVisibleContact, viewerOf } from '../conversations/visibility.ts';
import { toMessage } from './present-message.ts';
import { recordTeamMessage } from './send-message.ts';

/** Why a contact cannot be sent to now (the catalogue's texts, as a send would answer), or null. */
function refusalOf(ports: Ports, contact: ContactItem, service: ServiceItem | undefined): ErrorText | null {
  if (contact.archivedAt) return errorTexts.contactArchived;
  if (service?.status !== 'connected') return errorTexts.serviceDisconnected;
  if (customerWindow({ lastInboundAt: contact.lastInboundAt, service: { type: service.channelType } }, ports.clock()).kind === 'closed') {
    return errorTexts.customerWindowClosed;
  }
  return null;
}

/** What of the message can be forwarded; a field error on `id` when nothing can. */
function forwardable(message: MessageItem): void {
  const refuse = (text: string) => fail.invalid(errorTexts.invalidParams, [{ path: 'id', message: text }]);
  if (message.kind) throw refuse(forwardTexts.notAMessage);
  if (message.ack === ack.deleted) throw refuse(forwardTexts.deleted);
  if (message.filePending) throw refuse(forwardTexts.filePending);
  if (!message.file && !message.text.trim()) throw refuse(forwardTexts.empty);
}

/**
 * Forwards a message to each contact of `toContactIds` (repeated ids once). A conversation the
 * caller may not see, the source's or a target's, answers 404 as elsewhere; targets that cannot be
 * sent to now (archived, connection disconnected, the Cloud API's 24-hour window closed) answer 400
 * with the catalogue's text per target (`toContactIds.N`) and nothing is sent.
 */
export async function forwardMessage(ports: Ports, session: AccountSession, messageId: string, payload: ForwardMessagePayload): Promise<Message[]> {
  const viewer = await viewerOf(ports, session);
  await loadVisibleContact(ports, session, payload.contactId, viewer);
  const source = await getMessageItem(ports.table, session.accountId, payload.contactId, messageId);
  if (!source) throw fail.notFound();
  forwardable(source);

  const ids = [...new Set(payload.toContactIds)];
  const contacts = await Promise.all(ids.map((id) => getContactItem(ports.table, session.accountId, id)));
  if (contacts.some((contact) => !contact || !canSee(viewer, contact))) throw fail.notFound();
  const targets = contacts as ContactItem[];
  const services = new Map<string, Promise<ServiceItem | undefined>>();
  const serviceOf = (id: string) => {
    if (!services.has(id)) services.set(id, getServiceItem(ports.table, session.accountId, id));
    return services.get(id)!;
  };
  const refusals = await Promise.all(targets.map(async (contact) => refusalOf(ports, contact, await serviceOf(contact.serviceId))));
  const details = refusals.flatMap((message, i) => (message ? [{ path: `toContactIds.${payload.toContactIds.indexOf(ids[i]!)}`, message }] : []));
  if (details.length) throw fail.invalid(errorTexts.invalidParams, details);

  // The bytes are read once and copied for each target.
  const bytes = source.file ? await ports.storage.get(source.file.objectKey) : null;
  const forwarded: MessageItem[] = [];
  for (const contact of targets) {
    const now = ports.clock();
    const id = ports.newId(now.getTime());
    const file = source.file && bytes ? await copyFile(ports, session, contact, source, source.file, bytes, now.toISOString()) : null;
    const message = messageItem({
      id,
      accountId: session.accountId,
      contactId: contact.id,
      serviceId: contact.serviceId,
      text: source.text,
      messageType: source.messageType,
      timestamp: now.toISOString(),
      isFromMe: true,
      ack: ack.sending,
      error: null,
      file,
      quotedMessage: null,
      replyMessageId: null,
      replyToChannelMessageId: null,
      user: { id: session.user.id, name: session.user.name },
      groupContact: null,
      channelMessageId: null,
      sendAttempt: 1,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      forwarded: true,
    });
    await recordTeamMessage(ports, session, contact, message);
    forwarded.push(message);
  }
  return Promise.all(forwarded.map((m) => toMessage(m, ports.storage.downloadUrl)));
}

/** A copy of the source's file for one target: a new object and a file record of its own. */
async function copyFile(
  ports: Ports,
  session: AccountSession,
  contact: ContactItem,
  source: MessageItem,
  file: StoredFile,
  bytes: Uint8Array,
  now: string,
): Promise<StoredFile> {
  const id = ports.newId(Date.parse(now));
  const objectKey = fileObjectKey(session.accountId, id, file.name);
  await ports.storage.put(objectKey, bytes, file.mimetype);
  await putFile(ports.table, {
    id,
    accountId: session.accountId,
    serviceId: contact.serviceId,
    name: file.name,
    mimetype: file.mimetype,
    size: bytes.byteLength,
    messageType: source.messageType,
    isPtt: source.messageType === 'voice',
    objectKey,
    createdAt: now,
  });
  return { id, name: file.name, mimetype: file.mimetype, size: bytes.byteLength, objectKey };
}
