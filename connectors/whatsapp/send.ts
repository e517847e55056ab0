/**
 * Outbound WhatsApp: text, images, videos and documents with their captions (documents with their
 * file names), audio, voice notes (`ptt`), and replies quoting the original. The socket is the live
 * one this worker holds for the connection; without one the dispatcher is asked to come back.
 * Thumbnails are not made (Baileys would need sharp, jimp or ffmpeg).
 */
import { createHash } from 'node:crypto';
import type { AnyMessageContent, WAMessage } from 'baileys';
import { ChannelSendError, oggOpusMimetype, type ChannelAdapter, type OutboundMessage } from '#domain/channels/port.ts';
import { oggOpusVoiceShape } from '#media/ogg-opus-waveform.ts';
import { notLiveText } from './adapter.ts';
import type { LiveConnection, LiveConnections } from './live.ts';
import type { WhatsAppSocket } from './socket.ts';
import { checkNumber, noWhatsAppText, recipientIds } from './lookup.ts';
import { isoTime } from './time.ts';

/**
 * Baileys' content for a message (audio has no caption on WhatsApp). Voice notes go as `ptt` only
 * as OGG/Opus (the dispatcher has already repackaged a WebM recording, with its length; the web app
 * records OGG/Opus where the browser has no WebM), labelled `audio/ogg; codecs=opus`, with their
 * seconds and the 64-bar waveform WhatsApp draws (`oggOpusVoiceShape`: Baileys makes none without
 * its optional `audio-decode`); a voice note in anything else (AAC/MP4) goes as a plain audio file.
 */
export async function contentOf(message: OutboundMessage): Promise<AnyMessageContent> {
  const content = await plainContentOf(message);
  // WhatsApp shows 'Encaminhada' on a message whose context says it was forwarded (once: score 1).
  return message.forwarded ? ({ ...content, contextInfo: { isForwarded: true, forwardingScore: 1 } } as AnyMessageContent) : content;
}

async function plainContentOf(message: OutboundMessage): Promise<AnyMessageContent> {
  if (!message.file) return { text: message.text };
  const bytes = await message.file.read();
  const media = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const caption = message.text ? { caption: message.text } : {};
  const { mimetype, name } = message.file;
  switch (message.type) {
    case 'image':
      return { image: media, mimetype, jpegThumbnail: '', ...caption };
    case 'video':
      return { video: media, mimetype, jpegThumbnail: '', ...caption };
    case 'voice': {
      // WhatsApp plays a voice note only as OGG/Opus; anything else (Safari's AAC) goes as plain audio.
      const shape = await oggOpusVoiceShape(bytes);
      if (!shape && !/^audio\/(ogg|opus)\b/i.test(mimetype)) return { audio: media, mimetype };
      const seconds = message.file.durationSeconds ?? shape?.seconds;
      return {
        audio: media,
        mimetype: oggOpusMimetype,
        ptt: true,
        ...(seconds ? { seconds: Math.max(1, Math.round(seconds)) } : {}),
        ...(shape ? { waveform: shape.waveform } : {}),
      };
    }
    case 'audio':
      return { audio: media, mimetype };
    default:
      return { document: media, mimetype, fileName: name, ...caption };
  }
}

/**
 * The message a reply quotes: the one this connection saw recently, or a minimal stand-in with the
 * id (the phone finds the original by it; the quote's preview text is then empty).
 */
export function quotedOf(live: LiveConnection, chatJid: string, replyTo: string): WAMessage {
  return live.recent(replyTo) ?? { key: { remoteJid: chatJid, id: replyTo, fromMe: false }, message: { conversation: '' } };
}

const pnServer = '@s.whatsapp.net';

/**
 * The chat to send to. WhatsApp refuses, with ack error 463 after the call has succeeded, sends to
 * the phone number of a person it moved to a LID (Baileys #2683: sending to the mapped LID stopped
 * the refusals), so a person's phone-number JID becomes their `@lid` id when this device's LID
 * store already links the two. Read from the store's own keys (`lid-mapping`: number → LID user),
 * never from WhatsApp: `lidMapping.getLIDForPN` runs a USync query for a number it does not know,
 * and an unknown number goes as before. Plain string handling: this module loads no Baileys code.
 */
