/**
 * The session's lifecycle, driven by a socket double that emits Baileys' own event shapes: QR,
 * open, transient and restart closes, logged out, unread QR codes, inbound events and stop; and the
 * adapter's lifecycle (start, logout).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DisconnectReason, proto, type WAMessage, type WAVersion } from 'baileys';
import { whatsappStopReasons } from '#contracts/services.ts';
import type { Ports } from '#domain/ports.ts';
import {
  builtInVersion,
  closeError,
  doublesOn,
  failureError,
  memoryAuth,
  memoryLedger,
  sessionContext,
  type ServerDouble,
  type SocketDouble,
} from '../../tests/support/whatsapp-double.ts';
import { whatsappLifecycle } from './lifecycle.ts';
import { liveConnections } from './live.ts';
import { sendThrough } from './send.ts';
import { whatsappChannel } from './adapter.ts';
import type { VersionSource } from './version.ts';
import { defaultGapOptions, HistoryBudget } from './gaps.ts';
import {
  defaultSessionOptions,
  loggedOutText,
  pairingCodeExpiredText,
  pairingCodeFailedText,
  qrExpiredText,
  reconnectingText,
  WhatsAppSession,
  type SessionOptions,
} from './session.ts';

const customer = '5511912345678@s.whatsapp.net';
const sessions: WhatsAppSession[] = [];

/** WhatsApp's side: what its server decides at each handshake, and whether the number was paired before. */
interface World {
  server?: ServerDouble;
  paired?: boolean;
}

function harness(overrides: Partial<SessionOptions> = {}, ledger = memoryLedger(), run: { serviceId?: string; pairingPhone?: string } = {}, world: World = {}) {
  const sockets: SocketDouble[] = [];
  const auth = memoryAuth();
  if (world.paired) Object.assign(auth.state.creds, pairedCreds());
  const live = liveConnections();
  const server = world.server ?? {};
  const disconnects: string[] = [];
  const options: SessionOptions = {
    ...defaultSessionOptions,
    live,
    socketFactory: doublesOn(server, sockets),
    events: { disconnected: (kind) => void disconnects.push(kind) },
    loadAuth: async () => auth,
    backoff: { firstMs: 10, maxMs: 40 },
    ledger: () => ledger,
    ...overrides,
  };
  const { context, calls, report, missing } = sessionContext(run);
  const session = new WhatsAppSession(context, options);
  sessions.push(session);
  session.start();
  const socket = async (n: number) => {
    await until(() => sockets.length > n);
    return sockets[n]!;
  };
  const open = async (s: SocketDouble) => {
    s.user = { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' };
    s.emit('connection.update', { connection: 'open' });
    await until(() => report.said.includes('connected'));
  };
  return { session, sockets, socket, open, auth, context, calls, report, ledger, missing, live, server, disconnects };
}

/** The creds of a device paired earlier (Baileys' pair-success gives `me` and `account`). */
const pairedCreds = () => ({
  registered: true,
  me: { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' },
  account: proto.ADVSignedDeviceIdentity.fromObject({ details: new Uint8Array([1]) }),
});

/** A session whose first socket has opened. */
async function connected(overrides: Partial<SessionOptions> = {}, ledger = memoryLedger(), run: { serviceId?: string; pairingPhone?: string } = {}) {
  const h = harness(overrides, ledger, run);
  const socket = await h.socket(0);
  await h.open(socket);
  return { ...h, first: socket };
}

// The session's backoff, timeouts and liveness checks run on a fake clock: a test moves it past the
// longest wait it is about ("opening nothing more" = nothing within a whole backoff) instead of sleeping.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});

/** Moves the fake clock on by `ms`, running what falls due. */
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/**
 * Waits for `check`, moving the fake clock 5 ms at a time and letting real I/O (the QR's PNG
 * encoding) run between steps; fails after `ms` of real time.
 */
async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error('condition not met in time');
    await pass(5);
    await new Promise((r) => setImmediate(r));
  }
}

/** Awaits `work` while the fake clock runs, for work that waits on the session's timers. */
async function withClock<T>(work: Promise<T>): Promise<T> {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  await until(() => settled);
  return done;
}

afterEach(async () => {
  await withClock(Promise.all(sessions.splice(0).map((s) => s.stop())));
  vi.useRealTimers();
});

