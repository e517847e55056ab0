/** The media bucket on S3 (s3rver locally), read and written through presigned URLs. */
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { downloadHeadersOf } from '#contracts/downloads.ts';
import type { Storage } from '#domain/ports.ts';
import { traced } from './observability.ts';

export const uploadUrlLifetimeSeconds = 15 * 60;
export const downloadUrlLifetimeSeconds = 60 * 60;

export function s3Storage(
  bucket: string,
  client = traced(
    new S3Client({
      forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  ),
): Storage {
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
