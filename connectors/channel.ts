/**
 * The one interface every channel adapter (WhatsApp through Baileys, Telegram through grammY)
 * implements, and the shapes that cross it.
 *
 * Outbound: the dispatcher (functions/streams/dispatch-outbound.ts) calls `send` for each message
 * stored with ack 0 and records the answer. Inbound: adapters call the domain's
 * `receiveMessage`, `receiveAck` and `receiveEdit` (shared/domain/messages/inbound.ts).
 */
import type { MessageType } from '#contracts/messages.ts';
import type { ServiceType } from '#contracts/services.ts';

export interface ChannelConnection {
  accountId: string;
  serviceId: string;
  type: ServiceType;
  /** Channel credentials, opened from the vault (the Telegram bot token). */
  token: string | null;
}

export interface OutboundMessage {
  messageId: string;
  /** The contact's id on the channel (Telegram chat id, WhatsApp JID). */
  to: string;
  type: MessageType;
  text: string;
  file: { name: string; mimetype: string; size: number; read: () => Promise<Uint8Array>; url: string } | null;
  /** The channel id of the message this one replies to. */
  replyTo: string | null;
}

export interface SentMessage {
  channelMessageId: string;
  timestamp?: string;
}

/** A send the channel refused. `retryAfterSeconds` when the channel asks to come back later. */
export class ChannelSendError extends Error {
  constructor(
    /** Why, in pt-BR, as the person who sent it should read it. */
    readonly reason: string,
    readonly options: { retryAfterSeconds?: number; permanent?: boolean } = {},
  ) {
    super(reason);
    this.name = 'ChannelSendError';
  }
}

export interface Channel {
  readonly type: ServiceType | 'any';
  send(connection: ChannelConnection, message: OutboundMessage): Promise<SentMessage>;
}

/** What an adapter hands over for each message it receives (or sees sent from the phone). */
export interface InboundMessage {
  accountId: string;
  serviceId: string;
  channelMessageId: string;
  /** The chat: the person, or the group for group messages. */
  chat: {
    idFromService: string;
    name: string;
    isGroup: boolean;
    phoneNumber?: string | null;
    /** The sender's picture, already copied into the bucket (`avatarObjectKey`). */
    avatarObjectKey?: string | null;
  };
  /** In groups, who wrote it. */
  author?: { idFromService: string; name: string } | null;
  isFromMe: boolean;
  type: MessageType;
  text: string;
  /** Media already copied into the bucket by the adapter. */
  file?: { objectKey: string; name: string; mimetype: string; size: number } | null;
  replyToChannelMessageId?: string | null;
  timestamp: string;
}

export interface InboundAck {
  accountId: string;
  serviceId: string;
  channelMessageId: string;
  ack: number;
}

export interface InboundEdit {
  accountId: string;
  serviceId: string;
  channelMessageId: string;
  text: string;
}
