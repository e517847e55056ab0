/**
 * A WhatsApp medium's way into the bucket (`inboundMedia` → `storage.putStream` → S3 multipart), run
 * in a process of its own so its memory can be capped and measured (`media-memory.test.ts` starts
 * it with a small `--max-old-space-size` against the local S3 front it runs). The media are lazily
 * generated streams as Baileys hands them over (`mediaStream`), never held whole; what passes into
 * the store is hashed on the way. `MODE=buffered` takes the old path (the bytes read whole, then one
 * put), to show the measure sees buffering.
 *
 * Env: S3_URL, BUCKET, ACCESS_KEY. Prints one JSON line: each case's outcome, the baseline RSS, the
 * peak RSS sampled during each case, and the process's max RSS (the kernel's).
 */
import { createHash } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { proto, type WAMessage } from 'baileys';
import { s3Storage } from '#lib/s3-storage.ts';
import type { Ports } from '#domain/ports.ts';
import { bounded, inboundMedia, mediaOf, readWithin, type MediaDownload } from '#connectors/whatsapp/media.ts';
import { mediaStream } from './whatsapp-double.ts';

const MB = 1024 * 1024;
const env = (name: string) => process.env[name] ?? '';
const client = new S3Client({
  endpoint: env('S3_URL'),
  region: 'us-east-1',
  credentials: { accessKeyId: env('ACCESS_KEY'), secretAccessKey: env('ACCESS_KEY') },
  forcePathStyle: true,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
  maxAttempts: 1,
});
let ids = 0;
const ports = { storage: s3Storage(env('BUCKET'), client), newId: () => `F${++ids}` } as unknown as Pick<Ports, 'storage' | 'newId'>;

const document = (id: string, fileLength: number) =>
  proto.WebMessageInfo.fromObject({
    key: { remoteJid: '5511912345678@s.whatsapp.net', id, fromMe: false },
    messageTimestamp: 1_767_000_000,
    message: { documentMessage: { mimetype: 'application/pdf', fileName: `${id}.pdf`, fileLength, url: 'https://mmg.whatsapp.net/d', directPath: '/d' } },
  }) as WAMessage;

let peak = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage.rss());
};

/** One medium of `totalBytes` declared as `declared`, through inboundMedia; what reached the store, hashed as it passed. */
async function run(id: string, totalBytes: number, declared: number) {
  const sent = createHash('sha256');
  let sentBytes = 0;
  let produced = 0;
  const download: MediaDownload = async (_message, limits, store) => {
    const stream = mediaStream(totalBytes, { chunkBytes: 64 * 1024 });
    try {
      if (env('MODE') === 'buffered') {
        const bytes = await readWithin(stream, limits);
        sent.update(bytes);
        sentBytes = bytes.length;
        return bytes;
      }
      return await store(
        (async function* () {
          for await (const chunk of bounded(stream, limits)) {
            sent.update(chunk);
            sentBytes += chunk.length;
            yield chunk;
          }
        })(),
      );
    } finally {
      produced = stream.produced;
    }
  };
  const message = document(id, declared);
  peak = 0;
  const sampler = setInterval(sample, 5);
  const started = Date.now();
  const media = inboundMedia({ ports, accountId: 'ACC1', download }, message, mediaOf(message.message!, id)!);
  const loaded = await media.load();
  clearInterval(sampler);
  sample();
  return { id, loaded, unavailableText: media.unavailableText, sentBytes, sha256: sent.digest('hex'), produced, peakRss: peak, ms: Date.now() - started };
}

/** A medium four times the largest the product takes, straight into `putStream` (over every cap, so not through inboundMedia): hashed as it passes. */
async function big(id: string, totalBytes: number) {
  const sent = createHash('sha256');
  let sentBytes = 0;
  const stream = mediaStream(totalBytes, { chunkBytes: 64 * 1024 });
  peak = 0;
  const sampler = setInterval(sample, 5);
  const started = Date.now();
  const objectKey = `accounts/ACC1/files/${id}`;
  const written = await ports.storage.putStream(
    objectKey,
    (async function* () {
      for await (const chunk of stream as AsyncIterable<Uint8Array>) {
        sent.update(chunk);
        sentBytes += chunk.length;
        yield chunk;
      }
    })(),
    'application/octet-stream',
  );
  clearInterval(sampler);
  sample();
  return {
    id,
    loaded: { objectKey, size: written.size },
    unavailableText: '',
    sentBytes,
    sha256: sent.digest('hex'),
    produced: stream.produced,
    peakRss: peak,
    ms: Date.now() - started,
  };
}

// Warm up (the SDK's and the upload's code paths loaded), then the baseline.
await run('WARM', 64 * 1024, 64 * 1024);
await new Promise((r) => setTimeout(r, 50));
const baselineRss = process.memoryUsage.rss();
const cases: { loaded: { objectKey: string; size: number } | null }[] = [await run('DOC45', 45 * MB, 45 * MB)];
if (env('MODE') !== 'buffered') cases.push(await run('LIAR500', 500 * MB, 2 * MB), await big('BIG200', 200 * MB));
console.log(
  JSON.stringify({
    baselineRss,
    maxRss: process.resourceUsage().maxRSS * 1024,
    heapLimit: (await import('node:v8')).getHeapStatistics().heap_size_limit,
    cases,
  }),
);
