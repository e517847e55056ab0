/**
 * The local S3: s3rver's store and API behind a front that checks what s3rver does not. On its own
 * s3rver answers anonymous requests (any bucket listed, any object read or written by its path) and
 * takes any Signature Version 4 unchecked; here it listens on no port of its own, and the front,
 * on a loopback port, hands it only requests signed with the runtime's key pair, as a private S3
 * bucket would: header-signed ones (the AWS SDK's) and query-presigned URLs (the browser's), verified
 * by sigv4-verifier.ts. CORS preflights pass unsigned, as S3 answers them from the bucket's rules.
 * A refusal is S3's XML error, its body left unread. s3rver 3.7 takes multipart uploads (create,
 * upload part, complete) but not AbortMultipartUpload (a DELETE with `uploadId` answers 405): the
 * front answers that one itself, dropping the parts where s3rver's file store keeps them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import S3rver from 's3rver';
import { refuseUnread } from './request-body.ts';
import { sigV4Refusal, type Refusal, type SigV4Key } from './sigv4-verifier.ts';

export interface S3FrontOptions {
  /** Where s3rver keeps buckets and objects. */
  directory: string;
  /** The buckets to create, with their configurations (CORS) as XML. */
  buckets: { name: string; configs?: string[] }[];
  /** The one key pair requests must be signed with (the runtime's), its region and service (`s3`). */
  key: SigV4Key;
}

export interface S3Front {
  /** The endpoint, `http://127.0.0.1:<port>`. */
  url: string;
  close(): Promise<void>;
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${escapeXml(refusal.message)}</Message><RequestId>${requestId}</RequestId></Error>`;
  refuseUnread(
    req,
    res,
    refusal.status,
    {
      'content-type': 'application/xml',
      'x-amz-request-id': requestId,
      // The bucket's CORS rule allows any origin; S3 sends it on errors too, so a page can read why.
      ...(req.headers.origin ? { 'access-control-allow-origin': '*' } : {}),
    },
    req.method === 'HEAD' ? '' : xml,
  );
}

/**
 * AbortMultipartUpload (`DELETE /<bucket>/<key>?uploadId=<id>`): the upload's parts are removed from
 * s3rver's store (`<directory>/<bucket>/._S3rver_uploads/<id>`, 3.7's layout), 204 as S3 answers;
 * an upload that is not there is S3's 404 NoSuchUpload. False for any other request.
 */
async function abortedUpload(req: IncomingMessage, res: ServerResponse, directory: string): Promise<boolean> {
  if (req.method !== 'DELETE') return false;
  const url = new URL(req.url ?? '/', 'http://s3.local');
  const uploadId = url.searchParams.get('uploadId');
  if (uploadId === null) return false;
  const bucket = decodeURIComponent(url.pathname.split('/')[1] ?? '');
  const dir = join(directory, bucket, '._S3rver_uploads', uploadId);
  if (!/^[0-9a-f]{32}$/.test(uploadId) || !/^[a-z0-9.-]+$/.test(bucket) || bucket.includes('..') || !existsSync(dir)) {
    refuse(req, res, { status: 404, code: 'NoSuchUpload', message: 'The specified upload does not exist.' });
    return true;
  }
  await rm(dir, { recursive: true, force: true });
  req.resume();
  res.writeHead(204, { 'x-amz-request-id': randomBytes(8).toString('hex').toUpperCase() });
  res.end();
  return true;
}

/** Starts s3rver's handler behind the verifying front, on a free loopback port. */
export async function startS3Front(options: S3FrontOptions): Promise<S3Front> {
  const s3 = new S3rver({ silent: true, directory: options.directory, configureBuckets: options.buckets });
  await s3.configureBuckets();
  const s3rverHandler = s3.callback();
  const server = createServer((req, res) => {
    if (req.method !== 'OPTIONS') {
      const refusal = sigV4Refusal({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers }, options.key);
      if (refusal) return refuse(req, res, refusal);
    }
    abortedUpload(req, res, options.directory).then(
      (answered) => {
        if (!answered) s3rverHandler(req, res);
      },
      (error: unknown) => {
        console.error('[s3] aborting a multipart upload', error);
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
