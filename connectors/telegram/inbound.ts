/**
 * Inbound Telegram messages: private chats and groups; text, photo, video, voice, audio, document
 * and stickers (as images), with captions, replies and edits. Media is fetched through getFile
 * into the bucket, only when the domain asks for it (a message not stored before); the domain
 * stores the message once per channel id and creates unknown senders. Nothing here reads the table.
 */
import { Composer, type Api, type Context } from 'grammy';
import type { Message } from 'grammy/types';
import type { MessageType } from '#contracts/messages.ts';
import { avatarObjectKey, fileObjectKey } from '#db/keys.ts';
import type { InboundMedia, InboundSink } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { telegramApiRoot } from './config.ts';

export interface InboundTarget {
  accountId: string;
  serviceId: string;
  token: string;
}

/** Telegram message ids are unique per chat only, so the channel id is `<chat id>:<message id>`. */
export function channelMessageIdOf(chatId: number | string, messageId: number): string {
  return `${chatId}:${messageId}`;
}

/** The Telegram message id inside a channel id made by `channelMessageIdOf`. */
export function telegramMessageIdOf(channelMessageId: string): number | null {
  const id = Number(channelMessageId.split(':').pop());
  return Number.isSafeInteger(id) ? id : null;
}

/** The Bot API lets bots download files up to 20 MB. */
const maxDownloadBytes = 20 * 1024 * 1024;

interface Media {
  fileId: string;
  size?: number;
  name: string;
  mimetype: string;
  type: MessageType;
}

function personName(user: { first_name: string; last_name?: string; username?: string }): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username || '';
}

function extension(path: string | undefined, fallback: string): string {
  const m = /\.(\w{1,5})$/.exec(path ?? '');
  return m ? m[1]!.toLowerCase() : fallback;
}

/** The media a message carries, if any (the largest photo size; a sticker as an image). */
function mediaOf(message: Message): Media | null {
  const id = message.message_id;
  if (message.photo?.length) {
    const photo = message.photo[message.photo.length - 1]!;
    return { fileId: photo.file_id, size: photo.file_size, name: `foto-${id}.jpg`, mimetype: 'image/jpeg', type: 'image' };
  }
  if (message.animation) {
    const a = message.animation;
    return { fileId: a.file_id, size: a.file_size, name: a.file_name ?? `animacao-${id}.mp4`, mimetype: a.mime_type ?? 'video/mp4', type: 'video' };
  }
  if (message.video) {
    const v = message.video;
    return { fileId: v.file_id, size: v.file_size, name: v.file_name ?? `video-${id}.mp4`, mimetype: v.mime_type ?? 'video/mp4', type: 'video' };
  }
  if (message.video_note) {
    const v = message.video_note;
    return { fileId: v.file_id, size: v.file_size, name: `video-${id}.mp4`, mimetype: 'video/mp4', type: 'video' };
  }
  if (message.voice) {
    const v = message.voice;
    return { fileId: v.file_id, size: v.file_size, name: `voz-${id}.ogg`, mimetype: v.mime_type ?? 'audio/ogg', type: 'voice' };
  }
  if (message.audio) {
    const a = message.audio;
    return { fileId: a.file_id, size: a.file_size, name: a.file_name ?? `audio-${id}.mp3`, mimetype: a.mime_type ?? 'audio/mpeg', type: 'audio' };
  }
  if (message.document) {
    const d = message.document;
    return {
      fileId: d.file_id,
      size: d.file_size,
      name: d.file_name ?? `arquivo-${id}`,
      mimetype: d.mime_type ?? 'application/octet-stream',
      type: 'document',
    };
  }
  if (message.sticker) {
    const s = message.sticker;
    // Animated (.tgs) and video stickers are not images; their thumbnail is.
    const still = !s.is_animated && !s.is_video ? { file_id: s.file_id, file_size: s.file_size } : s.thumbnail;
    if (!still) return null;
    return { fileId: still.file_id, size: still.file_size, name: `figurinha-${id}.webp`, mimetype: 'image/webp', type: 'image' };
  }
  return null;
}

