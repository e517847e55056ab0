/**
 * Verification of an AWS Signature Version 4 presigned URL (query-string authentication), written
 * from the specification and independent of the AWS SDK that signs it: the local S3 stand-in does
 * not check V4 signatures, so the tests check them with this, as S3 would.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** RFC 3986 percent-encoding, as SigV4 wants it (everything but A-Z a-z 0-9 - _ . ~). */
const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

export interface PresignedRequest {
  method: string;
  url: string;
  /** The headers the request is sent with (`host` is taken from the URL). */
  headers: Record<string, string>;
}

/** Why the request does not carry a valid signature by this secret, or undefined when it does. */
export function sigV4Problem(request: PresignedRequest, secretAccessKey: string, now = new Date()): string | undefined {
  const url = new URL(request.url);
  const q = url.searchParams;
  if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return 'not AWS4-HMAC-SHA256';
  const credential = q.get('X-Amz-Credential')?.split('/') ?? [];
  const [, day, region, service, terminator] = credential;
  const amzDate = q.get('X-Amz-Date') ?? '';
  const expires = Number(q.get('X-Amz-Expires'));
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const signature = q.get('X-Amz-Signature') ?? '';
  if (credential.length !== 5 || terminator !== 'aws4_request' || !amzDate.startsWith(day ?? '?')) return 'malformed credential scope';
  const signedAt = Date.parse(amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!Number.isFinite(expires) || expires > 604800 || now.getTime() > signedAt + expires * 1000) return 'expired';

  const headers: Record<string, string> = { host: url.host };
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  const missing = signedHeaders.filter((name) => headers[name] === undefined);
  if (missing.length) return `signed headers not sent: ${missing.join(', ')}`;

  const canonicalUri = url.pathname
    .split('/')
    .map((segment) => encode(decodeURIComponent(segment)))
    .join('/');
  const canonicalQuery = [...q.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [encode(name), encode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${headers[name]!.trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [request.method.toUpperCase(), canonicalUri, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), 'UNSIGNED-PAYLOAD'].join(
    '\n',
  );
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day!), region!), service!), 'aws4_request');
  const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 'signature does not match';
}
