/**
 * The file of a received Cloud API message, copied into the bucket when the domain asks for it (a
 * message not stored before): `GET /{media-id}` answers a short-lived URL (five minutes) with the
 * size and type, the URL is downloaded with the same token, and the bytes go to the bucket under
 * the account. The size caps are the QR channel's (the product's upload caps per type, voice as
 * audio; connectors/whatsapp/media.ts `maxInboundBytes`), checked on Meta's `file_size` before the
 * download and on the bytes after it; a file over the cap leaves the same pt-BR text as there.
 *
 * The cap is never exceeded in memory: a file whose `file_size` or Content-Length is over it is
 * not downloaded (the body is cancelled unread), and a body that tells no length (chunked) is read
 * chunk by chunk and cut off, connection aborted, as soon as it passes the cap.
 *
 * A URL that no longer answers (Meta's expiry: its Media API reference says the URL is valid for
 * five minutes; an expired lookaside URL is answered 404, and 401 is reported too) is asked for
 * again once: a second `GET /{media-id}` gives a fresh one. What still cannot be had leaves the
 * message's `unavailableText`. A lookup or download that does not answer within the Graph timeout
 * (./config.ts) is aborted and fails the delivery, so Meta delivers it again: its redelivery is the
 * retry, and the message, stored once per wamid, fetches the file then.
 */
import { fileTooLargeText, uploadKinds } from '#contracts/files.ts';
import type { MessageType } from '#contracts/messages.ts';
import { fileObjectKey } from '#db/keys.ts';
import type { InboundMedia } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { graphTimeoutMs } from './config.ts';
import { GraphError, type GraphClient } from './graph-client.ts';
import type { CloudMediaRef } from './inbound.ts';

/** The largest file of each type the inbox keeps: the product's upload caps (voice as audio), as the QR channel. */
export function maxCloudInboundBytes(type: MessageType): number {
  const kind = type === 'voice' ? 'audio' : type;
  return uploadKinds.find((k) => k.type === kind)?.maxBytes ?? Math.max(...uploadKinds.map((k) => k.maxBytes));
}

/** The text a message keeps instead of a file over the cap (the QR channel's). */
export function tooLargeText(name: string, maxBytes: number): string {
  return `${fileTooLargeText(maxBytes)}: ${name}. Peça ao contato que envie de outra forma.`;
}

interface MediaInfo {
  url?: string;
  mime_type?: string;
  file_size?: number;
}

class TooLarge extends Error {}
/** The URL did not hand the file over (expired, refused): worth one fresh URL. */
class UrlRefused extends Error {
  constructor(readonly status: number) {
    super(`media URL answered ${status}`);
  }
}

async function download(url: string, accessToken: string, maxBytes: number): Promise<Uint8Array> {
  const cutOff = new AbortController();
  const signal = AbortSignal.any([cutOff.signal, AbortSignal.timeout(graphTimeoutMs())]);
  const response = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` }, signal });
  if (!response.ok) {
    await response.body?.cancel();
    throw new UrlRefused(response.status);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    cutOff.abort();
    throw new TooLarge();
  }
  return readCapped(response, maxBytes, cutOff);
}

/** The body's bytes, read chunk by chunk; past `maxBytes` the download is aborted and nothing more is read. */
async function readCapped(response: Response, maxBytes: number, cutOff: AbortController): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      cutOff.abort();
      await reader.cancel().catch(() => undefined);
      throw new TooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** What the adapter tells about the media loads of one delivery, for its log line. */
export interface MediaReport {
  urlRetries: number;
}

/**
 * The port's `InboundMedia` of a message's file. `type`: the message's type (for the cap);
 * `report` counts fresh URLs asked for.
 */
export function cloudInboundMedia(
  ports: Ports,
  target: { accountId: string; graph: GraphClient; accessToken: string },
  ref: CloudMediaRef,
  type: MessageType,
  report: MediaReport,
): InboundMedia {
  const maxBytes = maxCloudInboundBytes(type);
  const media: InboundMedia = {
    unavailableText: ref.unavailableText,
    async load() {
      for (let attempt = 1; ; attempt++) {
        let info: MediaInfo;
        try {
          info = await target.graph.get<MediaInfo>(encodeURIComponent(ref.mediaId));
        } catch (error) {
          // Meta answered (the media is gone, the token cannot see it): nothing to copy. No answer at
          // all propagates, so the delivery fails and Meta sends it again.
          if (error instanceof GraphError) return null;
          throw error;
        }
        if (typeof info.file_size === 'number' && info.file_size > maxBytes) {
          media.unavailableText = tooLargeText(ref.name, maxBytes);
          return null;
        }
        if (!info.url) return null;
        try {
          const bytes = await download(info.url, target.accessToken, maxBytes);
          const mimetype = (info.mime_type || ref.mimetype).split(';')[0]!.trim() || 'application/octet-stream';
          const objectKey = fileObjectKey(target.accountId, ports.newId(), ref.name);
          await ports.storage.put(objectKey, bytes, mimetype);
          return { objectKey, name: ref.name, mimetype, size: bytes.length };
        } catch (error) {
          if (error instanceof TooLarge) {
            media.unavailableText = tooLargeText(ref.name, maxBytes);
            return null;
          }
          if (error instanceof UrlRefused && attempt === 1) {
            report.urlRetries++;
            continue;
          }
          if (error instanceof UrlRefused) return null;
          throw error;
        }
      }
    },
  };
  return media;
}
