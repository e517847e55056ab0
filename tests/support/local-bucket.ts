/**
 * The local bucket for tests: an S3 client as the functions configure theirs (s3rver's key pair,
 * path-style addressing, checksums only where required: functions/lib/s3-storage.ts), and a test
 * file's own S3 front (infra/local/emulators/s3-front.ts: s3rver behind the SigV4 check) on a
 * fresh folder with one bucket, started before the file's tests and removed after them.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { afterAll, beforeAll } from 'vitest';
import { startS3Front, type S3Front } from '../../infra/local/emulators/s3-front.ts';

/** The local runtime's S3 key pair (s3rver's well-known one). */
export const localS3Key = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export function localS3Client(endpoint: string, options: Omit<S3ClientConfig, 'endpoint'> = {}): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    credentials: localS3Key,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...options,
  });
}

export interface OwnBucket {
  readonly name: string;
  front(): S3Front;
  /** The folder s3rver keeps the bucket in. */
  dir(): string;
  /** Multipart uploads s3rver still holds (none once every upload completed or was aborted). */
  uploadsLeft(): string[];
}

export function ownBucket(folderPrefix: string, name = 'media'): OwnBucket {
  let dir: string;
  let front: S3Front | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), folderPrefix));
    front = await startS3Front({ directory: dir, buckets: [{ name }], key: { ...localS3Key, region: 'us-east-1', service: 's3' } });
  });
  afterAll(async () => {
    await front?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    name,
    front: () => front!,
    dir: () => dir,
    uploadsLeft: () => {
      const uploads = join(dir, name, '._S3rver_uploads');
      return existsSync(uploads) ? readdirSync(uploads) : [];
    },
  };
}
