/**
 * The local runtime as `npm start` runs it (the product's Telegram adapter, the worker reading its
 * queue), but with every WhatsApp socket a `SocketDouble` that a test drives from outside through a
 * small control server: loopback only, on a free port, announced on stdout before the runtime's own
 * lines (`Controle do WhatsApp de teste em http://127.0.0.1:<port>`), and gone with the process.
 * Everything past the socket is the product's code: `whatsappWorkerChannel`'s sessions and sends,
 * the table-backed auth state, the worker queue, the pacer. Test-only.
 *
 * The control server speaks JSON (see ./whatsapp-control.ts for the client):
 * - `GET /sockets/<serviceId>`: 404 until the worker opened a socket for the connection; then the
 *   latest socket's `{ sockets, user, sent: [{ jid, text, id, at }], reads }` (`at`: epoch ms with
 *   fractions, when `sendMessage` was called; `id`: the WhatsApp id the double answered).
 * - `PUT /registered` `{ jids }`: WhatsApp's directory as every socket's `onWhatsApp` answers it
 *   (`SocketDouble.registered`; `jids: null`, the default, has every number on WhatsApp as asked).
 * - `POST /sockets/<serviceId>/ring` `{ id, from, callerPn?, isVideo?, groupJid?, repeated?, rejectFails? }`: a call
 *   rings on the latest socket (`SocketDouble.ring`); the state's `rejectedCalls` lists its `rejectCall`s.
 * - `POST /sockets/<serviceId>/emit` `{ event, arg }`: the latest socket emits that Baileys event.
 *   `messages.upsert` messages become real `proto.WebMessageInfo`s; a `creds.update` is merged into
 *   the socket's creds as Baileys' socket does, and `user` follows `creds.me` as in Baileys.
 *
 * `WHATSAPP_DOUBLE_PACE_MS` sets the worker's send pace (no jitter), default 300.
 *
 * Every `sendMessage` is also appended, as it is called, to `whatsapp-double-sent.jsonl` in the
 * data folder (`{ jid, text, id }` per line, written synchronously): what reached "WhatsApp" stays
 * known after the process is killed (tests/integration/crash.test.ts).
 *
 * - `POST /sockets/<serviceId>/deliver` `{ messages, receiptAfterMs? }`: WhatsApp delivers
 *   customers' messages to the device. Baileys sends each message's receipt (the server's ack)
 *   before it upserts it (Socket/messages-recv.js, `handleMessage`: `sendReceipt` then
 *   `upsertMessage(msg, offline ? 'append' : 'notify')`), so the socket upserts them as 'notify'; the
 *   receipt reaches WhatsApp `receiptAfterMs` later (default at once). Until then WhatsApp keeps
 *   the message as unacknowledged in `whatsapp-double-unacked.json` in the data folder (WhatsApp's
 *   memory outlives the process): if the process dies first, the connection's next socket gets them
 *   again when it opens, as the server redelivers pending stanzas, in its offline batch ('append',
 *   `SocketDouble.deliverOffline`), and this time their receipts go through. The state's
 *   `redelivered` lists the ids a socket got again.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import {
  BufferJSON,
  proto,
  type AnyMessageContent,
  type AuthenticationState,
  type BaileysEventMap,
  type MiscMessageGenerationOptions,
  type WAMessage,
} from 'baileys';
import { serve } from '../../infra/local/runtime/serve.ts';
import { telegramChannel } from '#connectors/telegram/adapter.ts';
import { liveConnections } from '#connectors/whatsapp/live.ts';
import { whatsappWorkerChannel } from '#connectors/whatsapp/worker-adapter.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import type { SentToDouble } from './whatsapp-control.ts';
import { SocketDouble } from './whatsapp-double.ts';

/** WhatsApp's record of the messages it delivered whose receipt never reached it, by connection (raw, Baileys' `BufferJSON`). */
const unackedFile = () => (process.env.DATA_DIR ? join(process.env.DATA_DIR, 'whatsapp-double-unacked.json') : null);

function readUnacked(): Record<string, string[]> {
  const file = unackedFile();
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>) : {};
}

/** Changes the connection's unacknowledged messages (written synchronously: a kill right after still finds them). */
function updateUnacked(serviceId: string, change: (raws: string[]) => string[]): void {
  const file = unackedFile();
  if (!file) return;
  const all = readUnacked();
  all[serviceId] = change(all[serviceId] ?? []);
  if (!all[serviceId]!.length) delete all[serviceId];
  writeFileSync(file, JSON.stringify(all));
}

const idOfRaw = (raw: string) => (JSON.parse(raw) as { key?: { id?: string } }).key?.id;

/** The double as a Baileys socket behaves around its auth state: creds follow `creds.update`, `user` is `creds.me`. */
class ControlledSocket extends SocketDouble {
  readonly sentAt: SentToDouble[] = [];
  /** Ids of messages WhatsApp delivered again to this socket (their receipt never reached it). */
  readonly redelivered: string[] = [];

  /** `serviceId`: the connection whose device this socket is (WhatsApp redelivers to it); none for a logout's socket. */
  constructor(
    auth: AuthenticationState,
    readonly serviceId?: string,
  ) {
    super();
    this.registered = registered;
    const follow = () => {
      const me = auth.creds.me;
      this.user = me ? { id: me.id, name: me.name } : undefined;
    };
    follow();
    this.ev.on('creds.update', (update) => {
      Object.assign(auth.creds, update);
      follow();
    });
    this.ev.on('connection.update', ({ connection }) => {
      if (connection === 'open') void this.redeliver();
    });
  }

