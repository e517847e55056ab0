/**
 * Media of inbound WhatsApp messages: what a message carries (type, name, type of file), and the
 * copy into the bucket under the account with Baileys' `downloadMediaMessage`, made only when the
 * domain asks (a message not stored before), retried with a re-upload request to the sender's phone
 * (`downloadWithRetry`). A medium that still cannot be had leaves 'mídia indisponível'. The bytes
 * go to the bucket as they arrive (`storage.putStream`: S3 multipart, one 5 MiB part held at a
 * time), checked against the sender's SHA-256 on the way, so a 50 MB document never sits in memory.
 */
import { createHash } from 'node:crypto';
import { downloadMediaMessage, extractMessageContent, getContentType, toNumber, type proto, type WAMessage } from 'baileys';
import { fileTooLargeText, uploadKinds } from '#contracts/files.ts';
import type { MessageType } from '#contracts/messages.ts';
import { fileObjectKey } from '#db/keys.ts';
import type { InboundMedia } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import type { WhatsAppSocket } from './socket.ts';
import { inboundFileName } from '#media/file-names.ts';

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

/** Our bucket failed while a medium streamed into it: not the medium's fault, so not retried here; the message is handed over again later. */
export class StorageFailed extends Error {
  constructor(readonly failure: unknown) {
    super(`the bucket failed: ${(failure as Error)?.message ?? failure}`);
  }
}

/** What a streamed download wrote to the bucket. */
export interface StoredMedium {
  size: number;
}

/** Writes a download's bytes to the bucket as they come (the medium's object) and answers how many it wrote. */
export type MediaStore = (bytes: AsyncIterable<Uint8Array>) => Promise<StoredMedium>;

/**
 * A download of a message's medium within its limits: into `store` as the bytes come (answering
 * what it wrote), or, for small doubles in tests, the bytes themselves, which are then stored whole.
 */
export type MediaDownload = (message: WAMessage, limits: DownloadLimits, store: MediaStore) => Promise<Uint8Array | StoredMedium>;

/** Reads a download's bytes within its limits (`bounded`), all of them into memory: for small media and tests. */
export async function readWithin(stream: AsyncIterable<Uint8Array>, limits: DownloadLimits): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of bounded(stream, limits)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * A download's bytes within its limits, as they come: past the cap, on the session's stop, or after
 * `idleMs` without a chunk it destroys the stream (Baileys' download takes no abort signal: its
 * `getHttpStream` passes only headers and a dispatcher to fetch, 7.0.0-rc14) and throws; so does a
 * reader that stops early (a failed upload).
 */
export async function* bounded(stream: AsyncIterable<Uint8Array>, limits: DownloadLimits): AsyncGenerator<Uint8Array> {
  const destroy = () => (stream as { destroy?: () => void }).destroy?.();
  const iterator = stream[Symbol.asyncIterator]();
  let size = 0;
  let ended = false;
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
      yield next.value;
    }
    ended = true;
  } finally {
    clearTimeout(timer);
    if (onAbort) limits.signal?.removeEventListener('abort', onAbort);
    if (!ended) destroy();
  }
}