describe('a WhatsApp session', () => {
  it('shows each QR as a PNG data URL, then reports connected when the socket opens', async () => {
    const h = harness();
    const first = await h.socket(0);
    first.emit('connection.update', { qr: '2@AbCdEf,ghIjKl,mnOpQr' });
    await until(() => h.report.said.length === 1);
    expect(h.report.said[0]).toMatch(/^pairing data:image\/png;base64,[A-Za-z0-9+/=]{100,}$/);
    first.emit('connection.update', { qr: '2@second,qr,code' });
    await until(() => h.report.said.length === 2);
    expect(h.report.said[1]).not.toBe(h.report.said[0]);

    await h.open(first);
    expect(h.report.said).toHaveLength(3);
    expect(h.live.get(h.context.run.serviceId)?.socket).toBe(first);
  });

  it('saves the creds whenever Baileys changes them', async () => {
    const h = harness();
    const socket = await h.socket(0);
    socket.emit('creds.update', { registered: true });
    socket.emit('creds.update', { me: { id: '5511900000000:7@s.whatsapp.net' } });
    await until(() => h.auth.saves === 2);
  });

  it('after a transient close shows the connection reconnecting (once) and opens a new socket once the backoff has passed, doubling the wait', async () => {
    const { first, ...h } = await connected({ backoff: { firstMs: 30, maxMs: 1000 } });
    const closedAt = Date.now();
    first.close(closeError(DisconnectReason.connectionLost, 'Connection Lost'));
    expect(h.live.get(h.context.run.serviceId)).toBeUndefined();
    const second = await h.socket(1);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(25);

    const again = Date.now();
    second.close(closeError(DisconnectReason.timedOut, 'Timed Out'));
    const third = await h.socket(2);
    expect(Date.now() - again).toBeGreaterThanOrEqual(55);
    expect(h.report.said).toEqual(['connected', `reconnecting ${reconnectingText}`]);
    expect(reconnectingText).toBe('Reconectando ao WhatsApp…');
    expect(h.auth.clears).toBe(0);

    // Back: connected again; the next outage is reported again.
    third.emit('connection.update', { connection: 'open' });
    await until(() => h.report.said.length === 3);
    third.close(closeError(DisconnectReason.connectionClosed, 'Connection Closed'));
    await until(() => h.report.said.length === 4);
    expect(h.report.said.slice(2)).toEqual(['connected', `reconnecting ${reconnectingText}`]);
  });

  it('reconnects at once when WhatsApp asks for a restart right after the QR is read', async () => {
    const h = harness({ backoff: { firstMs: 5000, maxMs: 5000 } });
    const first = await h.socket(0);
    first.emit('connection.update', { qr: 'qr-1' });
    await until(() => h.report.said.length === 1);
    first.close(closeError(DisconnectReason.restartRequired, 'Stream Errored (restart required)'));
    await h.open(await h.socket(1));
  });

  it('when logged out on the phone, clears the auth state and stops with the pt-BR reason, opening nothing more', async () => {
    const { first: socket, ...h } = await connected();
    socket.close(closeError(DisconnectReason.loggedOut, 'Connection Failure'));
    await until(() => h.report.said.length === 2);
    expect(h.report.said[1]).toBe(`stopped ${loggedOutText}`);
    expect(loggedOutText).toBe('O WhatsApp encerrou a sessão deste aparelho. Inicie a conexão e leia o código QR de novo.');
    expect(h.auth.clears).toBe(1);
    await pass(50);
    expect(h.sockets).toHaveLength(1);
  });

  it('stops with a reason after several sockets showed QR codes nobody read', async () => {
    const h = harness({ maxUnreadQrRounds: 2 });
    for (const n of [0, 1]) {
      const socket = await h.socket(n);
      socket.emit('connection.update', { qr: `qr-${n}` });
      await until(() => h.report.said.length === n + 1);
      socket.close(closeError(DisconnectReason.timedOut, 'QR refs attempts ended'));
    }
    await until(() => h.report.said.length === 3);
    expect(h.report.said[2]).toBe(`stopped ${qrExpiredText}`);
    await pass(50);
    expect(h.sockets).toHaveLength(2);
  });

  it('hands upserted messages, status updates and receipts to the sink in arrival order', async () => {
    const { first: socket, ...h } = await connected();
    const message = (id: string, text: string) =>
      proto.WebMessageInfo.fromObject({
        key: { remoteJid: customer, fromMe: false, id },
        messageTimestamp: 1_767_225_600,
        pushName: 'Maria',
        message: { conversation: text },
      }) as WAMessage;
    socket.emit('messages.upsert', { type: 'notify', messages: [message('IN1', 'Oi'), message('IN2', 'Tudo bem?')] });
    socket.emit('messages.upsert', { type: 'append', messages: [message('IN3', 'Enquanto estava fora')] });
    socket.emit('messages.update', [{ key: { remoteJid: customer, fromMe: true, id: 'OUT1' }, update: { status: proto.WebMessageInfo.Status.READ } }]);
    socket.emit('message-receipt.update', [
      { key: { remoteJid: '120363025246125888@g.us', fromMe: true, id: 'OUT2' }, receipt: { userJid: customer, receiptTimestamp: 1 } },
    ]);
    await until(() => h.calls.length === 5);
    expect(h.calls.map((c) => [c.kind, 'text' in c.input ? c.input.text : 'alias' in c.input ? c.input.alias : c.input.channelMessageId])).toEqual([
      ['message', 'Oi'],
      ['message', 'Tudo bem?'],
      ['message', 'Enquanto estava fora'],
      ['ack', 'OUT1'],
      ['ack', 'OUT2'],
    ]);
    // A reply to a message just received quotes the message itself.
    await sendThrough(h.live)(h.context.run, { messageId: 'M1', to: customer, type: 'text', text: 'Olá, Maria', file: null, replyTo: 'IN1' });
    expect(socket.sent[0]!.options?.quoted?.message?.conversation).toBe('Oi');
  });

  it('a person’s @lid id is resolved through Baileys’ LID store, and a link learnt later reaches the sink as an alias, in order', async () => {
    const { first: socket, ...h } = await connected();
    const lid = '123456789012345@lid';
    Object.assign(socket, { signalRepository: { lidMapping: { getPNForLID: async (id: string) => (id === lid ? '5511912345678:0@s.whatsapp.net' : null) } } });
    socket.emit('messages.upsert', {
      type: 'notify',
      messages: [
        proto.WebMessageInfo.fromObject({
          key: { remoteJid: lid, fromMe: false, id: 'LID1' },
          messageTimestamp: 1_767_225_600,
          message: { conversation: 'Oi' },
        }) as WAMessage,
      ],
    });
    socket.emit('lid-mapping.update', { lid: '999888777666555@lid', pn: '5521987654321@s.whatsapp.net' });
    await until(() => h.calls.length === 2);
    expect(h.calls[0]).toMatchObject({ kind: 'message', input: { chat: { idFromService: customer, aliases: [lid] } } });
    expect(h.calls[1]).toEqual({
      kind: 'alias',
      input: { idFromService: '5521987654321@s.whatsapp.net', alias: '999888777666555@lid', phoneNumber: '5521987654321' },
    });
  });

  it('a socket replaced by a newer one changes nothing with its late events', async () => {
    const h = harness();
    const first = await h.socket(0);
    first.close(closeError(DisconnectReason.connectionLost));
    const second = await h.socket(1);
    first.emit('connection.update', { connection: 'open' });
    first.emit('messages.upsert', {
      type: 'notify',
      messages: [proto.WebMessageInfo.fromObject({ key: { remoteJid: customer, id: 'LATE' }, message: { conversation: 'x' } }) as WAMessage],
    });
    await pass(30);
    expect(h.report.said).toEqual([`reconnecting ${reconnectingText}`]);
    expect(h.calls).toEqual([]);
    await h.open(second);
  });

  it('stop ends the socket without logging out, and no new socket follows', async () => {
    const { first: socket, ...h } = await connected();
    await h.session.stop();
    expect(socket.ended).toEqual([undefined]);
    expect(socket.logouts).toBe(0);
    expect(h.live.get(h.context.run.serviceId)).toBeUndefined();
    await pass(50);
    expect(h.sockets).toHaveLength(1);
    expect(h.report.said).toEqual(['connected']);
    expect(h.auth.clears).toBe(0);
  });

  it('retries calmly while the auth state cannot be read', async () => {
    let tries = 0;
    const auth = memoryAuth();
    const h = harness({ loadAuth: async () => (++tries < 3 ? Promise.reject(new Error('table unreachable')) : auth) });
    await h.socket(0);
    expect(tries).toBe(3);
  });
});

