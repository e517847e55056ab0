/**
 * The local S3 front (infra/local/emulators/s3-front.ts): s3rver answers only what is signed with the
 * runtime's key pair, as a private bucket does. The AWS SDK's header-signed calls and the
 * presigner's URLs (the same options as functions/lib/s3-storage.ts) pass; anonymous listing,
 * reading and writing, another key, a changed or expired presigned URL and a skewed clock do not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { localS3Client } from '../../../tests/support/local-bucket.ts';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startS3Front, type S3Front } from './s3-front.ts';
import { sigV4Refusal } from './sigv4-verifier.ts';

const bucket = 'media';
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const key = { ...credentials, region: 'us-east-1', service: 's3' };
/** A key with characters the SDK percent-encodes. */
const objectKey = 'accounts/01A/files/01B/relatório (1)+final*.pdf';
const cors = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedHeader>*</AllowedHeader></CORSRule></CORSConfiguration>`;

let dir: string;
let front: S3Front;

const client = (options: { credentials?: typeof credentials; endpoint?: string } = {}) =>
  localS3Client(options.endpoint ?? front.url, { credentials: options.credentials ?? credentials, maxAttempts: 1 });

const errorCode = async (res: Response) => /<Code>([^<]+)<\/Code>/.exec(await res.text())?.[1];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 's3-front-'));
  front = await startS3Front({ directory: dir, buckets: [{ name: bucket, configs: [cors] }], key });
  await client().send(new PutObjectCommand({ Bucket: bucket, Key: objectKey, Body: 'conteúdo', ContentType: 'application/pdf' }));
});

afterAll(async () => {
  await front.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the local S3 front', () => {
  it('serves the SDK’s header-signed calls: put, head, get and list, keys with encoded characters included', async () => {
    const s3 = client();
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'accounts/01A/outro.txt', Body: Buffer.from('olá'), ContentType: 'text/plain' }));
    expect((await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey }))).ContentType).toBe('application/pdf');
    expect(await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey }))).Body!.transformToString()).toBe('conteúdo');
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'accounts/01A/' }));
    expect(listed.Contents?.map((o) => o.Key).sort()).toEqual(['accounts/01A/files/01B/relatório (1)+final*.pdf', 'accounts/01A/outro.txt']);
  });

  it('refuses anonymous listing, reading and writing with 403 AccessDenied, and writes nothing', async () => {
    const objectPath = `/${bucket}/${objectKey.split('/').map(encodeURIComponent).join('/')}`;
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', `/${bucket}`],
      ['GET', `/${bucket}?list-type=2&prefix=accounts/`],
      ['GET', objectPath],
      ['HEAD', objectPath],
      ['DELETE', objectPath],
    ] as const) {
      const res = await fetch(`${front.url}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(403);
      if (method !== 'HEAD') expect(await errorCode(res), `${method} ${path}`).toBe('AccessDenied');
    }
    const put = await fetch(`${front.url}/${bucket}/accounts/01A/intruso.html`, { method: 'PUT', body: '<script></script>' });
    expect(put.status).toBe(403);
    const listed = await client().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'accounts/01A/intruso' }));
    expect(listed.Contents ?? []).toEqual([]);
    // The object is still there, unchanged.
    expect(await (await client().send(new GetObjectCommand({ Bucket: bucket, Key: objectKey }))).Body!.transformToString()).toBe('conteúdo');
  });

  it('refuses calls signed with another secret or another access key', async () => {
    await expect(
      client({ credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'adivinhado' } }).send(new ListObjectsV2Command({ Bucket: bucket })),
    ).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
      $metadata: { httpStatusCode: 403 },
    });
    await expect(
      client({ credentials: { accessKeyId: 'OUTRA', secretAccessKey: 'S3RVER' } }).send(new ListObjectsV2Command({ Bucket: bucket })),
    ).rejects.toMatchObject({
      name: 'InvalidAccessKeyId',
      $metadata: { httpStatusCode: 403 },
    });
  });

  it('serves a presigned GET with the answer’s type and disposition overridden, as file links are made', async () => {
    const url = await getSignedUrl(
      client(),
      new GetObjectCommand({
        Bucket: bucket,
        Key: objectKey,
        ResponseContentType: 'application/pdf',
        ResponseContentDisposition: 'attachment; filename="a b.pdf"',
      }),
      { expiresIn: 3600 },
    );
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('conteúdo');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="a b.pdf"');

    const changed = [
      ['another key', url.replace('final', 'outro'), 403],
      ['another disposition', url.replace('attachment', 'inline'), 403],
      ['a longer life', url.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=604800'), 403],
      ['another signature', url.replace(/X-Amz-Signature=[0-9a-f]{4}/, 'X-Amz-Signature=0000'), 403],
      // S3: AuthorizationQueryParametersError.
      ['no signature', url.replace(/&?X-Amz-Signature=[0-9a-f]+/, ''), 400],
    ] as const;
    for (const [what, changedUrl, status] of changed) {
      const refused = await fetch(changedUrl);
      expect(refused.status, what).toBe(status);
    }
    const asDelete = await fetch(url, { method: 'DELETE' });
    expect(asDelete.status).toBe(403);
    expect(await errorCode(asDelete)).toBe('SignatureDoesNotMatch');
  });

  it('takes a presigned PUT only with the signed type and length, and not once expired', async () => {
    const body = '%PDF-1.7 enviado';
    const uploadKey = 'accounts/01A/files/01C/enviado.pdf';
    const url = await getSignedUrl(
      client(),
      new PutObjectCommand({ Bucket: bucket, Key: uploadKey, ContentType: 'application/pdf', ContentLength: Buffer.byteLength(body) }),
      { expiresIn: 900, signableHeaders: new Set(['content-type', 'content-length']) },
    );
    const otherType = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/html' }, body });
    expect(otherType.status).toBe(403);
    const otherLength = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: `${body}!` });
    expect(otherLength.status).toBe(403);
    // A browser's preflight carries no signature; the bucket's CORS rules answer it.
    const preflight = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'PUT' } });
    expect(preflight.status).toBe(200);
    const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf', origin: 'http://localhost:3000' }, body });
    expect(put.status).toBe(200);
    expect(await (await client().send(new GetObjectCommand({ Bucket: bucket, Key: uploadKey }))).Body!.transformToString()).toBe(body);

    const expired = await getSignedUrl(client(), new GetObjectCommand({ Bucket: bucket, Key: uploadKey }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 10 * 60 * 1000),
    });
    const refused = await fetch(expired, { headers: { origin: 'http://localhost:3000' } });
    expect(refused.status).toBe(403);
    // Readable by the page that asked (CORS on the error too), as S3 does.
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(await refused.text()).toContain('Request has expired');
  });

  it('refuses a header-signed call whose date is more than 15 minutes from the clock', async () => {
    // The SDK corrects its clock from a refusal and retries, so the verifier is asked directly
    // about a request as the SDK sent it (recorded by a server standing in for the front).
    const received: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
    const recorder = createServer((req, res) => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/xml' }).end('<ListBucketResult></ListBucketResult>');
    });
    await new Promise<void>((r) => recorder.listen(0, '127.0.0.1', () => r()));
    try {
      await client({ endpoint: `http://127.0.0.1:${(recorder.address() as AddressInfo).port}` })
        .send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'accounts/' }))
        .catch(() => undefined);
    } finally {
      await new Promise<void>((r) => recorder.close(() => r()));
    }
    const [request] = received;
    expect(sigV4Refusal(request!, key)).toBeUndefined();
    expect(sigV4Refusal(request!, key, Date.now() + 16 * 60 * 1000)).toMatchObject({ status: 403, code: 'RequestTimeTooSkewed' });
    expect(sigV4Refusal(request!, key, Date.now() - 16 * 60 * 1000)).toMatchObject({ status: 403, code: 'RequestTimeTooSkewed' });
    expect(sigV4Refusal({ ...request!, headers: { ...request!.headers, 'x-amz-meta-extra': 'unsigned' } }, key)).toMatchObject({
      status: 403,
      code: 'AccessDenied',
    });
    expect(sigV4Refusal(request!, { ...key, region: 'sa-east-1' })).toMatchObject({ status: 400 });
  });
});
