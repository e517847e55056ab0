/**
 * The peer of the HTTP channel double (./http-double-channel.ts): records what the
 * product sends and answers as a channel would, following a script the tests set over HTTP.
 *   POST /send            the product sends a message
 *   GET  /sent            what was sent so far
 *   POST /script          the next answers: [{ ok: true } | { reason, retryAfterSeconds?, permanent? }]
 *   POST /reset
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type Scripted = { ok: true } | { reason: string; retryAfterSeconds?: number; permanent?: boolean };

export async function startFakeChannel(): Promise<{ url: string; close(): Promise<void> }> {
  let sent: unknown[] = [];
  let script: Scripted[] = [];
  let counter = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const reply = (status: number, data: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(data));
    };
    if (req.method === 'POST' && req.url === '/send') {
      const next = script.shift() ?? { ok: true };
      sent.push({ ...body, answered: next, at: Date.now() });
      if ('ok' in next) return reply(200, { channelMessageId: `fake-${++counter}` });
      return reply(next.retryAfterSeconds ? 429 : 400, next);
    }
    if (req.method === 'GET' && req.url === '/sent') return reply(200, sent);
    if (req.method === 'POST' && req.url === '/script') {
      script = body;
      return reply(200, {});
    }
    if (req.method === 'POST' && req.url === '/reset') {
      sent = [];
      script = [];
      return reply(200, {});
    }
    reply(404, {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
