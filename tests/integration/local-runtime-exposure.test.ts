/**
 * What the local runtime lets an unauthenticated or hostile caller do, through the runtime as
 * `npm start` runs it: the API refuses a body over API Gateway's 10 MB without reading it; the
 * realtime socket closes on a frame or message over API Gateway's quotas (and the runtime lives
 * on); the S3 stand-in lists and serves nothing without a valid signature by the runtime's key.
 * The gateways' own tests: tests/unit/http-gateway-body-cap.test.ts, ws-gateway-limits.test.ts,
 * s3-front.test.ts.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { maxPayloadBytes } from '../../infra/local/http-gateway.ts';
import { maxFrameBytes, maxMessageBytes } from '../../infra/local/ws-frame-limit.ts';
import { realtimeUrl } from '../support/realtime-url.ts';
import { newOwner, type Member } from './api.ts';
import { workerPorts } from './worker.ts';

const tooLarge = JSON.stringify({ message: 'Request Entity Too Large' });

interface Outcome {
  status?: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Body bytes the client had handed to its socket when the answer or the close came. */
  written: number;
}

/**
 * Posts `total` bytes to `path` (declared with a Content-Length, or chunked), 64 KB at a time as the
 * socket takes them; with `headersOnly`, sends the headers and waits for the answer before writing
 * any body. Settles once the answer is read or the connection is gone.
 */
function post(path: string, total: number, { declared, headersOnly = false }: { declared: boolean; headersOnly?: boolean }): Promise<Outcome> {
  const chunk = Buffer.from('a'.repeat(64 * 1024));
  return new Promise((resolve) => {
    const outcome: Outcome = { headers: {}, body: '', written: 0 };
    let done = false;
    const finish = () => {
      if (!done) resolve(outcome);
      done = true;
    };
    const req = request(`${inject('baseUrl')}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(declared ? { 'content-length': String(total) } : {}) },
    });
    req.on('response', (res) => {
      outcome.status = res.statusCode;
      outcome.headers = res.headers;
      res.setEncoding('utf8');
      res.on('data', (text: string) => (outcome.body += text));
      res.on('end', finish);
      res.on('error', finish);
    });
    req.on('error', finish);
    req.on('close', () => {
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

describe('the API’s payload limit (10 MB, as API Gateway’s)', () => {
  it('answers an 800 MB Content-Length with 413 from the headers alone, with the security headers of every answer', async () => {
    const outcome = await post('/auth/login', 800 * 1024 * 1024, { declared: true, headersOnly: true });
    expect(outcome).toMatchObject({ status: 413, body: tooLarge, written: 0 });
    expect(outcome.headers['x-content-type-options']).toBe('nosniff');
    expect(outcome.headers.connection).toBe('close');
  });

  it('stops reading a chunked body past 10 MB: 413 while the client still had most of its 800 MB to send', async () => {
    const total = 800 * 1024 * 1024;
    const outcome = await post('/auth/login', total, { declared: false });
    expect(outcome).toMatchObject({ status: 413, body: tooLarge });
    expect(outcome.written).toBeLessThan(total / 10);
  });

  it('hands a body of exactly 10 MB to the function (here the session check’s 401, not a 413)', async () => {
    for (const declared of [true, false]) {
      const outcome = await post('/contacts', maxPayloadBytes, { declared });
      expect(outcome.status, declared ? 'declared' : 'chunked').toBe(401);
      expect(JSON.parse(outcome.body)).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });
});

describe('the realtime socket’s size quotas (32 KB a frame, 128 KB a message, as API Gateway’s)', () => {
  let owner: Member;
  beforeAll(async () => {
    owner = await newOwner('Loja Quotas');
  });

  async function open(): Promise<{ socket: WebSocket; closed: Promise<number> }> {
    const socket = new WebSocket(await realtimeUrl(inject('baseUrl'), owner.token));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return { socket, closed };
  }

  it('closes with 1009 on a frame over 32 KB', async () => {
    const { socket, closed } = await open();
    socket.send('a'.repeat(maxFrameBytes + 1));
    expect(await closed).toBe(1009);
  });

  it('closes with 1009 on a message over 128 KB, and the runtime goes on answering', async () => {
    const { socket, closed } = await open();
    const text = 'b'.repeat(maxMessageBytes + 1);
    for (let at = 0; at < text.length; at += maxFrameBytes) socket.send(text.slice(at, at + maxFrameBytes), { fin: at + maxFrameBytes >= text.length });
    expect(await closed).toBe(1009);
    expect((await fetch(`${inject('baseUrl')}/api/auth/me`)).status).toBe(401);
    const again = await open();
    again.socket.close();
    await again.closed;
  });
});

describe('the S3 stand-in', () => {
  const bucketUrl = () => `${inject('s3Url').replace(/\/$/, '')}/${inject('bucketName')}`;
  const key = `accounts/01EXPOSURE/files/${Date.now()}/nota.pdf`;

  beforeAll(async () => {
    await workerPorts().storage.put(key, Buffer.from('%PDF-1.7 nota'), 'application/pdf');
  });

  it('lists nothing without a signature: the service, the bucket and a prefix answer 403 AccessDenied', async () => {
    for (const url of [`${inject('s3Url').replace(/\/$/, '')}/`, bucketUrl(), `${bucketUrl()}?list-type=2&prefix=accounts/`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(403);
      const text = await res.text();
      expect(text, url).toContain('<Code>AccessDenied</Code>');
      expect(text, url).not.toContain('01EXPOSURE');
    }
  });

  it('serves an object only through a signed link, and takes no unsigned write', async () => {
    const { storage } = workerPorts();
    expect((await fetch(`${bucketUrl()}/${key}`)).status).toBe(403);
    const link = await fetch(await storage.downloadUrl(key, 'nota.pdf', 'application/pdf'));
    expect(link.status).toBe(200);
    expect(await link.text()).toBe('%PDF-1.7 nota');
    const put = await fetch(`${bucketUrl()}/${key}`, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: '<script></script>' });
    expect(put.status).toBe(403);
    expect(Buffer.from(await storage.get(key)).toString()).toBe('%PDF-1.7 nota');
  });
});