describe('the WhatsApp adapter lifecycle', () => {
  /** A table that answers queries with nothing and accepts deletes (the logout's clean-up). */
  const emptyTable = () => {
    const commands: string[] = [];
    const ports = {
      table: {
        name: 't',
        doc: {
          send: async (c: { constructor: { name: string } }) => {
            commands.push(c.constructor.name);
            return { Items: [] };
          },
        },
      },
    } as unknown as Ports;
    return { ports, commands };
  };

  it('start answers starting: the worker session reports the rest', async () => {
    const { ports } = emptyTable();
    expect(await whatsappLifecycle.start(ports, { accountId: 'A', serviceId: 'S', type: 'whatsapp', token: null, runId: 'R' })).toBe('starting');
  });

  it('wants a session for every connection that should run and has a run', () => {
    const holding = whatsappChannel.sessions!;
    expect(holding.wants({ status: 'starting', runId: 'R1', tokenSealed: null })).toBe(true);
    expect(holding.wants({ status: 'connected', runId: null, tokenSealed: null })).toBe(false);
  });

  it('logout is queued for the worker that holds the session, as a logout command', async () => {
    const queued: unknown[] = [];
    const ports = { workerQueue: { enqueue: async (commands: unknown[]) => void queued.push(...commands) }, newId: () => 'REQ1' } as unknown as Ports;
    await whatsappLifecycle.stop(ports, { accountId: 'A', serviceId: 'S', type: 'whatsapp', token: null }, { logout: true });
    expect(queued).toEqual([{ kind: 'logout', accountId: 'A', serviceId: 'S', channelType: 'whatsapp', requestId: 'REQ1' }]);
  });

  it("the session's logout unpairs through the live socket, quietly, ends the session and removes the auth state", async () => {
    const { first: socket, ...h } = await connected();
    await h.session.logout();
    expect(socket.logouts).toBe(1);
    expect(h.auth.clears).toBeGreaterThanOrEqual(1);
    expect(h.live.get(h.context.run.serviceId)).toBeUndefined();
    await pass(50);
    expect(h.report.said).toEqual(['connected']);
    expect(h.sockets).toHaveLength(1);
  });

  it("the session's logout with WhatsApp not answering gives up after its timeout and still removes the auth state", async () => {
    const { first: socket, ...h } = await connected({ logoutTimeoutMs: 30 });
    socket.logout = async () => new Promise<void>(() => undefined);
    await withClock(h.session.logout());
    expect(h.auth.clears).toBe(1);
    expect(socket.ended).toHaveLength(1);
    expect(h.sockets).toHaveLength(1);
  });

  it('a plain stop leaves the socket and the auth state to the session', async () => {
    const { first: socket, ...h } = await connected();
    const { ports, commands } = emptyTable();
    await whatsappLifecycle.stop(ports, h.context.run, { logout: false });
    expect(socket.logouts).toBe(0);
    expect(commands).toEqual([]);
    expect(h.live.get(h.context.run.serviceId)?.socket).toBe(socket);
  });
});

