/**
 * The name an inbound file is stored and shown under when the channel gives none (WhatsApp's images,
 * voice notes, stickers; a document without its own name): a pt-BR prefix, the channel's id of the
 * file and an extension from its MIME type. Both WhatsApp channels (QR and Cloud API) name files so.
 */
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

/** `imagem-<id>.jpg`: the extension of `mimetype` (its parameters ignored), else `fallbackExtension`. */
export function inboundFileName(prefix: string, id: string, mimetype: string, fallbackExtension: string): string {
  const ext = extensions[mimetype.split(';')[0]!.trim().toLowerCase()] ?? fallbackExtension;
  return `${prefix}-${id}.${ext}`;
}
