/**
 * Media of inbound WhatsApp messages: what a message carries (type, name, type of file), and the
 * copy into the bucket under the account with Baileys' `downloadMediaMessage`, made only when the
 * domain asks (a message not stored before). A medium that cannot be had leaves 'mídia indisponível'.
 */
import { downloadMediaMessage, type proto, type WAMessage } from 'baileys';
import type { MessageType } from '#contracts/messages.ts';
import { fileObjectKey } from '#db/keys.ts';
import type { InboundMedia } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { silentLogger, type WhatsAppSocket } from './socket.ts';

export const unavailableMediaText = 'mídia indisponível';

export interface MediaDescription {
  type: MessageType;
  name: string;
  mimetype: string;
}

/** How media reach the bucket; tests give their own download. */
export interface MediaTarget {
  ports: Pick<Ports, 'storage' | 'newId'>;
  accountId: string;
  download?: (message: WAMessage) => Promise<Uint8Array>;
}

const extensions: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'application/pdf': 'pdf',
};

function fileName(prefix: string, id: string, mimetype: string, fallbackExtension: string): string {
  const ext = extensions[mimetype.split(';')[0]!.trim().toLowerCase()] ?? fallbackExtension;
  return `${prefix}-${id}.${ext}`;
}

/** The medium a message's content carries, if any (a sticker as an image). */
export function mediaOf(content: proto.IMessage, id: string): MediaDescription | null {
  if (content.imageMessage) {
    const mimetype = content.imageMessage.mimetype || 'image/jpeg';
    return { type: 'image', mimetype, name: fileName('imagem', id, mimetype, 'jpg') };
  }
  if (content.videoMessage) {
    const mimetype = content.videoMessage.mimetype || 'video/mp4';
    return { type: 'video', mimetype, name: fileName('video', id, mimetype, 'mp4') };
  }
  if (content.audioMessage) {
    const voice = Boolean(content.audioMessage.ptt);
    const mimetype = content.audioMessage.mimetype || (voice ? 'audio/ogg; codecs=opus' : 'audio/mpeg');
    return { type: voice ? 'voice' : 'audio', mimetype, name: fileName(voice ? 'voz' : 'audio', id, mimetype, voice ? 'ogg' : 'mp3') };
  }
  if (content.documentMessage) {
    const d = content.documentMessage;
    const mimetype = d.mimetype || 'application/octet-stream';
    return { type: 'document', mimetype, name: d.fileName || d.title || fileName('documento', id, mimetype, 'bin') };
  }
  if (content.stickerMessage) {
    const mimetype = content.stickerMessage.mimetype || 'image/webp';
    return { type: 'image', mimetype, name: fileName('figurinha', id, mimetype, 'webp') };
  }
  return null;
}

/** Baileys' download, asking the sender's phone to upload again when WhatsApp's copy expired. */
export function socketDownload(socket: WhatsAppSocket): (message: WAMessage) => Promise<Uint8Array> {
  return (message) => downloadMediaMessage(message, 'buffer', {}, { reuploadRequest: (m) => socket.updateMediaMessage(m), logger: silentLogger });
}

/** The medium as the port takes it: loaded into the bucket only when asked. */
export function inboundMedia(target: MediaTarget, message: WAMessage, media: MediaDescription): InboundMedia {
  return {
    unavailableText: unavailableMediaText,
    async load() {
      if (!target.download) return null;
      try {
        const bytes = await target.download(message);
        const objectKey = fileObjectKey(target.accountId, target.ports.newId(), media.name);
        await target.ports.storage.put(objectKey, bytes, media.mimetype);
        return { objectKey, name: media.name, mimetype: media.mimetype, size: bytes.length };
      } catch (error) {
        console.warn(`[whatsapp] media of ${message.key.id} could not be downloaded:`, (error as Error).message);
        return null;
      }
    },
  };
}