const inbound = (id: string, text: string) =>
  proto.WebMessageInfo.fromObject({
    key: { remoteJid: customer, fromMe: false, id },
    messageTimestamp: 1_767_225_600,
    pushName: 'Maria',
    message: { conversation: text },
  }) as WAMessage;
const texts = (calls: { kind: string; input: object }[]) => calls.map((c) => ('text' in c.input ? c.input.text : c.kind));

describe('a WhatsApp session that says open but is dead', () => {
  const fast = { liveness: { keepAliveIntervalMs: 30_000, checkEveryMs: 20, silentMs: 60, probeTimeoutMs: 40 } };

  it('pings a silent socket, ends it when the ping gets no answer, reopens it with the backoff and reports connected again', async () => {
    const { first, ...h } = await connected(fast);
    const openedAt = Date.now();
    first.answering = false;
    await until(() => first.ended.length === 1, 1000);
    // Found within silentMs + checkEveryMs + probeTimeoutMs (120 ms here), give or take the timers.
    expect(Date.now() - openedAt).toBeLessThan(600);
    expect(first.queries[0]).toMatchObject({ tag: 'iq', attrs: { type: 'get', xmlns: 'w:p' }, content: [{ tag: 'ping' }] });
    expect((first.ended[0] as Error & { output: { statusCode: number } }).output.statusCode).toBe(DisconnectReason.connectionLost);
    expect(h.live.get(h.context.run.serviceId)).toBeUndefined();

    const second = await h.socket(1);
    // Meanwhile the connection shows it is reconnecting ('Iniciando...' with the reason).
    await until(() => h.report.said.length === 2);
    expect(h.report.said).toEqual(['connected', `reconnecting ${reconnectingText}`]);
    second.emit('connection.update', { connection: 'open' });
    await until(() => h.report.said.length === 3);
    expect(h.report.said).toEqual(['connected', `reconnecting ${reconnectingText}`, 'connected']);
    expect(h.live.get(h.context.run.serviceId)?.socket).toBe(second);
    expect(h.auth.clears).toBe(0);
  });

  it('keeps a silent socket that answers the ping', async () => {
    const { first, ...h } = await connected(fast);
    await until(() => first.queries.length >= 3, 1000);
    expect(first.ended).toEqual([]);
    expect(h.sockets).toHaveLength(1);
  });

  it('never pings a socket that keeps receiving events, and never ends it', async () => {
    // Events every 20 ms for 300 ms, well inside a silence of 150 ms even on a busy machine.
    const { first, ...h } = await connected({ liveness: { ...fast.liveness, silentMs: 150 } });
    first.answering = false;
    for (let n = 0; n < 15; n++) {
      first.emit('messages.upsert', { type: 'notify', messages: [inbound(`LIVE${n}`, `msg ${n}`)] });
      await pass(20);
    }
    expect(first.queries).toEqual([]);
    expect(first.ended).toEqual([]);
    expect(h.sockets).toHaveLength(1);
    expect(h.calls).toHaveLength(15);
  });

  it('stops looking once the session stops', async () => {
    const { first, ...h } = await connected(fast);
    await h.session.stop();
    const queries = first.queries.length;
    await pass(150);
    expect(first.queries).toHaveLength(queries);
  });
});

describe('the ledger of raw inbound messages', () => {
  it('writes each upserted message before the sink sees it and forgets it once the sink took it', async () => {
    const ledger = memoryLedger();
    let heldWhenHanded = false;
    const { first, ...h } = await connected({}, ledger);
    const message = h.context.inbound.message;
    h.context.inbound.message = async (input) => {
      heldWhenHanded = ledger.records.size === 1;
      return message(input);
    };
    first.emit('messages.upsert', { type: 'notify', messages: [inbound('IN1', 'Oi')] });
    await until(() => h.calls.length === 1);
    expect(heldWhenHanded).toBe(true);
    await until(() => ledger.records.size === 0);
  });

  it('hands over on the next open, in arrival order, what the sink failed to take, and nothing it took', async () => {
    const ledger = memoryLedger();
    const { first, ...h } = await connected({}, ledger);
    const message = h.context.inbound.message;
    // The process "crashes" between the ledger and the sink for the second message only.
    h.context.inbound.message = async (input) => {
      if (input.channelMessageId === 'IN2') throw new Error('crash');
      return message(input);
    };
    first.emit('messages.upsert', { type: 'notify', messages: [inbound('IN1', 'Oi'), inbound('IN2', 'Tudo bem?'), inbound('IN3', 'Alô')] });
    await until(() => h.calls.length === 2);
    await until(() => ledger.records.size === 1);
    expect([...ledger.records.keys()]).toEqual([`${h.context.run.serviceId}#IN2`]);
    h.context.inbound.message = message;

    // A new session of the same connection (a restart), live events right after the open.
    await h.session.stop();
    const again = harness({}, ledger, { serviceId: h.context.run.serviceId });
    const socket = await again.socket(0);
    socket.user = { id: '5511900000000:7@s.whatsapp.net' };
    socket.emit('connection.update', { connection: 'open' });
    socket.emit('messages.upsert', { type: 'notify', messages: [inbound('IN4', 'Depois')] });
    await until(() => again.calls.length === 2);
    expect(texts(again.calls)).toEqual(['Tudo bem?', 'Depois']);
    await until(() => ledger.records.size === 0);

    // Nothing is left to hand over at the following open.
    socket.close(closeError(DisconnectReason.connectionLost));
    const third = await again.socket(1);
    third.emit('connection.update', { connection: 'open' });
    await until(() => again.report.said.length === 3);
    await pass(30);
    expect(texts(again.calls)).toEqual(['Tudo bem?', 'Depois']);
  });

  it('hands over raw messages written by an earlier process, with their Buffers and protobuf times', async () => {
    const ledger = memoryLedger();
    const serviceId = 'SVC-LEDGER';
    const raw = proto.WebMessageInfo.fromObject({
      key: { remoteJid: customer, fromMe: false, id: 'OLD1' },
      messageTimestamp: 1_767_225_600,
      pushName: 'Maria',
      message: { imageMessage: { caption: 'foto', mimetype: 'image/jpeg', mediaKey: new Uint8Array([1, 2, 3]), fileLength: 3 } },
    }) as WAMessage;
    await ledger.put({ accountId: 'ACC1', serviceId }, raw);
    await ledger.put({ accountId: 'ACC1', serviceId }, inbound('OLD2', 'texto'));
    const h = await connected({}, ledger, { serviceId });
    // The image is stored first; its file comes apart (here: none to download, so the attachment says it is unavailable).
    await until(() => h.calls.length === 3);
    const messages = h.calls.filter((c) => c.kind === 'message');
    expect(texts(messages)).toEqual(['foto', 'texto']);
    expect(messages[0]!.input).toMatchObject({ channelMessageId: 'OLD1', type: 'image', timestamp: '2026-01-01T00:00:00.999Z' });
    expect(h.calls.find((c) => c.kind === 'attach')).toMatchObject({ input: { channelMessageId: 'OLD1', text: 'foto' }, loaded: null });
    await until(() => ledger.records.size === 0);
  });
});

