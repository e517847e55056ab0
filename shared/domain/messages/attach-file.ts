/**
 * The file of an inbound message stored before it (`InboundMedia.pendingText`): a channel whose
 * downloads may take minutes (WhatsApp) stores the message at once and hands the file over when it
 * has it. Loaded only while the message still waits for it, so a repeat (a replay after a crash)
 * neither downloads nor writes again; the message then shows the file (or why there is none) and
 * its contact's preview follows.
 */
import { messageTypeOf } from '#contracts/files.ts';
import { attachFile, messageByChannelId, type MessageItem } from '#db/messages.ts';
import type { InboundAttachment } from '../channels/port.ts';
import type { Ports } from '../ports.ts';
import type { InboundConnection } from './inbound.ts';
import { storeFile } from './inbound.ts';
import { refreshLastMessage } from './last-message.ts';

/** Answers the message with its file, or null when no message waits for one under that id. */
export async function attachInboundFile(ports: Ports, from: InboundConnection, input: InboundAttachment): Promise<MessageItem | null> {
  const message = await messageByChannelId(ports.table, from.accountId, from.serviceId, input.channelMessageId);
  if (!message?.filePending) return null;
  const file = await storeFile(ports, from, input);
  const text = input.text || (file ? '' : input.media.unavailableText);
  const messageType = file ? (messageTypeOf(file.mimetype, input.type === 'voice') ?? input.type) : 'text';
  const updated = await attachFile(ports.table, message, { file, text, messageType }, ports.clock().toISOString());
  if (!updated) return null;
  await refreshLastMessage(ports, updated);
  return updated;
}