export async function recipientOf(socket: WhatsAppSocket, jid: string): Promise<string> {
  if (!jid.endsWith(pnServer) || !socket.authState) return jid;
  const user = jid.slice(0, -pnServer.length).split(':')[0]!;
  try {
    const lid = (await socket.authState.keys.get('lid-mapping', [user]))[user];
    return typeof lid === 'string' && /^\d+$/.test(lid) ? `${lid}@lid` : jid;
  } catch (error) {
    console.warn(`[whatsapp] LID of ${jid} could not be read; sending to the number:`, (error as Error).message);
    return jid;
  }
}

/** Baileys' failures (Boom errors) as the dispatcher understands them. */
export function sendError(error: unknown): ChannelSendError {
  const status = (error as { output?: { statusCode?: number } })?.output?.statusCode;
  const text = error instanceof Error ? error.message : String(error);
  if (status === 428 || status === 408 || status === 503 || /connection (closed|lost)|timed out/i.test(text)) {
    return new ChannelSendError('A conexão com o WhatsApp caiu durante o envio. Tente de novo.', { retryAfterSeconds: 5 });
  }
  if (/media upload/i.test(text)) return new ChannelSendError('Não foi possível enviar o arquivo para o WhatsApp. Tente de novo.');
  return new ChannelSendError('Falha ao enviar a mensagem pelo WhatsApp. Tente de novo.');
}

/**
 * The WhatsApp id of a send (Baileys' `messageId` option), fixed by our message and its recipient,
 * in the shape of Baileys' own generateMessageIDV2 ('3EB0' and 18 hex digits). A retry after a
 * socket that closed mid-send (WhatsApp may already have taken the stanza) carries the same id, so
 * the customer's phone, which keeps one message per sender and id, shows it once; a send to another
 * JID of the contact (a LID after error 463) gets another id.
 */
export function whatsappMessageIdOf(messageId: string, to: string): string {
  return `3EB0${createHash('sha256').update(`${messageId}\n${to}`).digest('hex').toUpperCase().slice(0, 18)}`;
}

/** Sends through the sockets of a registry (the worker adapter's). */
export const sendThrough =
  (sockets: LiveConnections): ChannelAdapter['send'] =>
  async (connection, message) => {
    const live = sockets.get(connection.serviceId);
    if (!live) throw new ChannelSendError(notLiveText, { retryAfterSeconds: 5 });
    let content: AnyMessageContent;
    try {
      content = await contentOf(message);
    } catch (error) {
      console.warn(`[whatsapp] file of message ${message.messageId} could not be read:`, (error as Error).message);
      throw new ChannelSendError('Não foi possível ler o arquivo da mensagem. Tente de novo.');
    }
    // A number typed by hand is checked first: not on WhatsApp fails for good; another JID (no ninth digit) is sent to and kept.
    const check = await checkNumber(live.socket, message.to);
    if (check.kind === 'absent') throw new ChannelSendError(noWhatsAppText, { permanent: true });
    const chat = check.kind === 'on' ? check.jid : message.to;
    const to = await recipientOf(live.socket, chat);
    let sent: WAMessage | undefined;
    try {
      const messageId = whatsappMessageIdOf(message.messageId, to);
      sent = await live.socket.sendMessage(to, content, message.replyTo ? { quoted: quotedOf(live, to, message.replyTo), messageId } : { messageId });
    } catch (error) {
      throw sendError(error);
    }
    if (!sent?.key.id) throw new ChannelSendError('O WhatsApp não confirmou o envio. Tente de novo.');
    live.remember(sent);
    return { channelMessageId: sent.key.id, timestamp: isoTime(sent.messageTimestamp), ...recipientIds(message.to, check) };
  };
