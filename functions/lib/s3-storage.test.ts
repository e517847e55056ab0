/**
 * `putStream` of the S3 storage (functions/lib/s3-storage.ts) against the local S3 front (s3rver
 * behind the SigV4-verifying front): bodies of unknown length become a multipart upload of 5 MiB
 * parts (the last shorter), a body shorter than a part one PutObject, and a body that fails or a
 * signal that aborts leave neither an object nor parts (AbortMultipartUpload, which the front
 * answers for s3rver). Parts are cut from one reused buffer, so what goes out is checked byte for byte.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { minPartBytes, partsOf, s3Storage } from './s3-storage.ts';
import { localS3Client, ownBucket } from '../../tests/support/local-bucket.ts';

const own = ownBucket('s3-put-stream-');
const bucket = own.name;
let s3: S3Client;
/** The commands the storage sent, by name, with a part's length. */
const sent: string[] = [];

beforeAll(async () => {
  s3 = localS3Client(own.front().url, { maxAttempts: 1 });
  const send = s3.send.bind(s3) as (command: unknown, options?: unknown) => Promise<unknown>;
  (s3 as unknown as { send: typeof send }).send = (command, options) => {
    const c = command as { constructor: { name: string }; input: { ContentLength?: number } };
    sent.push(c.constructor.name.replace('Command', '') + (c.input.ContentLength ? ` ${c.input.ContentLength}` : ''));
    return send(command, options);
  };
});

const storage = () => s3Storage(bucket, s3);

/** `total` bytes in chunks of odd sizes, each byte a function of its position. */
async function* body(total: number, options: { failAt?: number; onByte?: (at: number) => void } = {}) {
  const sizes = [1, 70_000, 1_000_003, 12_345];
  let at = 0;
  for (let i = 0; at < total; i++) {
    if (options.failAt !== undefined && at >= options.failAt) throw new Error('the link dropped');
    const size = Math.min(sizes[i % sizes.length]!, total - at);
    const chunk = new Uint8Array(size);
    for (let j = 0; j < size; j++) chunk[j] = (at + j) % 253;
    at += size;
    options.onByte?.(at);
    yield chunk;
  }
}

async function sha(iterable: AsyncIterable<Uint8Array>) {
  const hash = createHash('sha256');
  for await (const chunk of iterable) hash.update(chunk);
  return hash.digest('hex');
}

describe('putStream', () => {
  it('cuts a body of unknown length into 5 MiB parts, the last shorter, and the object is the body byte for byte', async () => {
    sent.length = 0;
    const total = 2 * minPartBytes + 777;
    expect(await storage().putStream('a/big.bin', body(total), 'application/pdf')).toEqual({ size: total });
    expect(sent).toEqual(['CreateMultipartUpload', `UploadPart ${minPartBytes}`, `UploadPart ${minPartBytes}`, 'UploadPart 777', 'CompleteMultipartUpload']);
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'a/big.bin' }));
    expect(head).toMatchObject({ ContentLength: total, ContentType: 'application/pdf' });
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'a/big.bin' }));
    expect(await sha(object.Body as AsyncIterable<Uint8Array>)).toBe(await sha(body(total)));
    expect(own.uploadsLeft()).toEqual([]);
  });

  it('a body shorter than a part is one PutObject', async () => {
    sent.length = 0;
    expect(await storage().putStream('a/small.bin', body(1234), 'image/jpeg')).toEqual({ size: 1234 });
    expect(sent).toEqual(['PutObject']);
    expect((await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'a/small.bin' }))).ContentLength).toBe(1234);
  });

  it('a body that fails half-way leaves no object and no parts (the upload is aborted)', async () => {
    sent.length = 0;
    await expect(storage().putStream('a/broken.bin', body(3 * minPartBytes, { failAt: minPartBytes + 10 }), 'application/pdf')).rejects.toThrow(
      'the link dropped',
    );
    expect(sent).toEqual(['CreateMultipartUpload', `UploadPart ${minPartBytes}`, 'AbortMultipartUpload']);
    await expect(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'a/broken.bin' }))).rejects.toMatchObject({ name: 'NotFound' });
    expect(own.uploadsLeft()).toEqual([]);
  });

  it('the signal aborts it: the body is let go, and nothing is left', async () => {
    sent.length = 0;
    const abort = new AbortController();
    let read = 0;
    const upload = storage().putStream(
      'a/stopped.bin',
      body(10 * minPartBytes, {
        onByte: (at) => {
          read = at;
          if (at > 2 * minPartBytes) abort.abort();
        },
      }),
      'application/pdf',
      { signal: abort.signal },
    );
    await expect(upload).rejects.toMatchObject({ name: 'AbortError' });
    expect(read).toBeLessThan(4 * minPartBytes);
    expect(sent.at(-1)).toBe('AbortMultipartUpload');
    await expect(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'a/stopped.bin' }))).rejects.toMatchObject({ name: 'NotFound' });
    expect(own.uploadsLeft()).toEqual([]);
  });

  it('partsOf reuses one buffer: each part is what the body said at its place', async () => {
    const seen: string[] = [];
    for await (const part of partsOf(body(25), 10)) seen.push(Buffer.from(part).toString('hex'));
    const whole = Buffer.alloc(25);
    for (let i = 0; i < 25; i++) whole[i] = i % 253;
    expect(seen).toEqual([whole.subarray(0, 10).toString('hex'), whole.subarray(10, 20).toString('hex'), whole.subarray(20).toString('hex')]);
  });
});
