/** Upload requests (docs/product.md#entities-and-states): the allow-list and size limits every channel accepts. */
import { z } from 'zod';
import { requiredText } from './fields.ts';
import type { MessageType } from './messages.ts';

const MB = 1024 * 1024;

/**
 * Accepted types and the largest size of each, the smaller of what WhatsApp and the Telegram Bot
 * API take (images 5 MB on WhatsApp; other media 16 MB on WhatsApp; documents 50 MB on Telegram).
 */
export const uploadKinds: { type: MessageType; match: (mime: string) => boolean; maxBytes: number }[] = [
  { type: 'image', match: (m) => /^image\/(jpeg|png|webp|gif)$/.test(m), maxBytes: 5 * MB },
  { type: 'video', match: (m) => /^video\/(mp4|3gpp|quicktime|webm)$/.test(m), maxBytes: 16 * MB },
  { type: 'audio', match: (m) => /^audio\/(mpeg|mp4|aac|ogg|opus|webm|wav|x-wav|amr)(;.*)?$/.test(m), maxBytes: 16 * MB },
  {
    type: 'document',
    match: (m) =>
      [
        'application/pdf',
        'application/msword',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'application/vnd.ms-excel',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ].includes(m),
    maxBytes: 50 * MB,
  },
];

/** What the composer's file picker accepts. */
export const uploadAccept = 'image/*,video/*,audio/*,.pdf,.doc,.docx,.xls,.xlsx';

export const fileTypeNotAllowedText = 'Tipo de arquivo não permitido';
export const fileTooLargeText = (maxBytes: number) => `Arquivo muito grande (máximo ${Math.round(maxBytes / MB)} MB)`;

export function uploadKindOf(mimetype: string) {
  return uploadKinds.find((k) => k.match(mimetype.toLowerCase()));
}

/** The message type a file is sent as: voice for push-to-talk audio. */
export function messageTypeOf(mimetype: string, isPtt: boolean): MessageType | null {
  const kind = uploadKindOf(mimetype);
  if (!kind) return null;
  return kind.type === 'audio' && isPtt ? 'voice' : kind.type;
}

export const maxInlineAudioBytes = 4 * MB;

/**
 * Voice notes must be Opus, in OGG or WebM (what WhatsApp plays as a voice note, once the dispatcher
 * repackages WebM as OGG); AAC/MP4 is refused as a voice note rather than sent as one a phone may not
 * play (the web app records OGG/Opus where the browser records no WebM). It may still be sent as a
 * plain audio file.
 */
export const voiceNoteNotOpusText = 'Mensagem de voz precisa ser OGG/Opus ou WebM/Opus';
const voiceMimetype = /^audio\/(ogg|webm)(\s*;\s*codecs="?opus"?)?$/;

/**
 * Whether inline bytes (the start of their base64 is enough) are what a voice note's label says:
 * OGG (`OggS`, its first packet `OpusHead`) or WebM (the EBML magic and an `A_OPUS` track in the
 * header). A light check of the container; the dispatcher and the channels read the stream itself.
 */
export function inlineVoiceIsOpus(mimetype: string, base64: string): boolean {
  let head: string;
  try {
    head = atob(
      base64
        .slice(0, 8192)
        .replace(/[^A-Za-z0-9+/]/g, '')
        .slice(0, 8188),
    );
  } catch {
    return false;
  }
  if (mimetype.startsWith('audio/ogg')) return head.startsWith('OggS') && head.slice(27 + head.charCodeAt(26), 35 + head.charCodeAt(26)) === 'OpusHead';
  return head.startsWith('\x1a\x45\xdf\xa3') && head.includes('A_OPUS');
}

export const uploadRequestPayload = z
  .object({
    name: z.string({ error: requiredText }).trim().min(1, { error: requiredText }).max(200),
    mimetype: z.string({ error: requiredText }).trim().toLowerCase().min(1, { error: requiredText }).max(120),
    serviceId: z.string({ error: requiredText }).min(1, { error: requiredText }).max(64),
    length: z.number({ error: requiredText }).int().positive(),
    isPtt: z.boolean().default(false),
    base64: z
      .string()
      .max(Math.ceil((maxInlineAudioBytes * 4) / 3) + 4)
      .optional(),
  })
  .superRefine((v, ctx) => {
    const kind = uploadKindOf(v.mimetype);
    if (!kind) return ctx.addIssue({ code: 'custom', path: ['mimetype'], message: fileTypeNotAllowedText });
    if (v.length > kind.maxBytes) ctx.addIssue({ code: 'custom', path: ['length'], message: fileTooLargeText(kind.maxBytes) });
    if (v.base64 !== undefined && kind.type !== 'audio') {
      ctx.addIssue({ code: 'custom', path: ['base64'], message: 'Somente áudio pode ser enviado em base64' });
    }
    if (kind.type === 'audio' && v.isPtt) {
      if (!voiceMimetype.test(v.mimetype)) ctx.addIssue({ code: 'custom', path: ['mimetype'], message: voiceNoteNotOpusText });
      else if (v.base64 !== undefined && !inlineVoiceIsOpus(v.mimetype, v.base64))
        ctx.addIssue({ code: 'custom', path: ['base64'], message: voiceNoteNotOpusText });
    }
  });
export type UploadRequestPayload = z.infer<typeof uploadRequestPayload>;

export interface UploadAnswer {
  urlToUpload: string;
  file: { id: string; type: MessageType; mimetype: string };
}