describe('pairing by phone number code', () => {
  it('asks WhatsApp for a code for the run’s phone at the socket’s first QR and shows it instead of the QR, once per socket', async () => {
    const h = harness({}, memoryLedger(), { pairingPhone: '5511912345678' });
    const first = await h.socket(0);
    first.emit('connection.update', { qr: '2@qr-1' });
    await until(() => h.report.said.length === 1);
    expect(first.pairingCodeAsks).toEqual(['5511912345678']);
    expect(h.report.said).toEqual(['pairingCode ABCD1234']);

    // WhatsApp rotates the QR refs; the code typed on the phone stays the same.
    first.emit('connection.update', { qr: '2@qr-2' });
    await pass(30);
    expect(first.pairingCodeAsks).toHaveLength(1);
    expect(h.report.said).toHaveLength(1);

    // The code was typed on the phone: WhatsApp pairs, asks for a restart, and the new socket opens.
    expect(first.typePairingCode('ABCD1234')).toBe(true);
    await h.open(await h.socket(1));
    expect(h.report.said).toEqual(['pairingCode ABCD1234', 'connected']);
  });

  it('stops with a pt-BR reason when WhatsApp gives no code for the number', async () => {
    const h = harness({}, memoryLedger(), { pairingPhone: '5511912345678' });
    const first = await h.socket(0);
    first.pairingCodeError = new Error('bad-request');
    first.emit('connection.update', { qr: '2@qr-1' });
    await until(() => h.report.said.length === 1);
    expect(h.report.said).toEqual([`stopped ${pairingCodeFailedText}`]);
    expect(first.ended).toEqual([undefined]);
    await pass(50);
    expect(h.sockets).toHaveLength(1);
  });

  it('stops with the code’s own reason after several sockets showed codes nobody typed', async () => {
    const h = harness({ maxUnreadQrRounds: 2 }, memoryLedger(), { pairingPhone: '5511912345678' });
    for (const n of [0, 1]) {
      const socket = await h.socket(n);
      socket.emit('connection.update', { qr: `qr-${n}` });
      await until(() => h.report.said.length === n + 1);
      socket.close(closeError(DisconnectReason.timedOut, 'QR refs attempts ended'));
    }
    await until(() => h.report.said.length === 3);
    expect(h.report.said).toEqual(['pairingCode ABCD1234', 'pairingCode ABCD1234', `stopped ${pairingCodeExpiredText}`]);
  });
});

