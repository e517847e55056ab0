/**
 * Compression of the API's answers: which coding an Accept-Encoding takes, which answers are
 * compressed (JSON, at or over the threshold) and which stay as they are, the headers kept and added,
 * the work done off the calling thread, and the wiring in `api()` for answers and rendered errors.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { fail } from '#domain/errors.ts';
import type { Ports } from '#domain/ports.ts';
import { acceptedCodings } from './accept-encoding.ts';
import { api } from './api.ts';
import { compressionThreshold, compressResult } from './compress-response.ts';
import { json, noContent, ok } from './responses.ts';

const big = { data: Array.from({ length: 60 }, (_, i) => ({ id: `contact-${i}`, name: `Cliente ${i}`, unread: i % 3 })) };
const bigText = JSON.stringify(big);

function decoded(result: Awaited<ReturnType<typeof compressResult>>): string {
  const bytes = Buffer.from(result.body!, 'base64');
  return (result.headers?.['content-encoding'] === 'br' ? brotliDecompressSync(bytes) : gunzipSync(bytes)).toString('utf8');
}

describe('acceptedCodings', () => {
  it('takes Brotli first at equal weight, then gzip, and identity when nothing is said', () => {
    expect(acceptedCodings('gzip, deflate, br, zstd')).toEqual(['br', 'gzip']);
    expect(acceptedCodings('GZIP, BR')).toEqual(['br', 'gzip']);
    expect(acceptedCodings(['gzip', 'br'])).toEqual(['br', 'gzip']);
    expect(acceptedCodings(undefined)).toEqual([]);
    expect(acceptedCodings('')).toEqual([]);
    expect(acceptedCodings('deflate')).toEqual([]);
  });

  it('follows q-values, with q=0 refusing a coding', () => {
    expect(acceptedCodings('br;q=0.2, gzip;q=0.8')).toEqual(['gzip', 'br']);
    expect(acceptedCodings('br;q=0, gzip')).toEqual(['gzip']);
    expect(acceptedCodings('br ; q=0.000, gzip;q=0')).toEqual([]);
    expect(acceptedCodings('gzip;q=0.5;foo=bar')).toEqual(['gzip']);
  });

  it('reads * as any coding not named, and identity;q=0 as no reason to compress what is not accepted', () => {
    expect(acceptedCodings('*')).toEqual(['br', 'gzip']);
    expect(acceptedCodings('gzip, *;q=0')).toEqual(['gzip']);
    expect(acceptedCodings('*;q=0.5, br;q=0')).toEqual(['gzip']);
    expect(acceptedCodings('identity;q=0')).toEqual([]);
    expect(acceptedCodings('identity;q=0, *')).toEqual(['br', 'gzip']);
    expect(acceptedCodings('identity, *;q=0')).toEqual([]);
  });
});

describe('compressResult', () => {
  it('compresses a JSON answer over the threshold with the coding asked, keeping the other headers', async () => {
    for (const coding of ['br', 'gzip'] as const) {
      const result = await compressResult(ok(big), coding === 'br' ? 'gzip, br' : 'gzip');
      expect(result.statusCode).toBe(200);
      expect(result.isBase64Encoded).toBe(true);
      expect(result.headers).toEqual({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'content-encoding': coding,
        vary: 'Accept-Encoding',
      });
      expect(decoded(result)).toBe(bigText);
      expect(Buffer.from(result.body!, 'base64').length).toBeLessThan(bigText.length / 3);
    }
  });

  it('sends identity with Vary when no coding is taken, so a cache keeps the variants apart', async () => {
    for (const header of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const result = await compressResult(ok(big), header);
      expect(result.body).toBe(bigText);
      expect(result.isBase64Encoded).toBeUndefined();
      expect(result.headers).toEqual({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', vary: 'Accept-Encoding' });
    }
  });

  it('leaves small answers, empty answers and answers that are not JSON text as they are', async () => {
    const small = json(200, { text: 'x'.repeat(compressionThreshold - 20) });
    expect(Buffer.byteLength(small.body!)).toBeLessThan(compressionThreshold);
    expect(await compressResult(small, 'br')).toBe(small);
    const atThreshold = json(200, { text: 'x'.repeat(compressionThreshold - 11) });
    expect(Buffer.byteLength(atThreshold.body!)).toBe(compressionThreshold);
    expect((await compressResult(atThreshold, 'br')).headers?.['content-encoding']).toBe('br');

    const empty = noContent();
    expect(await compressResult(empty, 'br')).toBe(empty);
    const csv = { statusCode: 200, headers: { 'content-type': 'text/csv' }, body: 'a,b\n'.repeat(1000) };
    expect(await compressResult(csv, 'br')).toBe(csv);
    const binary = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(bigText).toString('base64'), isBase64Encoded: true };
    expect(await compressResult(binary, 'br')).toBe(binary);
    const encoded = { statusCode: 200, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: bigText };
    expect(await compressResult(encoded, 'br')).toBe(encoded);
  });

  it('adds Accept-Encoding to a Vary the answer already had', async () => {
    const result = await compressResult({ ...ok(big), headers: { 'content-type': 'application/json', Vary: 'Origin' } }, 'gzip');
    expect(result.headers).toMatchObject({ vary: 'Origin, Accept-Encoding', 'content-encoding': 'gzip' });
    expect(result.headers).not.toHaveProperty('Vary');
  });

  it('compresses on the thread pool: the event loop keeps turning while a large answer is encoded', async () => {
    const large = ok({ data: Array.from({ length: 40_000 }, (_, i) => ({ id: `contact-${i}`, name: `Cliente ${i * 7919}` })) });
    let turns = 0;
    let done = false;
    const spin = () => {
      if (done) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const result = await compressResult(large, 'br');
    done = true;
    expect(result.headers?.['content-encoding']).toBe('br');
    expect(turns).toBeGreaterThan(0);
  });
});

describe('api() answers', () => {
  const ports = () => ({}) as Ports;
  const event = (acceptEncoding?: string) =>
    ({
      version: '2.0',
      routeKey: 'GET /api/test',
      rawPath: '/api/test',
      rawQueryString: '',
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      requestContext: { requestId: 'apigw-1', http: { method: 'GET', path: '/api/test', sourceIp: '127.0.0.1' } },
      isBase64Encoded: false,
    }) as unknown as APIGatewayProxyEventV2;
  const context = { awsRequestId: 'lambda-1', functionName: 'conversa-test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

  it('are compressed for the Accept-Encoding, and plain without it', async () => {
    const handler = api({ auth: 'public', ports }).handler(async () => ok(big));
    const packed = await handler(event('gzip, deflate, br'), context);
    expect(packed.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding', 'cache-control': 'no-store' });
    expect(decoded(packed)).toBe(bigText);
    const plain = await handler(event(), context);
    expect(plain.body).toBe(bigText);
    expect(plain.headers).not.toHaveProperty('content-encoding');
  });

  it('include rendered errors: a large catalogue error is compressed, a small one is not', async () => {
    const details = Array.from({ length: 30 }, (_, i) => ({ path: `tagIds.${i}`, message: 'Invalid input: expected string, received number' }));
    const large = await api({ auth: 'public', ports }).handler(async () => {
      throw fail.invalid(undefined, details);
    })(event('gzip'), context);
    expect(large.statusCode).toBe(400);
    expect(large.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
    expect(JSON.parse(decoded(large))).toMatchObject({ statusCode: 400, error: 'Bad Request', details });

    const small = await api({ auth: 'public', ports }).handler(async () => {
      throw fail.notFound();
    })(event('br'), context);
    expect(small.statusCode).toBe(404);
    expect(small.isBase64Encoded).toBeUndefined();
    expect(JSON.parse(small.body!)).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