  /** WhatsApp delivers messages; their receipts reach it `receiptAfterMs` later (see the file's comment). */
  deliverFromWhatsApp(messages: WAMessage[], receiptAfterMs: number): void {
    const { serviceId } = this;
    const raws = messages.map((m) => JSON.stringify(m, BufferJSON.replacer));
    const ids = new Set(messages.map((m) => m.key.id));
    if (serviceId && receiptAfterMs > 0) {
      updateUnacked(serviceId, (kept) => [...kept, ...raws]);
      setTimeout(() => updateUnacked(serviceId, (kept) => kept.filter((raw) => !ids.has(idOfRaw(raw) ?? undefined))), receiptAfterMs).unref();
    }
    this.deliver(messages, 'notify');
  }

  /** At login WhatsApp sends again what it delivered and never got a receipt for, in its offline batch; the receipts go through this time. */
  private async redeliver(): Promise<void> {
    const { serviceId } = this;
    if (!serviceId) return;
    const raws = readUnacked()[serviceId] ?? [];
    if (!raws.length) return;
    const messages = raws.map((raw) => proto.WebMessageInfo.fromObject(JSON.parse(raw, BufferJSON.reviver)) as WAMessage);
    this.redelivered.push(...messages.map((m) => m.key.id!));
    await this.deliverOffline(messages);
    const ids = new Set(this.redelivered);
    updateUnacked(serviceId, (kept) => kept.filter((raw) => !ids.has(idOfRaw(raw) ?? '')));
  }

  override async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined> {
    const at = performance.timeOrigin + performance.now();
    const answer = await super.sendMessage(jid, content, options);
    const sent = { jid, text: 'text' in content ? content.text : null, id: answer?.key.id ?? null, at };
    // Before the adapter sees the answer: a kill after this line is a kill after WhatsApp took the message.
    if (process.env.DATA_DIR) appendFileSync(join(process.env.DATA_DIR, sentLogName), `${JSON.stringify(sent)}\n`);
    this.sentAt.push(sent);
    return answer;
  }
}

/** The file in the data folder where every send to the double is appended. */
const sentLogName = 'whatsapp-double-sent.jsonl';
const sockets = new Map<string, ControlledSocket[]>();
/** WhatsApp's directory for every socket (`SocketDouble.registered`): null, every number is on WhatsApp as asked. */
let registered: Set<string> | null = null;
const live = liveConnections();
const worker = whatsappWorkerChannel({
  live,
  // Only a logout of a connection no worker holds opens a socket here; it never opens.
  socketFactory: ({ auth }) => new ControlledSocket(auth),
});
const whatsapp: ChannelAdapter = {
  ...worker,
  sessions: {
    ...worker.sessions!,
    // Each session's sockets are kept under its connection, so the test can address them.
    open(context) {
      const { serviceId } = context.run;
      return whatsappWorkerChannel({
        live,
        socketFactory: ({ auth }) => {
          const socket = new ControlledSocket(auth, serviceId);
          sockets.set(serviceId, [...(sockets.get(serviceId) ?? []), socket]);
          return socket;
        },
      }).sessions!.open(context);
    },
  },
};

function reviveArg(event: string, arg: unknown): unknown {
  if (event !== 'messages.upsert') return arg;
  const upsert = arg as { type: string; messages: object[] };
  return { ...upsert, messages: upsert.messages.map((m) => proto.WebMessageInfo.fromObject(m)) };
}

async function control(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const answer = (status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const [, route, serviceId, action] = (req.url ?? '').split('?')[0]!.split('/');
  if (req.method === 'PUT' && route === 'registered') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { jids } = JSON.parse(Buffer.concat(chunks).toString()) as { jids: string[] | null };
    registered = jids ? new Set(jids) : null;
    for (const of of sockets.values()) for (const socket of of) socket.registered = registered;
    return answer(204);
  }
  const of = serviceId ? sockets.get(serviceId) : undefined;
  const socket = of?.[of.length - 1];
  if (route !== 'sockets' || !socket) return answer(404, { message: 'no socket for that connection (yet)' });
  if (req.method === 'GET' && !action)
    return answer(200, {
      sockets: of!.length,
      user: socket.user ?? null,
      sent: socket.sentAt,
      reads: socket.reads,
      redelivered: socket.redelivered,
      rejectedCalls: socket.rejectedCalls,
    });
  if (req.method === 'POST' && action === 'deliver') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { messages, receiptAfterMs } = JSON.parse(Buffer.concat(chunks).toString()) as { messages: object[]; receiptAfterMs?: number };
    socket.deliverFromWhatsApp(
      messages.map((m) => proto.WebMessageInfo.fromObject(m) as WAMessage),
      receiptAfterMs ?? 0,
    );
    return answer(204);
  }
  if (req.method === 'POST' && action === 'ring') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    socket.ring(JSON.parse(Buffer.concat(chunks).toString()) as Parameters<SocketDouble['ring']>[0]);
    return answer(204);
  }
  if (req.method === 'POST' && action === 'emit') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { event, arg } = JSON.parse(Buffer.concat(chunks).toString()) as { event: keyof BaileysEventMap; arg: unknown };
    socket.emit(event, reviveArg(event, arg) as never);
    return answer(204);
  }
  return answer(404, { message: 'unknown control call' });
}

const server = createServer((req, res) => {
  control(req, res).catch((error) => {
    console.error('[whatsapp-double control]', error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
// The process exits when the runtime stops (serve's signal handlers); the server keeps it up no longer than that.
server.unref();
console.log(`Controle do WhatsApp de teste em http://127.0.0.1:${(server.address() as AddressInfo).port}`);

const paceMs = Number(process.env.WHATSAPP_DOUBLE_PACE_MS ?? 300);
await serve({ channels: [telegramChannel, whatsapp], worker: { pace: { intervalMs: paceMs, jitterMs: 0 } } });
