/**
 * How a stored file is served when a browser opens its link: only the upload allow-list's types
 * keep their type (anything else, an HTML page or an SVG a contact sent, is served as
 * `application/octet-stream`), and only images, audio and video are shown inline; everything else
 * is an attachment. So no file in the bucket can ever run as a page, whatever its bytes or the
 * type it was stored with.
 */
import { uploadKindOf } from './files.ts';

export interface DownloadHeaders {
  contentType: string;
  contentDisposition: string;
}

/** `filename="…"` with ASCII only (old clients) and `filename*=UTF-8''…` with the real name. */
function dispositionOf(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.normalize('NFKD').replace(/[^\x20-\x7e]|["\\]/g, '_') || 'arquivo';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export function downloadHeadersOf(filename: string, mimetype: string): DownloadHeaders {
  const type = mimetype.trim().toLowerCase();
  const kind = uploadKindOf(type);
  if (!kind) return { contentType: 'application/octet-stream', contentDisposition: dispositionOf('attachment', filename) };
  const shown = kind.type === 'image' || kind.type === 'video' || kind.type === 'audio';
  return { contentType: type, contentDisposition: dispositionOf(shown ? 'inline' : 'attachment', filename) };
}
