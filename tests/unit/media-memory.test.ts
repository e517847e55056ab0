/**
 * Inbound media stream into the bucket without being held (ADR-0176): the media path
 * (`inboundMedia` → `storage.putStream` → S3 multipart against the local S3 front, which verifies
 * SigV4) runs in a child process started with `--max-old-space-size=160`, on lazily generated
 * media. A 45 MB document (within the 50 MB cap) arrives whole, checked by size and by a SHA-256
 * computed as the bytes pass on both sides; a 500 MB stream that declared 2 MB is cut at the cap
 * with nothing left in the bucket (the multipart upload aborted); and a 200 MB medium (four times the
 * largest the product takes), straight into `putStream`, arrives whole while the child's RSS grows
 * about as much as for 45 MB: the memory does not follow the size. The same child reading the document whole first (the path
 * before) grows by more than the document. Buffers live outside V8's heap, so the heap cap alone
 * would not catch buffering: RSS is what is bounded here.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { localS3Client, localS3Key, ownBucket } from '../support/local-bucket.ts';

const MB = 1024 * 1024;
/**
 * The most RSS may grow over the child's baseline while a medium streams, whatever its size: one
 * 5 MiB part, plus the source's chunks freed but not yet collected (V8 collects for external memory
 * once some 64 MB more were allocated). Measured: 46 to 87 MB, for 45 MB as for 200 or 500 MB; the
 * 200 MB medium held whole would need more than this alone.
 */
const bound = 128 * MB;
const own = ownBucket('media-memory-');
const bucket = own.name;
const secret = localS3Key.secretAccessKey;
let s3: S3Client;

beforeAll(() => {
  s3 = localS3Client(own.front().url);
});

interface Case {
  id: string;
  loaded: { objectKey: string; size: number } | null;
  unavailableText: string;
  sentBytes: number;
  sha256: string;
  produced: number;
  peakRss: number;
  ms: number;
}

async function child(mode: 'streamed' | 'buffered') {
  const { stdout } = await promisify(execFile)(process.execPath, ['--max-old-space-size=160', '--import', 'tsx', 'tests/support/media-memory-child.ts'], {
    env: { ...process.env, NODE_NO_WARNINGS: '1', S3_URL: own.front().url, BUCKET: bucket, ACCESS_KEY: secret, MODE: mode },
    timeout: 60_000,
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { baselineRss: number; maxRss: number; heapLimit: number; cases: Case[] };
}

/** The object as the bucket serves it: size and SHA-256, hashed as it is read. */
async function stored(key: string) {
  const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of answer.Body as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    size += chunk.length;
  }
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  return { size, sha256: hash.digest('hex'), contentLength: head.ContentLength, contentType: head.ContentType };
}

describe('inbound media under a memory cap', () => {
  it('a 45 MB document and a 200 MB medium stream whole into the bucket with RSS bounded whatever the size; a 500 MB stream is cut at the cap, nothing left', async () => {
    const run = await child('streamed');
    const [doc, liar] = run.cases;
    const grew = (c: Case) => Math.round((c.peakRss - run.baselineRss) / MB);
    console.log(
      `[media-memory] streamed: heap limit ${Math.round(run.heapLimit / MB)} MB, baseline RSS ${Math.round(run.baselineRss / MB)} MB, ` +
        `45 MB document: peak RSS ${Math.round(doc!.peakRss / MB)} MB (+${grew(doc!)} MB) in ${doc!.ms} ms; ` +
        `500 MB stream cut at the cap: peak RSS ${Math.round(liar!.peakRss / MB)} MB (+${grew(liar!)} MB) in ${liar!.ms} ms; max RSS ${Math.round(run.maxRss / MB)} MB`,
    );
    expect(doc!.loaded).toMatchObject({ size: 45 * MB, objectKey: expect.stringMatching(/^accounts\/ACC1\/files\/F2/) });
    expect(doc!.sentBytes).toBe(45 * MB);
    expect(await stored(doc!.loaded!.objectKey)).toEqual({ size: 45 * MB, sha256: doc!.sha256, contentLength: 45 * MB, contentType: 'application/pdf' });
    // One 5 MiB part held at a time, plus the source's chunks freed but not yet collected (V8 gives external memory back at its next collection).
    expect(doc!.peakRss - run.baselineRss).toBeLessThan(bound);

    expect(liar!.loaded).toBeNull();
    expect(liar!.unavailableText).toBe('Arquivo muito grande (máximo 50 MB): LIAR500.pdf. Peça ao contato que envie de outra forma.');
    expect(liar!.produced).toBeLessThanOrEqual(52 * MB);
    expect(liar!.peakRss - run.baselineRss).toBeLessThan(bound);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'accounts/ACC1/files/' }));
    expect((listed.Contents ?? []).map((o) => o.Key).filter((k) => k?.includes('LIAR500'))).toEqual([]);
    expect(own.uploadsLeft()).toEqual([]);

    // 200 MB straight into putStream: whole, and RSS grows about as much as for 45 MB (it does not follow the size).
    const huge = run.cases[2]!;
    console.log(`[media-memory] 200 MB into putStream: peak RSS ${Math.round(huge.peakRss / MB)} MB (+${grew(huge)} MB) in ${huge.ms} ms`);
    expect(huge.loaded).toEqual({ objectKey: 'accounts/ACC1/files/BIG200', size: 200 * MB });
    expect(await stored('accounts/ACC1/files/BIG200')).toEqual({
      size: 200 * MB,
      sha256: huge.sha256,
      contentLength: 200 * MB,
      contentType: 'application/octet-stream',
    });
    expect(huge.peakRss - run.baselineRss).toBeLessThan(bound);
    expect(own.uploadsLeft()).toEqual([]);
  }, 90_000);

  it('the measure sees buffering: the same document read whole first grows RSS by more than the document', async () => {
    const run = await child('buffered');
    const [doc] = run.cases;
    console.log(
      `[media-memory] buffered: baseline RSS ${Math.round(run.baselineRss / MB)} MB, 45 MB document: peak RSS ${Math.round(doc!.peakRss / MB)} MB (+${Math.round((doc!.peakRss - run.baselineRss) / MB)} MB)`,
    );
    expect(doc!.loaded).toMatchObject({ size: 45 * MB });
    expect(doc!.peakRss - run.baselineRss).toBeGreaterThan(45 * MB);
  }, 90_000);
});
