/**
 * The session's lifecycle, driven by a socket double that emits Baileys' own event shapes: QR,
 * open, transient and restart closes, logged out, unread QR codes, inbound events and stop; and the
 * adapter's lifecycle (start, logout).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DisconnectReason, proto, type WAMessage } from 'baileys';
import type { Ports } from '#domain/ports.ts';
import { closeError, memoryAuth, sessionContext, SocketDouble, until } from '../../tests/support/whatsapp-double.ts';
import { whatsappLifecycle } from './lifecycle.ts';
import { liveConnection } from './live.ts';
import { sendWhatsApp } from './send.ts';
import { whatsappChannel } from './adapter.ts';
import { defaultSessionOptions, loggedOutText, qrExpiredText, WhatsAppSession, type SessionOptions } from './session.ts';

const customer = '5511912345678@s.whatsapp.net';
const sessions: WhatsAppSession[] = [];

function harness(overrides: Partial<SessionOptions> = {}) {
  const sockets: SocketDouble[] = [];
  const auth = memoryAuth();
  const options: SessionOptions = {
    ...defaultSessionOptions,
    socketFactory: () => {
      const socket = new SocketDouble();
      sockets.push(socket);
      return socket;
    },
    loadAuth: async () => auth,
    backoff: { firstMs: 10, maxMs: 40 },
    ...overrides,
  };
  const { context, calls, report } = sessionContext();
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
  return { session, sockets, socket, open, auth, context, calls, report };
}

/** A session whose first socket has opened. */
async function connected(overrides: Partial<SessionOptions> = {}) {
  const h = harness(overrides);
  const socket = await h.socket(0);
  await h.open(socket);
  return { ...h, first: socket };
}

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.stop()));
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
    expect(liveConnection(h.context.run.serviceId)?.socket).toBe(first);
  });

  it('saves the creds whenever Baileys changes them', async () => {
    const h = harness();
    const socket = await h.socket(0);
    socket.emit('creds.update', { registered: true });
    socket.emit('creds.update', { me: { id: '5511900000000:7@s.whatsapp.net' } });
    await until(() => h.auth.saves === 2);
  });

  it('after a transient close opens a new socket once the backoff has passed, doubling the wait', async () => {
    const { first, ...h } = await connected({ backoff: { firstMs: 30, maxMs: 1000 } });
    const closedAt = Date.now();
    first.close(closeError(DisconnectReason.connectionLost, 'Connection Lost'));
    expect(liveConnection(h.context.run.serviceId)).toBeUndefined();
    const second = await h.socket(1);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(25);

    const again = Date.now();
    second.close(closeError(DisconnectReason.timedOut, 'Timed Out'));
    await h.socket(2);
    expect(Date.now() - again).toBeGreaterThanOrEqual(55);
    expect(h.report.said).toEqual(['connected']);
    expect(h.auth.clears).toBe(0);
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
    await new Promise((r) => setTimeout(r, 50));
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
    await new Promise((r) => setTimeout(r, 50));
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
    expect(h.calls.map((c) => [c.kind, 'text' in c.input ? c.input.text : c.input.channelMessageId])).toEqual([
      ['message', 'Oi'],
      ['message', 'Tudo bem?'],
      ['message', 'Enquanto estava fora'],
      ['ack', 'OUT1'],
      ['ack', 'OUT2'],
    ]);
    // A reply to a message just received quotes the message itself.
    await sendWhatsApp(h.context.run, { messageId: 'M1', to: customer, type: 'text', text: 'Olá, Maria', file: null, replyTo: 'IN1' });
    expect(socket.sent[0]!.options?.quoted?.message?.conversation).toBe('Oi');
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
    await new Promise((r) => setTimeout(r, 30));
    expect(h.report.said).toEqual([]);
    expect(h.calls).toEqual([]);
    await h.open(second);
  });

  it('stop ends the socket without logging out, and no new socket follows', async () => {
    const { first: socket, ...h } = await connected();
    await h.session.stop();
    expect(socket.ended).toEqual([undefined]);
    expect(socket.logouts).toBe(0);
    expect(liveConnection(h.context.run.serviceId)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 50));
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

  it('logout unpairs through the live socket, quietly, and removes the auth state from the table', async () => {
    const { first: socket, ...h } = await connected();
    const { ports, commands } = emptyTable();
    await whatsappLifecycle.stop(ports, h.context.run, { logout: true });
    expect(socket.logouts).toBe(1);
    await until(() => h.auth.clears === 1);
    expect(commands).toEqual(['QueryCommand', 'DeleteCommand']);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.report.said).toEqual(['connected']);
    expect(h.sockets).toHaveLength(1);
  });

  it('a plain stop leaves the socket and the auth state to the session', async () => {
    const { first: socket, ...h } = await connected();
    const { ports, commands } = emptyTable();
    await whatsappLifecycle.stop(ports, h.context.run, { logout: false });
    expect(socket.logouts).toBe(0);
    expect(commands).toEqual([]);
  });
});
