/**
 * Inbound WhatsApp messages (Baileys `messages.upsert`) as the port's shapes: text and extended
 * text, image, video and video note (ptv), audio, voice (ptt), document, sticker (as an image),
 * location, contact cards, polls (with their current tally, votes decrypted in ./polls.ts) and button or list replies (as readable text), with captions
 * and quoted replies, in private chats and groups, from the customer or from the phone itself. Edits and deletions for everyone arrive as protocol messages
 * and reactions as reaction messages; they go to the sink's `edit`, `deletion` and `reaction`.
 *
 * Everything is taken from the raw message Baileys upserts (Baileys derives `messages.reaction`
 * and the edit/revoke forms of `messages.update` from the same message; following both would hand
 * each over twice). The channel message id is WhatsApp's message id (`key.id`).
 */
import { isJidGroup, normalizeMessageContent, proto, toNumber, type WAMessage } from 'baileys';
import type { InboundMessage, InboundSink } from '#domain/channels/port.ts';
import { chatOf, isIgnoredChat, participantOf, personJid, phoneOf, type PnForLid } from './jids.ts';
import { inboundMedia, maxInboundBytes, mediaOf, tooLargeMediaText, type MediaTarget } from './media.ts';
import { applyVote, pollCreationOf, pollRecordOf, pollTally, type PollStore } from './polls.ts';
import { isoTime, messageTime } from './time.ts';

/** What the mapping needs besides the message. */
export interface InboundContext {
  sink: InboundSink;
  media: MediaTarget;
  /** Our own JID (the paired number), once known: the reactor of reactions made on the phone. */
  me(): string | null;
  /** A group's name (its subject); empty when it cannot be had (the domain then names the contact by its id). Asked only for a new contact. */
  groupName(jid: string): Promise<string>;
  /** The phone-number JID of a `@lid` id, from Baileys' LID store; absent where there is none. */
  pnForLid?: PnForLid;
  /** Copies a chat's profile picture into the bucket (its key, or null); asked only for a new contact. */
  avatar?(jid: string): Promise<string | null>;
  /** Where polls' secrets and votes are kept (./polls.ts); without it votes are not counted. */
  polls?: PollStore;
}

/** The text a content carries: the message itself, or a media caption. */
export function textOf(content: proto.IMessage): string {
  return (
    content.conversation ||
    content.extendedTextMessage?.text ||
    content.imageMessage?.caption ||
    content.videoMessage?.caption ||
    content.ptvMessage?.caption ||
    content.documentMessage?.caption ||
    ''
  );
}

function vcardPhone(vcard: string | null | undefined): string {
  const waid = /waid=(\d+)/.exec(vcard ?? '');
  if (waid) return `+${waid[1]}`;
  const tel = /TEL[^:]*:([^\r\n]+)/.exec(vcard ?? '');
  return tel ? tel[1]!.trim() : '';
}

const contactCard = (c: proto.Message.IContactMessage) => `[contato] ${[c.displayName, vcardPhone(c.vcard)].filter(Boolean).join(' ')}`;

/** A poll as the customer sees it before anyone voted: the question, then one option a line. */
function pollText(poll: proto.Message.IPollCreationMessage): string {
  return pollTally({ question: poll.name ?? '', options: (poll.options ?? []).map((o) => o.optionName ?? ''), votes: {} });
}

/** What the customer chose on a business's buttons, list or template: the option's own text. */
function choiceText(content: proto.IMessage): string {
  return (
    content.buttonsResponseMessage?.selectedDisplayText ||
    content.listResponseMessage?.title ||
    content.templateButtonReplyMessage?.selectedDisplayText ||
    content.interactiveResponseMessage?.body?.text ||
    ''
  );
}

/**
 * Messages with nothing to download, as readable pt-BR text (as Telegram's adapter writes them):
 * places, contact cards, polls, and the option chosen on a business's buttons or list.
 */
export function placeholderText(content: proto.IMessage): string {
  const location = content.locationMessage ?? content.liveLocationMessage;
  if (location) {
    const place = content.locationMessage ? [content.locationMessage.name, content.locationMessage.address].filter(Boolean).join(', ') : '';
    return `[localização] https://maps.google.com/?q=${location.degreesLatitude},${location.degreesLongitude}${place ? ` (${place})` : ''}`;
  }
  if (content.contactMessage) return contactCard(content.contactMessage);
  if (content.contactsArrayMessage) return (content.contactsArrayMessage.contacts ?? []).map(contactCard).join('\n');
  const poll = pollCreationOf(content);
  if (poll) return pollText(poll);
  return choiceText(content);
}

/** The context info of whatever kind of message the content is (quotes live there). */
function contextInfoOf(content: proto.IMessage): proto.IContextInfo | null | undefined {
  for (const value of Object.values(content) as { contextInfo?: proto.IContextInfo | null }[]) {
    if (value && typeof value === 'object' && value.contextInfo) return value.contextInfo;
  }
  return null;
}

