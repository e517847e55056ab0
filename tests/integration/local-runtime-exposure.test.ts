import { beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { maxPayloadBytes } from '../../infra/local/emulators/http-gateway.ts';
import { maxFrameBytes, maxMessageBytes } from '../../infra/local/emulators/ws-frame-limit.ts';
import { postLarge } from '../support/large-post.ts';
import { realtimeUrl } from '../support/realtime-url.ts';
import { newOwner, type Member } from './api.ts';
import { workerPorts } from './worker.ts';

const tooLarge = JSON.stringify({ message: 'Request Entity Too Large' });

const post = (path: string, total: number, options: { declared: boolean; headersOnly?: boolean }) =>
  postLarge(`${inject('baseUrl')}/api${path}`, total, options);

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
