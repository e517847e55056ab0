/**
 * The local HTTP gateway's payload limit, as API Gateway's (10 MB): a body over it is answered with
 * API Gateway's 413 without being read (a declared Content-Length: none of it; chunked: no further
 * than the limit) and the connection is closed; a body of exactly the limit reaches the handler.
 * The gateway runs behind a bare server here, so the test sees how many bytes the server read.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpGateway, maxPayloadBytes } from '../../infra/local/http-gateway.ts';

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

interface Outcome {
  status?: number;
  body: string;
  /** Body bytes the client had handed to its socket when the answer or the close came. */
  written: number;
}

/**
 * Posts a body of `total` bytes of JSON-ish text in chunks of 64 KB, declared with a Content-Length
 * when `declared`, chunked otherwise; with `headersOnly`, sends the headers and waits for the answer
 * before writing any of the body. Resolves once the answer is read or the connection is gone.
 */
function post(total: number, { declared, headersOnly = false }: { declared: boolean; headersOnly?: boolean }): Promise<Outcome> {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve) => {
    const outcome: Outcome = { body: '', written: 0 };
    let done = false;
    const finish = () => {
      if (!done) resolve(outcome);
      done = true;
    };
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...(declared ? { 'content-length': String(total) } : {}) },
    });
    req.on('response', (res: IncomingMessage) => {
      outcome.status = res.statusCode;
      res.setEncoding('utf8');
      res.on('data', (text: string) => (outcome.body += text));
      res.on('end', finish);
      res.on('error', finish);
    });
    req.on('error', finish);
    req.on('close', () => {
      // An answer being read finishes on its own 'end'.
      if (outcome.status === undefined) finish();
    });
    const pump = () => {
      while (!done && !req.destroyed && outcome.written < total) {
        const part = chunk.subarray(0, Math.min(chunk.length, total - outcome.written));
        outcome.written += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      if (!done && !req.destroyed) req.end();
    };
    req.flushHeaders();
    if (!headersOnly) pump();
  });
}

describe('the local HTTP gateway’s payload limit', () => {
  it('answers 413 to a Content-Length over 10 MB from the headers alone, and closes', async () => {
    const before = { invoked: invoked.length, closed: bytesReadAtClose.length };
    const outcome = await post(800 * 1024 * 1024, { declared: true, headersOnly: true });
    expect(outcome).toEqual({ status: 413, body: JSON.stringify({ message: 'Request Entity Too Large' }), written: 0 });
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
