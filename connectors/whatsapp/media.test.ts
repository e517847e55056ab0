/**
 * Media downloads that fail: Baileys' real download and decryption against a local HTTP server
 * standing in for WhatsApp's media servers (a real encrypted medium, answered with 410 Gone, 500 or
 * damaged bytes), and the re-upload request answered by a socket double, as the phone would.
 */
import { createServer, type Server } from 'node:http';
import { readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptedStream, proto, type WAMessage } from 'baileys';
import type { Ports } from '#domain/ports.ts';
import { memoryStorage, SocketDouble } from '../../tests/support/whatsapp-double.ts';
import { downloadWithRetry, fetchMedia, inboundMedia, mediaOf, socketDownload, socketStreamDownload, wantsReupload, type MediaRetryPolicy } from './media.ts';

const photo = Buffer.from('a JPEG as the customer sent it, bytes and all');
let encrypted: Buffer;
let mediaKey: Buffer;
let fileSha256: Buffer;
let server: Server;
let base: string;
/** What the media server answers per path: a status, or the encrypted bytes (optionally damaged). */
const answers = new Map<string, (number | 'ok' | 'damaged')[]>();
const requests: string[] = [];

beforeAll(async () => {
  const sealed = await encryptedStream(photo, 'image');
  encrypted = await readFile(sealed.encFilePath);
  await rm(sealed.encFilePath, { force: true });
  mediaKey = sealed.mediaKey;
  fileSha256 = sealed.fileSha256;
  server = createServer((req, res) => {
    const path = req.url ?? '';
    requests.push(path);
    const next = answers.get(path)?.shift() ?? 404;
    if (next === 'ok' || next === 'damaged') {
      const body = Buffer.from(encrypted);
      if (next === 'damaged') body[20] = (body[20] ?? 0) ^ 0xff;
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    } else res.writeHead(next).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** An image message as Baileys decodes it; its medium is fetched from `url` (no directPath). */
function imageMessage(id: string, path: string): WAMessage {
  return proto.WebMessageInfo.fromObject({
    key: { remoteJid: '5511912345678@s.whatsapp.net', fromMe: false, id },
    messageTimestamp: 1_767_225_600,
    message: { imageMessage: { url: `${base}${path}`, mimetype: 'image/jpeg', mediaKey, fileSha256 } },
  }) as WAMessage;
}

/** A socket whose re-upload request is answered as the phone would: the message with a fresh path. */
function phoneThatReuploads(freshPath: string | null) {
  const socket = new SocketDouble();
  const asked: string[] = [];
  socket.updateMediaMessage = async (message) => {
    asked.push(message.key.id!);
    if (!freshPath) throw Object.assign(new Error('Media re-upload failed by device (NOT_FOUND)'), { output: { statusCode: 404 } });
    const copy = proto.WebMessageInfo.fromObject(proto.WebMessageInfo.toObject(message as proto.WebMessageInfo)) as WAMessage;
    copy.message!.imageMessage!.url = `${base}${freshPath}`;
    return copy;
  };
  return { socket, asked };
}

const quick: MediaRetryPolicy = { attempts: 3, firstDelayMs: 1, reuploadTimeoutMs: 500 };

describe('downloading a medium that fails', () => {
  it('an expired file (410) makes the phone upload it again, and the fresh copy is fetched and decrypted', async () => {
    answers.set('/old-1', [410]);
    answers.set('/fresh-1', ['ok']);
    const { socket, asked } = phoneThatReuploads('/fresh-1');
    const bytes = await socketDownload(socket, quick)(imageMessage('IMG1', '/old-1'));
    expect(Buffer.from(bytes).toString()).toBe(photo.toString());
    expect(asked).toEqual(['IMG1']);
  });

  it('a server failure is tried again after a wait, without bothering the phone', async () => {
    answers.set('/flaky', [500, 503, 'ok']);
    const { socket, asked } = phoneThatReuploads('/never');
    const waits: number[] = [];
    const bytes = await downloadWithRetry(
      imageMessage('IMG2', '/flaky'),
      { fetch: fetchMedia, reupload: (m) => socket.updateMediaMessage(m), sleep: async (ms) => void waits.push(ms) },
      { attempts: 3, firstDelayMs: 1000, reuploadTimeoutMs: 500 },
    );
    expect(Buffer.from(bytes).toString()).toBe(photo.toString());
    expect(waits).toEqual([1000, 2000]);
    expect(asked).toEqual([]);
  });

  it('bytes that do not match the sender’s checksum count as a damaged copy: the phone is asked for a new one', async () => {
    answers.set('/damaged', ['damaged']);
    answers.set('/fresh-2', ['ok']);
    const { socket, asked } = phoneThatReuploads('/fresh-2');
    const bytes = await socketDownload(socket, quick)(imageMessage('IMG3', '/damaged'));
    expect(Buffer.from(bytes).toString()).toBe(photo.toString());
    expect(asked).toEqual(['IMG3']);
  });

  it('a medium that always fails is tried a bounded number of times, then the message keeps "mídia indisponível"', async () => {
    answers.set('/gone', [500, 500, 500, 500, 500]);
    requests.length = 0;
    const { socket } = phoneThatReuploads('/never');
    const { storage, objects } = memoryStorage();
    const message = imageMessage('IMG4', '/gone');
    const media = inboundMedia(
      { ports: { storage, newId: () => 'F1' } as unknown as Pick<Ports, 'storage' | 'newId'>, accountId: 'ACC1', download: socketDownload(socket, quick) },
      message,
      mediaOf(message.message!, 'IMG4')!,
    );
    expect(await media.load()).toBeNull();
    expect(media.unavailableText).toBe('mídia indisponível');
    expect(requests.filter((r) => r === '/gone')).toHaveLength(3);
    expect(objects.size).toBe(0);
  });

  it('when the phone cannot upload it again (no longer has it), no more downloads are tried', async () => {
    answers.set('/expired', [410, 'ok']);
    requests.length = 0;
    const { socket, asked } = phoneThatReuploads(null);
    await expect(socketDownload(socket, quick)(imageMessage('IMG5', '/expired'))).rejects.toThrow(/re-upload failed/);
    expect(asked).toEqual(['IMG5']);
    expect(requests).toEqual(['/expired']);
  });

  it('a phone that never answers the re-upload request is given up after the timeout', async () => {
    answers.set('/silent', [404]);
    const socket = new SocketDouble();
    socket.updateMediaMessage = () => new Promise(() => undefined);
    await expect(socketDownload(socket, { ...quick, reuploadTimeoutMs: 30 })(imageMessage('IMG6', '/silent'))).rejects.toThrow(/did not upload/);
  });

  it("streamed into the bucket (the sessions' path): a damaged copy fails before the upload completes, the phone is asked, the fresh copy is stored", async () => {
    answers.set('/damaged-s', ['damaged']);
    answers.set('/fresh-s', ['ok']);
    const { socket, asked } = phoneThatReuploads('/fresh-s');
    const { storage, objects } = memoryStorage();
    const completed: number[] = [];
    const putStream = storage.putStream;
    storage.putStream = async (key, body, mimetype) => {
      const written = await putStream(key, body, mimetype);
      completed.push(written.size);
      return written;
    };
    const message = imageMessage('IMG7', '/damaged-s');
    const media = inboundMedia(
      {
        ports: { storage, newId: () => 'F7' } as unknown as Pick<Ports, 'storage' | 'newId'>,
        accountId: 'ACC1',
        download: socketStreamDownload(socket, quick),
      },
      message,
      mediaOf(message.message!, 'IMG7')!,
    );
    expect(await media.load()).toEqual({ objectKey: expect.stringContaining('F7'), name: expect.any(String), mimetype: 'image/jpeg', size: photo.length });
    // The damaged copy never completed an object: only the fresh one did.
    expect(completed).toEqual([photo.length]);
    expect(Buffer.from([...objects.values()][0]!.bytes).equals(photo)).toBe(true);
    expect(asked).toEqual(['IMG7']);
  });

  it("streamed: a failure of our bucket is not the medium's: not retried, and thrown (the message is handed over again later)", async () => {
    answers.set('/fine', ['ok', 'ok', 'ok']);
    requests.length = 0;
    const { socket } = phoneThatReuploads('/never');
    const { storage } = memoryStorage();
    storage.putStream = async (_key, body) => {
      for await (const _ of body) break;
      throw Object.assign(new Error('SlowDown'), { $metadata: { httpStatusCode: 503 } });
    };
    const message = imageMessage('IMG8', '/fine');
    const media = inboundMedia(
      {
        ports: { storage, newId: () => 'F8' } as unknown as Pick<Ports, 'storage' | 'newId'>,
        accountId: 'ACC1',
        download: socketStreamDownload(socket, quick),
      },
      message,
      mediaOf(message.message!, 'IMG8')!,
    );
    await expect(media.load()).rejects.toThrow('SlowDown');
    expect(requests).toEqual(['/fine']);
  });

  it('knows which failures a fresh copy can cure', () => {
    expect(wantsReupload(Object.assign(new Error('Failed to fetch stream'), { output: { statusCode: 410 } }))).toBe(true);
    expect(wantsReupload(Object.assign(new Error('Failed to fetch stream'), { output: { statusCode: 404 } }))).toBe(true);
    expect(wantsReupload(new Error('error:1C800064:Provider routines::bad decrypt'))).toBe(true);
    expect(wantsReupload(Object.assign(new Error('Failed to fetch stream'), { output: { statusCode: 500 } }))).toBe(false);
    expect(wantsReupload(new Error('fetch failed'))).toBe(false);
  });
});