describe('acks that arrive before their message is stored', () => {
  const fast = { earlyAcks: { keepMs: 500, firstRetryMs: 20, max: 100 } };
  const delivered = (id: string) => [{ key: { remoteJid: customer, fromMe: true, id }, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } }];
  const acksOf = (calls: { kind: string; input: object }[], id: string) =>
    calls.filter((c) => c.kind === 'ack' && 'channelMessageId' in c.input && c.input.channelMessageId === id);

  it('keeps an ack whose message is not stored yet and applies it once the send’s own write lands', async () => {
    const h = await connected(fast);
    h.missing.add('OUT1');
    h.first.emit('messages.update', delivered('OUT1'));
    await until(() => acksOf(h.calls, 'OUT1').length === 1);
    await pass(30);
    h.missing.delete('OUT1');
    const tries = acksOf(h.calls, 'OUT1').length;
    await until(() => acksOf(h.calls, 'OUT1').length === tries + 1, 1000);
    // Applied: not tried again.
    await pass(150);
    expect(acksOf(h.calls, 'OUT1')).toHaveLength(tries + 1);
  });

  it('applies a kept ack at once when the session hands over the message itself (sent from the phone)', async () => {
    const h = await connected({ earlyAcks: { keepMs: 60_000, firstRetryMs: 10_000, max: 100 } });
    h.missing.add('PH1');
    h.first.emit('messages.update', delivered('PH1'));
    await until(() => acksOf(h.calls, 'PH1').length === 1);
    const message = h.context.inbound.message;
    h.context.inbound.message = async (input) => {
      h.missing.delete(input.channelMessageId);
      return message(input);
    };
    h.first.emit('messages.upsert', {
      type: 'notify',
      messages: [
        proto.WebMessageInfo.fromObject({
          key: { remoteJid: customer, fromMe: true, id: 'PH1' },
          messageTimestamp: 1_767_225_600,
          message: { conversation: 'Pelo celular' },
        }) as WAMessage,
      ],
    });
    await until(() => acksOf(h.calls, 'PH1').length === 2);
    expect(h.calls.map((c) => c.kind)).toEqual(['ack', 'message', 'ack']);
    expect(acksOf(h.calls, 'PH1')[1]!.input).toEqual({ channelMessageId: 'PH1', ack: 2 });
  });

  it('gives an ack up after a while when its message never appears', async () => {
    const h = await connected({ earlyAcks: { keepMs: 100, firstRetryMs: 20, max: 100 } });
    h.missing.add('GONE');
    h.first.emit('messages.update', delivered('GONE'));
    await pass(300);
    const tries = acksOf(h.calls, 'GONE').length;
    expect(tries).toBeGreaterThan(1);
    expect(tries).toBeLessThan(6);
    await pass(150);
    expect(acksOf(h.calls, 'GONE')).toHaveLength(tries);
  });
});

describe('gaps after an outage', () => {
  const other = '5511977776666@s.whatsapp.net';
  const third = '5511955554444@s.whatsapp.net';
  const now = () => Math.floor(Date.now() / 1000);
  const message = (jid: string, id: string, seconds: number, text: string, fromMe = false) =>
    proto.WebMessageInfo.fromObject({
      key: { remoteJid: jid, fromMe, id },
      messageTimestamp: seconds,
      pushName: 'Maria',
      message: { conversation: text },
    }) as WAMessage;
  const onDemand = (messages: WAMessage[], syncType = proto.HistorySync.HistorySyncType.ON_DEMAND) => ({
    chats: [],
    contacts: [],
    messages,
    syncType,
    peerDataRequestSessionId: 'PDO1',
  });

  it('asks for the recent history of each chat of the offline batch and stores only the outage’s messages it did not have', async () => {
    const h = await connected({ gaps: { ...defaultGapOptions, batchQuietMs: 20 } });
    h.first.emit('messages.upsert', { type: 'notify', messages: [message(customer, 'BEFORE', now() - 5, 'Antes da queda')] });
    await until(() => h.calls.length === 1);
    h.first.close(closeError(DisconnectReason.connectionLost, 'Connection Lost'));
    const second = await h.socket(1);
    second.emit('connection.update', { connection: 'open' });

    // The offline delivery: two messages of one chat ('append' and 'notify'), one of another.
    const t = now();
    second.emit('messages.upsert', { type: 'append', messages: [message(customer, 'OFF1', t - 2, 'Está aí?')] });
    second.emit('messages.upsert', { type: 'notify', messages: [message(customer, 'OFF2', t - 1, 'Alô?'), message(other, 'OFF3', t - 1, 'Oi')] });
    second.emit('connection.update', { receivedPendingNotifications: true });
    await until(() => second.historyAsks.length === 2);
    expect(second.historyAsks).toEqual([
      { count: 50, key: expect.objectContaining({ remoteJid: customer, id: 'OFF1' }), timestampMs: (t - 2) * 1000 },
      { count: 50, key: expect.objectContaining({ remoteJid: other, id: 'OFF3' }), timestampMs: (t - 1) * 1000 },
    ]);

    // The phone answers: one message offline delivery missed, plus what the inbox already has and older history.
    second.emit(
      'messaging-history.set',
      onDemand([
        message(customer, 'OLD', t - 3 * 3600, 'Mensagem de outro dia'),
        message(customer, 'BEFORE', t - 5, 'Antes da queda'),
        message(customer, 'MISSED', t - 3, 'Preciso de ajuda', false),
        message(customer, 'OFF1', t - 2, 'Está aí?'),
      ]),
    );
    // Other history syncs are not ours (the socket asks for none).
    second.emit('messaging-history.set', onDemand([message(customer, 'RECENT', t - 4, 'x')], proto.HistorySync.HistorySyncType.RECENT));
    await until(() => texts(h.calls).includes('Preciso de ajuda'));
    await pass(30);
    expect(texts(h.calls)).toEqual(['Antes da queda', 'Está aí?', 'Alô?', 'Oi', 'Preciso de ajuda']);
    // Asked once per reopening.
    second.emit('connection.update', { receivedPendingNotifications: true });
    await pass(20);
    expect(second.historyAsks).toHaveLength(2);
  });

  it('waits until Baileys has processed the whole offline batch: chats it hands over after its signal are asked about too', async () => {
    const h = await connected({ gaps: { ...defaultGapOptions, batchQuietMs: 40, budget: new HistoryBudget() } });
    h.first.close(closeError(DisconnectReason.connectionLost, 'Connection Lost'));
    const second = await h.socket(1);
    second.emit('connection.update', { connection: 'open' });
    const t = now();
    // Three of five offline stanzas were decrypted when WhatsApp's <ib><offline/> came; two chats come after the signal.
    await withClock(
      second.deliverOffline(
        [
          message(customer, 'OFF1', t - 9, 'Está aí?'),
          message(customer, 'OFF2', t - 8, 'Alô?'),
          message(customer, 'OFF3', t - 7, 'Oi?'),
          message(other, 'OFF4', t - 6, 'Bom dia'),
          message(third, 'OFF5', t - 5, 'Boa tarde'),
        ],
        3,
      ),
    );
    await until(() => second.historyAsks.length === 3);
    expect(second.historyAsks.map((ask) => ask.key.remoteJid)).toEqual([customer, other, third]);
    await pass(80);
    expect(second.historyAsks).toHaveLength(3);
  });

  it('asks at most so many times per number per hour, however often it reconnects', async () => {
    const h = await connected({ gaps: { ...defaultGapOptions, batchQuietMs: 10, maxRequestsPerHour: 3, budget: new HistoryBudget() } });
    const asks: number[] = [];
    let socket = h.first;
    for (const n of [1, 2, 3]) {
      socket.close(closeError(DisconnectReason.connectionLost, 'Connection Lost'));
      socket = await h.socket(n);
      socket.emit('connection.update', { connection: 'open' });
      const t = now();
      await socket.deliverOffline([message(customer, `A${n}`, t - 2, 'Oi'), message(other, `B${n}`, t - 1, 'Olá')]);
      await pass(60);
      asks.push(socket.historyAsks.length);
    }
    expect(asks).toEqual([2, 1, 0]);
  });

  it('asks for nothing after a fresh pairing', async () => {
    const h = harness();
    const first = await h.socket(0);
    first.emit('connection.update', { qr: 'qr-1' });
    await until(() => h.report.said.length === 1);
    first.close(closeError(DisconnectReason.restartRequired, 'restart required'));
    const second = await h.socket(1);
    await h.open(second);
    second.emit('messages.upsert', { type: 'notify', messages: [message(customer, 'NEW1', now(), 'Primeira')] });
    second.emit('connection.update', { receivedPendingNotifications: true });
    await until(() => h.calls.length === 1);
    expect(second.historyAsks).toEqual([]);
  });
});

