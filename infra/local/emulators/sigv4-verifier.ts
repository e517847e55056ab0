/**
 * Verification of AWS Signature Version 4 as S3 checks it, for the local S3 stand-in's front
 * (s3-front.ts): header-signed requests (the AWS SDK's) and query-presigned URLs (the browser's,
 * made by @aws-sdk/s3-request-presigner), by one key pair. Written from the specification:
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html
 * What it does not check: a signed payload hash against the bytes of the body (the hash is covered
 * by the signature, the body is not compared with it), nor the chunk signatures of a streaming
 * (aws-chunked) upload, which it refuses.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export interface SigV4Key {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
}

/** The parts of a request the signature covers, as the server received them. */
export interface ReceivedRequest {
  method: string;
  /** The request target as sent: the path and the query string, still percent-encoded. */
  url: string;
  headers: IncomingHttpHeaders;
}

/** Why S3 would refuse the request: its status, error code and message. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** How far a header-signed request's date may be from the server's clock, and a presigned URL's date ahead of it. */
const maxSkewMs = 15 * 60 * 1000;
/** A presigned URL's longest life (7 days). */
const maxExpiresSeconds = 604800;
/** The payload hashes whose bytes need no check: unsigned, whole or streamed without chunk signatures. */
const unsignedPayloads = new Set(['UNSIGNED-PAYLOAD', 'STREAMING-UNSIGNED-PAYLOAD-TRAILER']);

/** RFC 3986 percent-encoding, as SigV4 wants it (everything but A-Z a-z 0-9 - _ . ~). */
const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();
const refusal = (status: number, code: string, message: string): Refusal => ({ status, code, message });
const accessDenied = () => refusal(403, 'AccessDenied', 'Access Denied');

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** `yyyyMMddTHHmmssZ` as a time, or NaN. */
function parseAmzDate(text: string): number {
  const m = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(text);
  return m ? Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : Number.NaN;
}

/** The query's parameters, decoded, in order; undefined when one is not valid percent-encoding. */
function queryParameters(query: string): [string, string][] | undefined {
  try {
    return query
      .split('&')
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        return at < 0 ? [decodeURIComponent(pair), ''] : [decodeURIComponent(pair.slice(0, at)), decodeURIComponent(pair.slice(at + 1))];
      });
  } catch {
    return undefined;
  }
}

/** What the signature says it signed: from the Authorization header or from the query. */
interface Claimed {
  credential: string;
  signedHeaders: string;
  signature: string;
  amzDate: string;
  payloadHash: string;
  /** The query parameters that are part of the canonical request. */
  signedQuery: [string, string][];
}