/** The bytes as they pass, hashed: at their end, a mismatch with the sender's SHA-256 fails as a bad decrypt (before the upload completes). */
async function* checked(stream: AsyncIterable<Uint8Array>, expected: Uint8Array | null): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  for await (const chunk of stream) {
    hash.update(chunk);
    yield chunk;
  }
  if (expected && !hash.digest().equals(Buffer.from(expected))) throw new Error('bad decrypt: the medium does not match its checksum');
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
  download?: MediaDownload;
  /** The session's: a stop aborts the downloads under way. */
  signal?: AbortSignal;
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
    return { type: 'image', mimetype, name: inboundFileName('imagem', id, mimetype, 'jpg') };
  }
  // A video note (round, recorded in the chat) is a plain video to play.
  const video = content.videoMessage ?? content.ptvMessage;
  if (video) {
    const mimetype = video.mimetype || 'video/mp4';
    return { type: 'video', mimetype, name: inboundFileName('video', id, mimetype, 'mp4') };
  }
  if (content.audioMessage) {
    const voice = Boolean(content.audioMessage.ptt);
    const mimetype = content.audioMessage.mimetype || (voice ? 'audio/ogg; codecs=opus' : 'audio/mpeg');
    return { type: voice ? 'voice' : 'audio', mimetype, name: inboundFileName(voice ? 'voz' : 'audio', id, mimetype, voice ? 'ogg' : 'mp3') };
  }
  if (content.documentMessage) {
    const d = content.documentMessage;
    const mimetype = d.mimetype || 'application/octet-stream';
    return { type: 'document', mimetype, name: d.fileName || d.title || inboundFileName('documento', id, mimetype, 'bin') };
  }
  if (content.stickerMessage) {
    const mimetype = content.stickerMessage.mimetype || 'image/webp';
    return { type: 'image', mimetype, name: inboundFileName('figurinha', id, mimetype, 'webp') };
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
export interface MediaFetcher<T = Uint8Array> {
  /** One download and decryption of the message's medium (its bytes, or what storing them wrote). */
  fetch(message: WAMessage): Promise<T>;
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
  if (error instanceof MediaTooLarge || error instanceof MediaStopped || error instanceof StorageFailed) return true;
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
export async function downloadWithRetry<T = Uint8Array>(message: WAMessage, fetcher: MediaFetcher<T>, policy: MediaRetryPolicy = mediaRetryPolicy): Promise<T> {
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
  const chunks: Uint8Array[] = [];
  for await (const chunk of checked(bounded(await downloadMediaMessage(message, 'stream', {}), limits), checksumOf(message))) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * `fetchMedia` into the bucket as the bytes come: decrypted, bounded and checked on the way, never
 * held whole. A failure of the bucket (not of the body) is a `StorageFailed`.
 */
export async function fetchMediaInto(message: WAMessage, limits: DownloadLimits, store: MediaStore): Promise<StoredMedium> {
  let bodyFailure: unknown;
  async function* body(source: AsyncIterable<Uint8Array>) {
    try {
      yield* source;
    } catch (error) {
      bodyFailure = error;
      throw error;
    }
  }
  const source = checked(bounded(await downloadMediaMessage(message, 'stream', {}), limits), checksumOf(message));
  try {
    return await store(body(source));
  } catch (error) {
    if (error === bodyFailure || limits.signal?.aborted) throw error;
    throw new StorageFailed(error);
  }
}

/** Baileys' download through a socket into the bucket as it comes, with the retries and the re-upload request of `downloadWithRetry`: the sessions' download. */
export function socketStreamDownload(socket: WhatsAppSocket, policy: MediaRetryPolicy = mediaRetryPolicy): MediaDownload {
  return (message, limits, store) =>
    downloadWithRetry(message, { fetch: (m) => fetchMediaInto(m, limits, store), reupload: (m) => socket.updateMediaMessage(m) }, policy);
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
      const objectKey = fileObjectKey(target.accountId, target.ports.newId(), media.name);
      const store: MediaStore = (bytes) => target.ports.storage.putStream(objectKey, bytes, media.mimetype, { signal: target.signal });
      let got: Uint8Array | StoredMedium;
      try {
        got = await target.download(message, { maxBytes, signal: target.signal, idleMs: mediaIdleMs }, store);
      } catch (error) {
        if (error instanceof MediaStopped || target.signal?.aborted) throw new MediaStopped();
        // A failure of our own bucket is not the medium's: it throws, and the message is handed over again later.
        if (error instanceof StorageFailed) throw error.failure;
        if (error instanceof MediaTooLarge) {
          described.unavailableText = tooLargeMediaText(media.name, maxBytes);
          return null;
        }
        console.warn(`[whatsapp] media of ${message.key.id} could not be downloaded:`, (error as Error).message);
        return null;
      }
      // Bytes handed back whole (small doubles) are stored now; a failure of the bucket throws, as above.
      if (got instanceof Uint8Array) await target.ports.storage.put(objectKey, got, media.mimetype);
      return { objectKey, name: media.name, mimetype: media.mimetype, size: got instanceof Uint8Array ? got.length : got.size };
    },
  };
  return described;
}