describe('new contacts: profile pictures and group names', () => {
  const group = '120363025246125888@g.us';
  it('copies the chat’s picture into the bucket when asked; none set answers null; group subjects are asked once per session', async () => {
    const fetched: string[] = [];
    const h = await connected({
      pictureFetch: async (url) => {
        fetched.push(url);
        return { bytes: new Uint8Array([0xff, 0xd8, 0xff]), mimetype: 'image/jpeg' };
      },
    });
    h.first.pictures.set(customer, 'https://pps.whatsapp.net/v/t61/maria.jpg');
    h.first.emit('messages.upsert', {
      type: 'notify',
      messages: [
        inbound('P1', 'Oi'),
        proto.WebMessageInfo.fromObject({
          key: { remoteJid: group, participant: customer, id: 'G1' },
          messageTimestamp: 1_767_225_600,
          message: { conversation: 'No grupo' },
        }) as WAMessage,
        proto.WebMessageInfo.fromObject({
          key: { remoteJid: group, participant: customer, id: 'G2' },
          messageTimestamp: 1_767_225_601,
          message: { conversation: 'De novo' },
        }) as WAMessage,
      ],
    });
    await until(() => h.calls.length === 3);
    const [person, first, second] = h.calls.map((c) => (c.kind === 'message' ? c.input : null));
    expect(h.first.pictureAsks).toEqual([]);
    expect(await person!.chat.avatar?.()).toBe(`accounts/ACC1/avatars/${h.context.run.serviceId}/${customer}.jpg`);
    expect(fetched).toEqual(['https://pps.whatsapp.net/v/t61/maria.jpg']);
    expect(await first!.chat.avatar?.()).toBeNull();
    expect(h.first.pictureAsks).toEqual([customer, group]);

    expect(h.first.groupAsks).toEqual([]);
    expect(await first!.chat.lookupName?.()).toBe('Grupo da Loja');
    expect(await second!.chat.lookupName?.()).toBe('Grupo da Loja');
    expect(h.first.groupAsks).toEqual([group]);
  });
});

describe('a retired WhatsApp Web version (405)', () => {
  const newer: WAVersion = [builtInVersion[0], builtInVersion[1], builtInVersion[2] + 1000];
  const retired = { oldestVersion: newer };

  it('stops with the pt-BR reason and counts it, instead of retrying every 30 s for good, when no newer version is to be had', async () => {
    const h = harness({}, memoryLedger(), {}, { server: retired });
    await until(() => h.report.said.length === 1);
    expect(h.report.said).toEqual([`stopped ${whatsappStopReasons.clientOutdated}`]);
    expect(h.disconnects).toEqual(['clientOutdated']);
    await pass(60);
    expect(h.sockets).toHaveLength(1);
    expect(h.sockets[0]!.version).toEqual(builtInVersion);
    expect(h.auth.clears).toBe(0);
  });

  it('presents the version its source gives, and after a 405 asks the source again and pairs with the newer one', async () => {
    const asked: string[] = [];
    let latest: WAVersion = builtInVersion;
    // The source's contract: a refresh fetches again, and what it found is the current version from then on.
    const version: VersionSource = {
      current: async () => {
        asked.push('current');
        return { version: latest, origin: 'built-in' };
      },
      refresh: async () => {
        asked.push('refresh');
        latest = newer;
        return { version: latest, origin: 'fetched' };
      },
    };
    const h = harness({ version }, memoryLedger(), {}, { server: retired });
    const second = await h.socket(1);
    expect(second.version).toEqual(newer);
    second.emit('connection.update', { qr: '2@qr' });
    await until(() => h.report.said.length === 1);
    expect(h.report.said[0]).toMatch(/^pairing data:image\/png/);
    expect(asked).toEqual(['current', 'refresh', 'current']);
    expect(h.disconnects).toEqual([]);
  });
});