function claimedByHeader(authorization: string, headers: IncomingHttpHeaders, query: [string, string][], now: number): Claimed | Refusal {
  const malformed = (message: string) => refusal(400, 'AuthorizationHeaderMalformed', message);
  if (!authorization.startsWith('AWS4-HMAC-SHA256 ')) {
    return refusal(400, 'InvalidRequest', 'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.');
  }
  const parts = new Map(
    authorization
      .slice('AWS4-HMAC-SHA256 '.length)
      .split(',')
      .map((part) => {
        const at = part.indexOf('=');
        return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
      }),
  );
  const [credential, signedHeaders, signature] = ['Credential', 'SignedHeaders', 'Signature'].map((name) => parts.get(name));
  if (!credential || !signedHeaders || !signature) return malformed('The authorization header is malformed; it needs Credential, SignedHeaders and Signature.');
  const amzDate = headerValue(headers, 'x-amz-date') ?? '';
  const signedAt = parseAmzDate(amzDate);
  if (Number.isNaN(signedAt)) return refusal(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  if (Math.abs(now - signedAt) > maxSkewMs) {
    return refusal(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
  }
  const payloadHash = headerValue(headers, 'x-amz-content-sha256');
  if (!payloadHash) return refusal(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  if (!unsignedPayloads.has(payloadHash) && !/^[0-9a-f]{64}$/.test(payloadHash)) {
    return refusal(400, 'InvalidArgument', 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER or a SHA-256 in hex.');
  }
  return { credential, signedHeaders, signature, amzDate, payloadHash, signedQuery: query };
}

function claimedByQuery(query: [string, string][], now: number): Claimed | Refusal {
  const malformed = (message: string) => refusal(400, 'AuthorizationQueryParametersError', message);
  const get = (name: string) => query.find(([key]) => key === name)?.[1];
  if (get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return malformed('X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  const [credential, signedHeaders, signature, amzDate, expires] = [
    'X-Amz-Credential',
    'X-Amz-SignedHeaders',
    'X-Amz-Signature',
    'X-Amz-Date',
    'X-Amz-Expires',
  ].map(get);
  if (!credential || !signedHeaders || !signature || !amzDate || !expires) {
    return malformed(
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  }
  const signedAt = parseAmzDate(amzDate);
  if (Number.isNaN(signedAt)) return malformed("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
  if (!/^\d+$/.test(expires) || Number(expires) < 1 || Number(expires) > maxExpiresSeconds) {
    return malformed('X-Amz-Expires must be between 1 and 604800 seconds');
  }
  if (now > signedAt + Number(expires) * 1000) return refusal(403, 'AccessDenied', 'Request has expired');
  if (signedAt - now > maxSkewMs) return refusal(403, 'AccessDenied', 'Request is not valid yet');
  const payloadHash = get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
  return { credential, signedHeaders, signature, amzDate, payloadHash, signedQuery: query.filter(([key]) => key !== 'X-Amz-Signature') };
}

/**
 * Why S3 would refuse this request under `key`, or undefined when it carries a valid signature by
 * it. A request without any signature is refused (the bucket is private: no anonymous listing or
 * reading); so is one signed the older way (Signature Version 2).
 */
export function sigV4Refusal(request: ReceivedRequest, key: SigV4Key, now = Date.now()): Refusal | undefined {
  const at = request.url.indexOf('?');
  const rawPath = at < 0 ? request.url : request.url.slice(0, at);
  const query = queryParameters(at < 0 ? '' : request.url.slice(at + 1));
  if (!query) return refusal(400, 'InvalidArgument', 'The query string is not valid percent-encoding.');
  const authorization = headerValue(request.headers, 'authorization');
  const presigned = query.some(([name]) => name === 'X-Amz-Algorithm' || name === 'X-Amz-Signature');
  if (query.some(([name]) => name === 'Signature' || name === 'AWSAccessKeyId')) {
    return refusal(400, 'InvalidRequest', 'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.');
  }
  if (authorization !== undefined && presigned) {
    return refusal(
      400,
      'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified',
    );
  }
  if (authorization === undefined && !presigned) return accessDenied();
  const claimed = authorization !== undefined ? claimedByHeader(authorization, request.headers, query, now) : claimedByQuery(query, now);
  if ('status' in claimed) return claimed;

  const [accessKeyId, day, region, service, terminator, ...rest] = claimed.credential.split('/');
  if (accessKeyId !== key.accessKeyId) return refusal(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (rest.length || day !== claimed.amzDate.slice(0, 8) || region !== key.region || service !== key.service || terminator !== 'aws4_request') {
    return refusal(
      400,
      authorization ? 'AuthorizationHeaderMalformed' : 'AuthorizationQueryParametersError',
      'The credential scope is not valid for this server.',
    );
  }

  const signedHeaders = claimed.signedHeaders.split(';');
  if (!signedHeaders.includes('host') || signedHeaders.some((name) => name !== name.toLowerCase())) return accessDenied();
  // S3 refuses x-amz-* headers that were sent but not signed (they would change the request unseen).
  const unsigned = Object.keys(request.headers).filter((name) => name.startsWith('x-amz-') && !signedHeaders.includes(name));
  if (unsigned.length) return refusal(403, 'AccessDenied', 'There were headers present in the request which were not signed');
  if (signedHeaders.some((name) => headerValue(request.headers, name) === undefined)) return signatureMismatch();

  let canonicalUri: string;
  try {
    canonicalUri = rawPath
      .split('/')
      .map((segment) => encode(decodeURIComponent(segment)))
      .join('/');
  } catch {
    return refusal(400, 'InvalidURI', 'Could not parse the specified URI.');
  }
  const canonicalQuery = claimed.signedQuery
    .map(([name, value]) => [encode(name), encode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${headerValue(request.headers, name)!.trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [request.method.toUpperCase(), canonicalUri, canonicalQuery, canonicalHeaders, claimed.signedHeaders, claimed.payloadHash].join(
    '\n',
  );
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', claimed.amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${key.secretAccessKey}`, day!), region!), service!), 'aws4_request');
  const expected = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest();
  const given = /^[0-9a-f]{64}$/.test(claimed.signature) ? Buffer.from(claimed.signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : signatureMismatch();
}

function signatureMismatch(): Refusal {
  return refusal(
    403,
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  );
}