/** A message as the port's `InboundMessage`; null for what the inbox does not show. */
export async function toInboundMessage(context: InboundContext, message: WAMessage, content: proto.IMessage): Promise<InboundMessage | null> {
  const chat = await chatOf(message.key, context.pnForLid, context.me());
  const id = message.key.id;
  if (!chat || !id) return null;
  const chatJid = chat.id;
  const described = mediaOf(content, id);
  // A file its sender says is over the cap is never fetched: the message says so instead.
  const tooLarge = described?.declaredBytes !== undefined && described.declaredBytes > maxInboundBytes(described.type);
  const media = tooLarge ? null : described;
  const caption = textOf(content);
  const text = tooLarge
    ? [caption, tooLargeMediaText(described!.name, maxInboundBytes(described!.type))].filter(Boolean).join('\n')
    : caption || (media ? '' : placeholderText(content));
  if (!text && !media) return null;
  const isGroup = Boolean(isJidGroup(chatJid));
  const isFromMe = Boolean(message.key.fromMe);
  const author = isGroup && !isFromMe ? ((await participantOf(message.key, context.pnForLid))?.id ?? null) : null;
  const avatar = context.avatar;
  return {
    channelMessageId: id,
    chat: {
      idFromService: chatJid,
      ...(chat.aliases.length ? { aliases: chat.aliases } : {}),
      // A private chat is named after the customer's own push name, never ours; a group after its subject, looked up only for a new contact.
      name: isGroup || isFromMe ? '' : (message.pushName ?? ''),
      isGroup,
      phoneNumber: isGroup ? null : phoneOf(chatJid),
      ...(isGroup ? { lookupName: () => context.groupName(chatJid) } : {}),
      ...(avatar ? { avatar: () => avatar(chatJid) } : {}),
    },
    author: author ? { idFromService: author, name: message.pushName || phoneOf(author) || author } : null,
    isFromMe,
    type: media ? media.type : 'text',
    text,
    media: media ? inboundMedia(context.media, message, media) : null,
    replyToChannelMessageId: contextInfoOf(content)?.stanzaId ?? null,
    timestamp: messageTime(message.messageTimestamp),
  };
}

/** Who reacted: ourselves (from the phone), the group member, or the person of a private chat. */
async function reactorOf(context: InboundContext, message: WAMessage): Promise<string | null> {
  if (message.key.fromMe) return context.me();
  const person = isJidGroup(message.key.remoteJid ?? '') ? participantOf(message.key, context.pnForLid) : chatOf(message.key, context.pnForLid, context.me());
  return (await person)?.id ?? null;
}

/** What is left to do after a message was stored: fetch its file and attach it (run outside the chat's queue). */
export type Later = () => Promise<void>;

/**
 * Hands one upserted message to the sink, whatever it is. A message with a file is stored first;
 * the file's download and attachment are answered as `Later`, for the caller to run apart.
 */
export async function handleMessage(context: InboundContext, message: WAMessage): Promise<Later | undefined> {
  const jid = message.key.remoteJid;
  if (!jid || isIgnoredChat(jid)) return;
  const content = normalizeMessageContent(message.message);
  if (!content) return;

  const protocol = content.protocolMessage;
  if (protocol) {
    const target = protocol.key?.id;
    if (!target) return;
    if (protocol.type === proto.Message.ProtocolMessage.Type.REVOKE) {
      await context.sink.deletion({ channelMessageId: target });
      return;
    }
    if (protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT && protocol.editedMessage) {
      const edited = normalizeMessageContent(protocol.editedMessage);
      await context.sink.edit({ channelMessageId: target, text: edited ? textOf(edited) : '' });
      return;
    }
    return;
  }

  const reaction = content.reactionMessage;
  if (reaction) {
    const target = reaction.key?.id;
    const reactorId = await reactorOf(context, message);
    if (!target || !reactorId) return;
    const at = reaction.senderTimestampMs ? new Date(toNumber(reaction.senderTimestampMs)).toISOString() : isoTime(message.messageTimestamp);
    await context.sink.reaction({ channelMessageId: target, reactorId, fromMe: Boolean(message.key.fromMe), emoji: reaction.text ?? '', timestamp: at });
    return;
  }

  const pollVote = content.pollUpdateMessage;
  if (pollVote) {
    await countVote(context, message, pollVote);
    return;
  }

  const inbound = await toInboundMessage(context, message, content);
  if (!inbound) return;
  await context.sink.message(inbound);
  const poll = pollCreationOf(content);
  if (poll) await keepPoll(context, message, poll, content);
  const media = inbound.media;
  if (!media?.pendingText) return;
  // Also for a repeat (a replay): the domain attaches only to a message still waiting for its file.
  return () => context.sink.attach({ channelMessageId: inbound.channelMessageId, type: inbound.type, text: inbound.text, media });
}

/** A stored poll's secret and options, once (a replay keeps the votes counted since). */
async function keepPoll(context: InboundContext, message: WAMessage, poll: proto.Message.IPollCreationMessage, content: proto.IMessage): Promise<void> {
  const id = message.key.id;
  const record = pollRecordOf(message, poll, content, context.me());
  if (!id || !record || !context.polls || (await context.polls.get(id))) return;
  await context.polls.put(id, record);
}

/** A vote: decrypted with its poll's secret, counted, and the poll's message shows the new tally (not marked edited). */
async function countVote(context: InboundContext, message: WAMessage, vote: proto.Message.IPollUpdateMessage): Promise<void> {
  const pollId = vote.pollCreationMessageKey?.id;
  if (!pollId || !context.polls) return;
  const record = await context.polls.get(pollId);
  if (!record) return; // a poll from before this connection kept polls, or forgotten: nothing to count on
  const next = applyVote(record, pollId, message, vote, context.me());
  if (!next) return;
  await context.polls.put(pollId, next);
  await context.sink.edit({ channelMessageId: pollId, text: pollTally(next), edited: false });
}

/** Our own JID as the inbox keeps people (no device suffix). */
export function ownJid(user: { id: string } | undefined): string | null {
  return user?.id ? personJid(user.id) : null;
}