/** Downloads a file through getFile into the bucket, under the account. Null when Telegram will not hand it over. */
async function copyToBucket(ports: Ports, api: Api, target: InboundTarget, media: Media): ReturnType<InboundMedia['load']> {
  if (media.size !== undefined && media.size > maxDownloadBytes) return null;
  const file = await api.getFile(media.fileId);
  if (!file.file_path || (file.file_size ?? 0) > maxDownloadBytes) return null;
  const res = await fetch(`${telegramApiRoot()}/file/bot${target.token}/${file.file_path}`);
  if (!res.ok) throw new Error(`Telegram file download answered ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ext = extension(file.file_path, 'bin');
  // A sticker's thumbnail may be a JPEG rather than a WebP.
  const jpegThumb = media.mimetype === 'image/webp' && (ext === 'jpg' || ext === 'jpeg');
  const mimetype = jpegThumb ? 'image/jpeg' : media.mimetype;
  const name = jpegThumb ? media.name.replace(/\.webp$/, '.jpg') : media.name.includes('.') ? media.name : `${media.name}.${ext}`;
  const objectKey = fileObjectKey(target.accountId, ports.newId(), name);
  await ports.storage.put(objectKey, bytes, mimetype);
  return { objectKey, name, mimetype, size: bytes.length };
}

/**
 * Copies a person's current profile photo into the bucket, for a sender seen for the first time.
 * The picture is a nicety: when Telegram will not hand it over, the contact simply has none.
 */
async function copyAvatar(ports: Ports, api: Api, target: InboundTarget, userId: number): Promise<string | null> {
  try {
    const photos = await api.getUserProfilePhotos(userId, { limit: 1 });
    const sizes = photos.photos[0];
    if (!sizes?.length) return null;
    const size = sizes.find((s) => s.width >= 160) ?? sizes[sizes.length - 1]!;
    const file = await api.getFile(size.file_id);
    if (!file.file_path) return null;
    const res = await fetch(`${telegramApiRoot()}/file/bot${target.token}/${file.file_path}`);
    if (!res.ok) return null;
    const key = avatarObjectKey(target.accountId, target.serviceId, String(userId));
    await ports.storage.put(key, new Uint8Array(await res.arrayBuffer()), 'image/jpeg');
    return key;
  } catch (error) {
    console.warn(`[telegram] no profile photo for ${userId}:`, (error as Error).message);
    return null;
  }
}

/** The text of a message with nothing to download: stickers, locations, contact cards. */
function placeholderText(message: Message): string {
  if (message.sticker) return message.sticker.emoji ?? '[figurinha]';
  if (message.location) return `[localização] https://maps.google.com/?q=${message.location.latitude},${message.location.longitude}`;
  if (message.contact) return `[contato] ${message.contact.first_name} ${message.contact.phone_number}`;
  return '';
}

export async function storeMessage(ports: Ports, sink: InboundSink, api: Api, target: InboundTarget, message: Message): Promise<void> {
  const chat = message.chat;
  const isGroup = chat.type === 'group' || chat.type === 'supergroup';
  const media = mediaOf(message);
  const text = message.text ?? message.caption ?? (media ? '' : placeholderText(message));
  if (!text && !media) return;
  const name =
    'title' in chat && chat.title ? chat.title : 'first_name' in chat ? personName(chat as { first_name: string; last_name?: string; username?: string }) : '';
  await sink.message({
    channelMessageId: channelMessageIdOf(chat.id, message.message_id),
    chat: {
      idFromService: String(chat.id),
      name,
      isGroup,
      phoneNumber: null,
      avatar: chat.type === 'private' ? () => copyAvatar(ports, api, target, chat.id) : undefined,
    },
    author: isGroup && message.from ? { idFromService: String(message.from.id), name: personName(message.from) } : null,
    isFromMe: false,
    type: media ? media.type : 'text',
    text,
    media: media
      ? {
          load: () => copyToBucket(ports, api, target, media),
          unavailableText: message.sticker ? (message.sticker.emoji ?? '[figurinha]') : '[arquivo grande demais para o bot baixar]',
        }
      : null,
    replyToChannelMessageId: message.reply_to_message ? channelMessageIdOf(chat.id, message.reply_to_message.message_id) : null,
    timestamp: messageTime(message.date),
  });
}

/**
 * Telegram dates are whole seconds. Within its second a message takes the moment it was received
 * (never outside that second), so messages of one second keep the order they arrived in, and a
 * customer's answer sorts after a reply our side sent earlier in the same second.
 */
export function messageTime(dateSeconds: number, now = Date.now()): string {
  const start = dateSeconds * 1000;
  return new Date(Math.min(Math.max(now, start), start + 999)).toISOString();
}

export function messagesComposer(ports: Ports, sink: InboundSink, target: InboundTarget): Composer<Context> {
  const composer = new Composer<Context>();
  composer.on('message', (ctx) => storeMessage(ports, sink, ctx.api, target, ctx.message));
  return composer;
}

/**
 * A tap on a button of an inline keyboard we sent (a menu, the rating): answered at once (Telegram
 * shows a spinner on the button until then), and stored as the customer's message reading the
 * button's label, with its key as the option picked. The id is the callback's, so a redelivery is
 * stored once.
 */
export function callbacksComposer(sink: InboundSink): Composer<Context> {
  const composer = new Composer<Context>();
  composer.on('callback_query:data', async (ctx) => {
    const query = ctx.callbackQuery;
    await ctx.answerCallbackQuery().catch(() => undefined);
    const chat = query.message?.chat;
    if (chat?.type !== 'private') return;
    const keyboard = query.message && 'reply_markup' in query.message ? query.message.reply_markup?.inline_keyboard : undefined;
    const label = keyboard?.flat().find((b) => 'callback_data' in b && b.callback_data === query.data)?.text ?? query.data;
    await sink.message({
      channelMessageId: `callback:${query.id}`,
      chat: { idFromService: String(chat.id), name: personName(query.from), isGroup: false, phoneNumber: null },
      author: null,
      isFromMe: false,
      type: 'text',
      text: label,
      choice: query.data,
      replyToChannelMessageId: query.message ? channelMessageIdOf(chat.id, query.message.message_id) : null,
      timestamp: new Date().toISOString(),
    });
  });
  return composer;
}

export function editsComposer(sink: InboundSink): Composer<Context> {
  const composer = new Composer<Context>();
  composer.on('edited_message', async (ctx) => {
    const message = ctx.editedMessage;
    await sink.edit({ channelMessageId: channelMessageIdOf(message.chat.id, message.message_id), text: message.text ?? message.caption ?? '' });
  });
  return composer;
}
