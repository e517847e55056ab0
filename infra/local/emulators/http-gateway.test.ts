/**
 * The local HTTP gateway's payload limit, as API Gateway's (10 MB): a body over it is answered with
 * API Gateway's 413 without being read (a declared Content-Length: none of it; chunked: no further
 * than the limit) and the connection is closed; a body of exactly the limit reaches the handler.
 * The gateway runs behind a bare server here, so the test sees how many bytes the server read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpGateway, maxPayloadBytes } from './http-gateway.ts';
import { postLarge } from '../../../tests/support/large-post.ts';

let server: Server;
let url: string;
/** What the handler received: the length of each body. */
const invoked: number[] = [];
/** The bytes the server had read off each closed connection (headers included); a refused one closes a moment after its answer. */
const bytesReadAtClose: number[] = [];

beforeAll(async () => {
  const gateway = new HttpGateway(async (_route, event) => {
    invoked.push(event.body?.length ?? 0);
    return { statusCode: 200, body: JSON.stringify({ length: event.body?.length ?? 0 }) };
  });
  server = createServer((req, res) => void gateway.serve(req, res));
  server.on('connection', (socket) => socket.once('close', () => bytesReadAtClose.push(socket.bytesRead)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/auth/login`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const post = (total: number, options: { declared: boolean; headersOnly?: boolean }) => postLarge(url, total, { ...options, contentType: 'text/plain' });

describe('the local HTTP gateway’s payload limit', () => {
  it('answers 413 to a Content-Length over 10 MB from the headers alone, and closes', async () => {
    const before = { invoked: invoked.length, closed: bytesReadAtClose.length };
    const outcome = await post(800 * 1024 * 1024, { declared: true, headersOnly: true });
    expect(outcome).toMatchObject({ status: 413, body: JSON.stringify({ message: 'Request Entity Too Large' }), written: 0 });
    await expect.poll(() => bytesReadAtClose.length, { timeout: 10_000 }).toBe(before.closed + 1);
    // The request's headers, and not one byte of body (none was sent: the answer came first).
    expect(bytesReadAtClose.at(-1)).toBeLessThan(1024);
    expect(invoked.length).toBe(before.invoked);
  });

  it('stops reading a chunked body once it passes 10 MB: 413, and the connection is closed while the client still writes', async () => {
    const before = { invoked: invoked.length, closed: bytesReadAtClose.length };
    const total = 200 * 1024 * 1024;
    const outcome = await post(total, { declared: false });
    expect(outcome.status).toBe(413);
    expect(outcome.body).toBe(JSON.stringify({ message: 'Request Entity Too Large' }));
    expect(outcome.written).toBeLessThan(total);
    await expect.poll(() => bytesReadAtClose.length, { timeout: 10_000 }).toBe(before.closed + 1);
    // The limit, plus at most what was in flight when it was passed (chunk framing included).
    expect(bytesReadAtClose.at(-1)).toBeGreaterThan(maxPayloadBytes);
    expect(bytesReadAtClose.at(-1)).toBeLessThan(maxPayloadBytes + 1024 * 1024);
    expect(invoked.length).toBe(before.invoked);
  });

  it('hands a body of exactly 10 MB to the handler, declared or chunked', async () => {
    for (const declared of [true, false]) {
      const outcome = await post(maxPayloadBytes, { declared });
      expect(outcome.status, declared ? 'declared' : 'chunked').toBe(200);
      expect(JSON.parse(outcome.body)).toEqual({ length: maxPayloadBytes });
    }
  });
});
