/**
 * Media of inbound WhatsApp messages: what a message carries (type, name, type of file), and the
 * copy into the bucket under the account with Baileys' `downloadMediaMessage`, made only when the
 * domain asks (a message not stored before), retried with a re-upload request to the sender's phone
 * (`downloadWithRetry`). A medium that still cannot be had leaves 'mídia indisponível'.
 */
import { createHash } from 'node:crypto';
import { downloadMediaMessage, extractMessageContent, getContentType, toNumber, type proto, type WAMessage } from 'baileys';
import { fileTooLargeText, uploadKinds } from '#contracts/files.ts';
import type { MessageType } from '#contracts/messages.ts';
import { fileObjectKey } from '#db/keys.ts';
import type { InboundMedia } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import type { WhatsAppSocket } from './socket.ts';

export const unavailableMediaText = 'mídia indisponível';
/** What a message shows while its file is still being fetched (it comes after the message). */
export const pendingMediaText = 'Recebendo arquivo…';

/** The largest file of each type the inbox keeps: the product's upload caps (voice as audio). */
export function maxInboundBytes(type: MessageType): number {
  const kind = type === 'voice' ? 'audio' : type;
  return uploadKinds.find((k) => k.type === kind)?.maxBytes ?? Math.max(...uploadKinds.map((k) => k.maxBytes));
}

/** The text a message keeps instead of a file over the cap: never dropped silently. */
export function tooLargeMediaText(name: string, maxBytes: number): string {
  return `${fileTooLargeText(maxBytes)}: ${name}. Peça ao contato que envie de outra forma.`;
}

/** How a download is bounded: the cap, the session's stop, and how long it may go without a byte. */
export interface DownloadLimits {
  maxBytes: number;
  signal?: AbortSignal;
  idleMs: number;
}

/** A download stops after this long without a byte (a stalled link), and is retried. */
export const mediaIdleMs = 30_000;

/** The medium is over the cap (whatever its message declared): kept as a text saying so, not retried. */
export class MediaTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the medium is larger than ${maxBytes} bytes`);
  }
}

/** The session stopped during the download: the message keeps waiting for its file (the next holder fetches it). */
export class MediaStopped extends Error {
  constructor() {
    super('the session stopped during the download');
  }
}

/**
 * Reads a download's bytes within its limits: past the cap, on the session's stop, or after
 * `idleMs` without a chunk it destroys the stream (Baileys' download takes no abort signal: its
 * `getHttpStream` passes only headers and a dispatcher to fetch, 7.0.0-rc14) and throws.
 */
export async function readWithin(stream: AsyncIterable<Uint8Array>, limits: DownloadLimits): Promise<Buffer> {
  const destroy = () => (stream as { destroy?: () => void }).destroy?.();
  const iterator = stream[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(new MediaStopped());
    if (limits.signal?.aborted) onAbort();
    else limits.signal?.addEventListener('abort', onAbort, { once: true });
  });
  stopped.catch(() => undefined);
  try {
    for (;;) {
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no bytes for ${limits.idleMs} ms`)), limits.idleMs);
      });
      const next = await Promise.race([iterator.next(), idle, stopped]);
      clearTimeout(timer);
      if (next.done) break;
      size += next.value.length;
      if (size > limits.maxBytes) throw new MediaTooLarge(limits.maxBytes);
      chunks.push(next.value);
    }
    return Buffer.concat(chunks);
  } catch (error) {
    destroy();
    throw error;
  } finally {
    clearTimeout(timer);
    if (onAbort) limits.signal?.removeEventListener('abort', onAbort);
  }
}

export interface MediaDescription {
  type: MessageType;
  name: string;
  mimetype: string;
  /** The size the sender declared (`fileLength`), when it did. */
  declaredBytes?: number;
}

