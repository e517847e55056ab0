/**
 * Compresses the HTTP API's JSON answers for the request's `Accept-Encoding` (Brotli preferred,
 * then gzip, identity when the header is absent or refuses both), as one middy middleware in
 * `api()`, so every route and every rendered error goes through it. API Gateway's HTTP APIs do not
 * compress, so the function does: the compressed body goes out base64 with `isBase64Encoded`, which
 * API Gateway (and the local gateway) turn back into bytes, with our `content-encoding`.
 *
 * Answers under `compressionThreshold` stay as they are (the codings' framing would outweigh the
 * saving); every answer at or over it carries `Vary: Accept-Encoding`, compressed or not.
 * Compression runs on libuv's thread pool (zlib's callback forms), never on the thread that runs the
 * handlers.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { acceptedCodings, type Coding } from './accept-encoding.ts';
import type { HttpResult } from './responses.ts';

/** Bytes of body from which an answer is compressed. */
export const compressionThreshold = 1024;

/** Brotli's quality for answers made per request (ADR-0167: 11 costs ~50 times the CPU for ~4% less). */
const brotliQuality = 5;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const encoders: Record<Coding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => gzipAsync(body, { level: 6 }),
};

/** A header by its lower-case name, whatever case the answer or event spelled it in. */
function headerOf(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name && value !== undefined) return String(value);
  return undefined;
}

/** `result` encoded for `acceptEncoding`, or as it is when it is not a JSON answer large enough. */
export async function compressResult(result: HttpResult, acceptEncoding: string | undefined): Promise<HttpResult> {
  if (typeof result.body !== 'string' || result.isBase64Encoded) return result;
  if (!/^application\/json\b/i.test(headerOf(result.headers, 'content-type') ?? '')) return result;
  if (headerOf(result.headers, 'content-encoding') !== undefined) return result;
  const body = Buffer.from(result.body, 'utf8');
  if (body.length < compressionThreshold) return result;
  const vary = headerOf(result.headers, 'vary');
  const others = Object.entries(result.headers ?? {}).filter(([key]) => key.toLowerCase() !== 'vary');
  const headers = { ...Object.fromEntries(others), vary: vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding' };
  const coding = acceptedCodings(acceptEncoding)[0];
  if (!coding) return { ...result, headers };
  const encoded = await encoders[coding](body);
  return { ...result, headers: { ...headers, 'content-encoding': coding }, body: encoded.toString('base64'), isBase64Encoded: true };
}

/** The middleware: after the handler, and after an error has been rendered as an answer. */
export const compressResponse = (): MiddlewareObj<APIGatewayProxyEventV2, HttpResult> => {
  const compress = async (request: Request<APIGatewayProxyEventV2, HttpResult>) => {
    if (!request.response) return;
    request.response = await compressResult(request.response, headerOf(request.event.headers, 'accept-encoding'));
  };
  return { after: compress, onError: compress };
};