describe('WhatsApp ending a connection for good', () => {
  const cases: { code: number; attrs: Record<string, string>; text: string; kind: string; clears: number }[] = [
    { code: 402, attrs: { code: '101' }, text: whatsappStopReasons.tempBanned(null), kind: 'tempBanned', clears: 0 },
    { code: 403, attrs: {}, text: whatsappStopReasons.locked, kind: 'locked', clears: 1 },
    { code: 406, attrs: {}, text: whatsappStopReasons.banned, kind: 'banned', clears: 1 },
    { code: 409, attrs: {}, text: whatsappStopReasons.badUserAgent, kind: 'badUserAgent', clears: 0 },
    { code: 411, attrs: {}, text: whatsappStopReasons.multideviceMismatch, kind: 'multideviceMismatch', clears: 1 },
  ];

  it.each(cases)(
    'a $code at login stops the session with its own reason ($kind), counted, opening nothing more',
    async ({ code, attrs, text, kind, clears }) => {
      const h = harness({}, memoryLedger(), {}, { paired: true, server: { loginFailure: { reason: code, attrs } } });
      await until(() => h.report.said.length === 1);
      expect(h.report.said).toEqual([`stopped ${text}`]);
      expect(h.disconnects).toEqual([kind]);
      expect(h.auth.clears).toBe(clears);
      await pass(60);
      expect(h.sockets).toHaveLength(1);
    },
  );

  it('a temporary ban says until when, in Brasília time, when WhatsApp tells', async () => {
    const h = await connected();
    h.first.close(failureError(402, { code: '101', expire: '7200' }));
    await until(() => h.report.said.length === 2);
    const until2h = new Date(Date.now() + 7200_000);
    const [day, month] = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit' }).format(until2h).split('/');
    expect(h.report.said[1]).toContain(`O WhatsApp baniu este número temporariamente (até ${day}/${month} às `);
    expect(h.report.said[1]).toContain(', horário de Brasília). Espere o bloqueio acabar e inicie a conexão de novo.');
  });

  it('500 closes are retried a few times in a row, each counted, then the session stops with its reason', async () => {
    const h = harness({ maxBadSessionCloses: 3 });
    for (const n of [0, 1, 2]) (await h.socket(n)).close(closeError(500, 'Stream Errored (unknown)'));
    await until(() => h.report.said.includes(`stopped ${whatsappStopReasons.badSession}`));
    expect(h.disconnects).toEqual(['badSession', 'badSession', 'badSession']);
    await pass(60);
    expect(h.sockets).toHaveLength(3);
  });

  it('an open between two 500 closes starts the count again', async () => {
    const h = harness({ maxBadSessionCloses: 2 });
    (await h.socket(0)).close(closeError(500, 'Stream Errored (unknown)'));
    const second = await h.socket(1);
    await h.open(second);
    second.close(closeError(500, 'Stream Errored (unknown)'));
    await h.socket(2);
    expect(h.report.said.filter((line) => line.startsWith('stopped'))).toEqual([]);
  });
});

describe('pairing by phone number code, as WhatsApp takes it', () => {
  it('presents a browser WhatsApp accepts for codes, so the code typed on the phone pairs', async () => {
    const h = harness({}, memoryLedger(), { pairingPhone: '5511912345678' });
    const first = await h.socket(0);
    first.emit('connection.update', { qr: '2@qr-1' });
    await until(() => h.report.said.length === 1);
    expect(first.deadCodes).toEqual([]);
    expect(first.typePairingCode('ABCD1234')).toBe(true);
    await h.open(await h.socket(1));
    expect(h.report.said).toEqual(['pairingCode ABCD1234', 'connected']);
  });

  it('a code never typed leaves no half-registered device behind: the next socket asks for a new code instead of being "logged out"', async () => {
    const h = harness({}, memoryLedger(), { pairingPhone: '5511912345678' });
    const first = await h.socket(0);
    first.emit('connection.update', { qr: '2@qr-1' });
    await until(() => h.report.said.length === 1);
    first.close(closeError(DisconnectReason.timedOut, 'QR refs attempts ended'));
    const second = await h.socket(1);
    await pass(20);
    second.emit('connection.update', { qr: '2@qr-2' });
    await until(() => h.report.said.length === 2);
    expect(h.report.said).toEqual(['pairingCode ABCD1234', 'pairingCode ABCD1234']);
    expect(second.pairingCodeAsks).toEqual(['5511912345678']);
    expect(h.auth.clears).toBe(0);
    expect(second.typePairingCode('ABCD1234')).toBe(true);
    await h.open(await h.socket(2));
  });
});