/** How media reach the bucket; tests give their own download. */
export interface MediaTarget {
  ports: Pick<Ports, 'storage' | 'newId'>;
  accountId: string;
  download?: (message: WAMessage, limits: DownloadLimits) => Promise<Uint8Array>;
  /** The session's: a stop aborts the downloads under way. */
  signal?: AbortSignal;
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

/** The medium a message's content carries, if any (a sticker as an image), with the size its sender declared. */
export function mediaOf(content: proto.IMessage, id: string): MediaDescription | null {
  const media = mediaKindOf(content, id);
  if (!media) return null;
  const declared = (
    content.imageMessage ??
    content.videoMessage ??
    content.ptvMessage ??
    content.audioMessage ??
    content.documentMessage ??
    content.stickerMessage
  )?.fileLength;
  return declared === null || declared === undefined ? media : { ...media, declaredBytes: toNumber(declared) };
}

function mediaKindOf(content: proto.IMessage, id: string): MediaDescription | null {
  if (content.imageMessage) {
    const mimetype = content.imageMessage.mimetype || 'image/jpeg';
    return { type: 'image', mimetype, name: fileName('imagem', id, mimetype, 'jpg') };
  }
  // A video note (round, recorded in the chat) is a plain video to play.
  const video = content.videoMessage ?? content.ptvMessage;
  if (video) {
    const mimetype = video.mimetype || 'video/mp4';
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

/** How patiently a medium is fetched before the message keeps 'mídia indisponível'. */
export interface MediaRetryPolicy {
  /** Downloads in all (a re-upload request comes between two of them, once). */
  attempts: number;
  /** The wait before the second download, doubled before each further one (none after a re-upload). */
  firstDelayMs: number;
  /** How long the sender's phone may take to upload again (Baileys waits for ever by itself). */
  reuploadTimeoutMs: number;
}

/** At most 3 downloads, 1 s then 2 s apart, and 20 s for the phone's re-upload: a medium costs at most some 25 s. */
export const mediaRetryPolicy: MediaRetryPolicy = { attempts: 3, firstDelayMs: 1000, reuploadTimeoutMs: 20_000 };

/** What a download needs from the socket; tests give doubles. */
export interface MediaFetcher {
  /** One download and decryption of the message's medium. */
  fetch(message: WAMessage): Promise<Uint8Array>;
  /** Asks the sender's phone to upload the medium again; answers the message with its new path. */
  reupload(message: WAMessage): Promise<WAMessage>;
  sleep?(ms: number): Promise<void>;
}

function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; output?: { statusCode?: unknown } } | undefined;
  const status = e?.output?.statusCode ?? e?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Failures a fresh copy from the phone can cure: WhatsApp's servers dropped the file (404, 410,
 * 403 for an expired link) or the bytes do not decrypt (a damaged copy).
 */
export function wantsReupload(error: unknown): boolean {
  const status = statusOf(error);
  if (status === 403 || status === 404 || status === 410) return true;
  return /bad decrypt|unable to authenticate data|unsupported state/i.test((error as Error)?.message ?? '');
}

/** Failures no retry cures (the message has no medium to fetch). */
function isHopeless(error: unknown): boolean {
  if (error instanceof MediaTooLarge || error instanceof MediaStopped) return true;
  return statusOf(error) === 400 || /is not a media message|no message present/i.test((error as Error)?.message ?? '');
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the phone did not upload the medium again within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Downloads a medium with a bounded number of attempts: after a failure the phone can cure (see
 * `wantsReupload`) it asks, once, for a re-upload and tries again at once; after any other failure
 * it waits (backing off) and tries again. A failed re-upload (the phone no longer has the file, or
 * is offline) or a hopeless failure ends it. Throws the last failure.
 *
 * Baileys' own `downloadMediaMessage(…, { reuploadRequest })` never asks: it looks for the HTTP
 * status on `error.status`, while its download fails with a Boom carrying `output.statusCode`
 * (WhiskeySockets/Baileys#2767, 7.0.0-rc14). So the re-upload is asked here, and Baileys'
 * download is called without it (a fixed Baileys would otherwise ask twice).
 */
export async function downloadWithRetry(message: WAMessage, fetcher: MediaFetcher, policy: MediaRetryPolicy = mediaRetryPolicy): Promise<Uint8Array> {
  const sleep = fetcher.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let current = message;
  let reuploaded = false;
  let delayMs = policy.firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetcher.fetch(current);
    } catch (error) {
      if (attempt >= policy.attempts || isHopeless(error)) throw error;
      if (!reuploaded && wantsReupload(error)) {
        reuploaded = true;
        current = await within(fetcher.reupload(current), policy.reuploadTimeoutMs);
        continue;
      }
      await sleep(delayMs);
      delayMs *= 2;
    }
  }
}

/** The SHA-256 the sender gave of the medium's plain bytes, if any. */
function checksumOf(message: WAMessage): Uint8Array | null {
  const content = extractMessageContent(message.message);
  const type = content ? getContentType(content) : undefined;
  const media = type ? (content![type] as { fileSha256?: Uint8Array | null } | null | undefined) : null;
  return media?.fileSha256?.length ? media.fileSha256 : null;
}

/**
 * One download and decryption with Baileys, without its (unreachable) re-upload. Baileys checks
 * neither the MAC nor the hash of what it decrypts, so a damaged copy would be stored as garbage:
 * the bytes are checked against the sender's SHA-256, and a mismatch fails as a bad decrypt.
 */
export async function fetchMedia(
  message: WAMessage,
  limits: DownloadLimits = { maxBytes: Number.POSITIVE_INFINITY, idleMs: mediaIdleMs },
): Promise<Uint8Array> {
  const bytes = await readWithin(await downloadMediaMessage(message, 'stream', {}), limits);
  const expected = checksumOf(message);
  if (expected && !createHash('sha256').update(bytes).digest().equals(Buffer.from(expected))) {
    throw new Error('bad decrypt: the medium does not match its checksum');
  }
  return bytes;
}

/** Baileys' download through a socket, with the retries and the re-upload request of `downloadWithRetry`. */
export function socketDownload(
  socket: WhatsAppSocket,
  policy: MediaRetryPolicy = mediaRetryPolicy,
): (message: WAMessage, limits?: DownloadLimits) => Promise<Uint8Array> {
  return (message, limits) => downloadWithRetry(message, { fetch: (m) => fetchMedia(m, limits), reupload: (m) => socket.updateMediaMessage(m) }, policy);
}

/**
 * The medium as the port takes it: fetched after its message is stored (`pendingText`), loaded into
 * the bucket only when the domain asks. Over the cap it keeps a text saying so; a stop of the
 * session throws, so the message keeps waiting for its file.
 */
export function inboundMedia(target: MediaTarget, message: WAMessage, media: MediaDescription): InboundMedia {
  const maxBytes = maxInboundBytes(media.type);
  const described: InboundMedia = {
    unavailableText: unavailableMediaText,
    pendingText: pendingMediaText,
    async load() {
      if (!target.download) return null;
      let bytes: Uint8Array;
      try {
        bytes = await target.download(message, { maxBytes, signal: target.signal, idleMs: mediaIdleMs });
      } catch (error) {
        if (error instanceof MediaStopped || target.signal?.aborted) throw new MediaStopped();
        if (error instanceof MediaTooLarge) {
          described.unavailableText = tooLargeMediaText(media.name, maxBytes);
          return null;
        }
        console.warn(`[whatsapp] media of ${message.key.id} could not be downloaded:`, (error as Error).message);
        return null;
      }
      // A failure of our own bucket is not the medium's: it throws, and the message is handed over again later.
      const objectKey = fileObjectKey(target.accountId, target.ports.newId(), media.name);
      await target.ports.storage.put(objectKey, bytes, media.mimetype);
      return { objectKey, name: media.name, mimetype: media.mimetype, size: bytes.length };
    },
  };
  return described;
}
