/**
 * The peer of the HTTP channel double (./http-double-channel.ts): records what the
 * product sends and answers as a channel would, following a script the tests set over HTTP.
 *   POST /send            the product sends a message
 *   GET  /sent            what was sent so far
 *   POST /script          adds answers: [{ ok: true } | { reason, retryAfterSeconds?, permanent? }], each
 *                         optionally for one connection (`serviceId`), one recipient (`to`) or one
 *                         text (`text`) only; a send takes the first answer added that targets it
 *                         (an answer without a target takes any send), else `{ ok: true }`
 *   POST /reset
 * Tests of several files share one fake, so a test scripts the sends of its own connection or
 * contact only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type Answer = { ok: true } | { reason: string; retryAfterSeconds?: number; permanent?: boolean };
type Target = { serviceId?: string; to?: string; text?: string };
type Scripted = Answer & Target;
type Send = { connection: { serviceId: string }; message: { to: string; text: string } };

const targets = (entry: Target, send: Send) =>
  (entry.serviceId === undefined || entry.serviceId === send.connection.serviceId) &&
  (entry.to === undefined || entry.to === send.message.to) &&
  (entry.text === undefined || entry.text === send.message.text);

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
      const index = script.findIndex((entry) => targets(entry, body as Send));
      const next: Scripted = index >= 0 ? script.splice(index, 1)[0]! : { ok: true };
      sent.push({ ...body, answered: next, at: Date.now() });
      if ('ok' in next) return reply(200, { channelMessageId: `fake-${++counter}` });
      return reply(next.retryAfterSeconds ? 429 : 400, next);
    }
    if (req.method === 'GET' && req.url === '/sent') return reply(200, sent);
    if (req.method === 'POST' && req.url === '/script') {
      script.push(...(body as Scripted[]));
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
