/** The media bucket on S3 (s3rver locally), read and written through presigned URLs. */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { downloadHeadersOf } from '#contracts/downloads.ts';
import type { Storage } from '#domain/ports.ts';
import { traced } from './observability.ts';

export const uploadUrlLifetimeSeconds = 15 * 60;
export const downloadUrlLifetimeSeconds = 60 * 60;

/** S3's smallest part of a multipart upload (all parts but the last): what `putStream` holds at a time. */
export const minPartBytes = 5 * 1024 * 1024;

export interface StreamUploadOptions {
  /** The size of each part but the last (at least S3's 5 MiB). */
  partBytes?: number;
  /** How long one request of an upload (a part, the completion) may take before it is aborted. */
  requestTimeoutMs?: number;
}

/**
 * The body cut into parts of exactly `partBytes` (the last one shorter), copied into one buffer that
 * every part reuses: a part is valid until the next is asked for, so the caller sends it first. What
 * is held is that one buffer, whatever the body's length, and a long body leaves no garbage of
 * parts behind (freed buffers are only given back at V8's next collection). Ending early (a failed
 * upload) ends the body, which releases its source.
 */
export async function* partsOf(body: AsyncIterable<Uint8Array>, partBytes: number): AsyncGenerator<Buffer> {
  let part: Buffer | undefined;
  let held = 0;
  for await (const chunk of body) {
    part ??= Buffer.allocUnsafe(partBytes);
    for (let offset = 0; offset < chunk.byteLength; ) {
      const n = Math.min(partBytes - held, chunk.byteLength - offset);
      part.set(chunk.subarray(offset, offset + n), held);
      held += n;
      offset += n;
      if (held === partBytes) {
        yield part;
        held = 0;
      }
    }
  }
  if (part && held > 0) yield part.subarray(0, held);
}

export function s3Storage(
  bucket: string,
  client = traced(
    new S3Client({
      forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  ),
  streams: StreamUploadOptions = {},
): Storage {
  const partBytes = Math.max(minPartBytes, streams.partBytes ?? minPartBytes);
  const requestTimeoutMs = streams.requestTimeoutMs ?? 60_000;
  /** One request's abort: the caller's signal, or the request taking too long. */
  const abortOf = (signal: AbortSignal | undefined) => {
    const timeout = AbortSignal.timeout(requestTimeoutMs);
    return { abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout };
  };
  return {
    uploadUrl(key, mimetype, length) {
      return getSignedUrl(client, new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: mimetype, ContentLength: length }), {
        expiresIn: uploadUrlLifetimeSeconds,
        signableHeaders: new Set(['content-type', 'content-length']),
      });
    },
    downloadUrl(key, filename, mimetype) {
      const { contentType, contentDisposition } = downloadHeadersOf(filename, mimetype);
      return getSignedUrl(
        client,
        new GetObjectCommand({ Bucket: bucket, Key: key, ResponseContentType: contentType, ResponseContentDisposition: contentDisposition }),
        { expiresIn: downloadUrlLifetimeSeconds },
      );
    },
    async put(key, bytes, mimetype) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: mimetype }));
    },
    async putStream(key, body, mimetype, options = {}) {
      const { signal } = options;
      const parts = partsOf(body, partBytes);
      const first = await parts.next();
      // A part shorter than the rest can only be the last.
      const bytes = first.done ? Buffer.alloc(0) : first.value;
      if (bytes.length < partBytes) {
        // The whole body is shorter than a part: one PutObject.
        signal?.throwIfAborted();
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: mimetype }), abortOf(signal));
        return { size: bytes.length };
      }
      const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: mimetype }), abortOf(signal));
      const done: { ETag: string; PartNumber: number }[] = [];
      let size = 0;
      try {
        for (let part: IteratorResult<Buffer> = first; !part.done; part = await parts.next()) {
          signal?.throwIfAborted();
          const PartNumber = done.length + 1;
          const answer = await client.send(
            new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: part.value, ContentLength: part.value.length }),
            abortOf(signal),
          );
          done.push({ ETag: answer.ETag!, PartNumber });
          size += part.value.length;
        }
        signal?.throwIfAborted();
        await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: done } }), abortOf(signal));
        return { size };
      } catch (error) {
        await parts.return(undefined);
        // Not under the caller's signal (it may be the reason): the parts would otherwise be kept, and billed, until a lifecycle rule drops them.
        await client
          .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }), abortOf(undefined))
          .catch((failure) => console.error(`[storage] abandoning the upload of ${key}`, failure));
        throw error;
      }
    },
    async head(key) {
      try {
        const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: Number(answer.ContentLength ?? 0), mimetype: answer.ContentType ?? null };
      } catch (error) {
        const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return null;
        throw error;
      }
    },
    async get(key) {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return answer.Body!.transformToByteArray();
    },
    async getRange(key, start, end) {
      if (end <= start) return new Uint8Array(0);
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${start}-${end - 1}` }));
      return answer.Body!.transformToByteArray();
    },
    async list(prefix, max) {
      const answer = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: Math.min(max, 1000) }));
      return (answer.Contents ?? []).map((o) => o.Key!).filter(Boolean);
    },
    async remove(keys) {
      // One by one, a few at a time: DeleteObjects needs a checksum the local stand-in does not take.
      for (let i = 0; i < keys.length; i += 20) {
        await Promise.all(keys.slice(i, i + 20).map((key) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))));
      }
    },
  };
}
