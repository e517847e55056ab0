/**
 * Sends to contacts WhatsApp moved to a LID (Baileys #2683): WhatsApp takes a send to the phone
 * number (the call succeeds) and refuses it afterwards with ack error 463, which Baileys reports as
 * `messages.update` with status ERROR and the code in `messageStubParameters`. The socket double
 * does the same (`migrateToLid`, `refusedNumbers`, `badAck`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WAMessageUpdate } from 'baileys';
import type { ChannelConnection, InboundAck, OutboundMessage } from '#domain/channels/port.ts';
import { memoryAuth, memoryLedger, sessionContext, SocketDouble, until } from '../../tests/support/whatsapp-double.ts';
import { acksOfUpdates, refusedReason } from './acks.ts';
import { liveConnections } from './live.ts';
import { sendThrough, whatsappMessageIdOf } from './send.ts';
import { defaultSessionOptions, WhatsAppSession } from './session.ts';

const customer = '19178056839@s.whatsapp.net';
const customerLid = '148373990592755@lid';
const sessions: WhatsAppSession[] = [];

async function connectedSession() {
  const sockets: SocketDouble[] = [];
  const live = liveConnections();
  const { context, calls, missing } = sessionContext();
  const session = new WhatsAppSession(context, {
    ...defaultSessionOptions,
    live,
    socketFactory: () => {
      const socket = new SocketDouble();
      sockets.push(socket);
      return socket;
    },
    loadAuth: async () => memoryAuth(),
    ledger: () => memoryLedger(),
    earlyAcks: { keepMs: 2000, firstRetryMs: 20, max: 100 },
  });
  sessions.push(session);
  session.start();
  await until(() => sockets.length > 0);
  const socket = sockets[0]!;
  socket.user = { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' };
  socket.emit('connection.update', { connection: 'open' });
  await until(() => Boolean(live.get(context.run.serviceId)));
  const connection: ChannelConnection = { accountId: context.run.accountId, serviceId: context.run.serviceId, type: 'whatsapp', token: null };
  const acks = () => calls.flatMap((c) => (c.kind === 'ack' ? [c.input as InboundAck] : []));
  return { socket, send: sendThrough(live), connection, acks, missing };
}

const outbound = (overrides: Partial<OutboundMessage> = {}): OutboundMessage => ({
  messageId: 'MSG1',
  to: customer,
  type: 'text',
  text: 'Seu pedido saiu para entrega',
  file: null,
  replyTo: null,
  ...overrides,
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.stop()));
});

describe('sends to contacts WhatsApp moved to a LID', () => {
  it('go to the LID this device already links to the number, so WhatsApp does not refuse them with 463', async () => {
    const h = await connectedSession();
    h.socket.migrateToLid(customer, customerLid);
    const sent = await h.send(h.connection, outbound({ replyTo: 'OLD1' }));
    await settle();
    expect(h.socket.sent.map((s) => s.jid)).toEqual([customerLid]);
    // A quote's stand-in names the chat the message went to.
    expect(h.socket.sent[0]!.options?.quoted?.key.remoteJid).toBe(customerLid);
    expect(sent.channelMessageId).toMatch(/^3EB0/);
    expect(h.acks().filter((a) => a.ack === -2)).toEqual([]);
  });

  it('to a number the LID store does not know go to the number, without asking WhatsApp for its LID', async () => {
    const h = await connectedSession();
    h.socket.migrateToLid('5511955554444@s.whatsapp.net', '99887766554433@lid');
    await h.send(h.connection, outbound());
    await h.send(h.connection, outbound({ to: '120363025555555555@g.us' }));
    expect(h.socket.sent.map((s) => s.jid)).toEqual([customer, '120363025555555555@g.us']);
    expect(h.socket.lidQueries).toEqual([]);
  });

  it('refused with 463 after the call succeeded are marked failed with the pt-BR reason, and nothing sends them again', async () => {
    const h = await connectedSession();
    // WhatsApp refuses the number, and this device has not learnt a LID for it.
    h.socket.refusedNumbers.add(customer);
    const sent = await h.send(h.connection, outbound());
    await until(() => h.acks().length > 0);
    expect(h.acks()).toEqual([{ channelMessageId: sent.channelMessageId, ack: -2, reason: refusedReason('463') }]);
    await settle();
    expect(h.socket.sent).toHaveLength(1);
  });

  it('a 463 that arrives before the send’s own write keeps its reason while it waits for the message', async () => {
    const h = await connectedSession();
    h.socket.refusedNumbers.add(customer);
    const id = whatsappMessageIdOf(outbound().messageId, customer);
    h.missing.add(id);
    await h.send(h.connection, outbound());
    await until(() => h.acks().length > 0);
    h.missing.clear();
    await until(() => h.acks().length > 1);
    expect(h.acks().at(-1)).toEqual({ channelMessageId: id, ack: -2, reason: refusedReason('463') });
  });
});

describe('error acks as Baileys reports them', () => {
  it('carry a pt-BR reason naming the code; 463 says what it means and not to send again at once', () => {
    const socket = new SocketDouble();
    const updates: WAMessageUpdate[] = [];
    socket.ev.on('messages.update', (u) => updates.push(...u));
    socket.badAck({ remoteJid: customer, fromMe: true, id: 'A1' }, '463');
    socket.badAck({ remoteJid: customer, fromMe: true, id: 'A2' }, '479');
    expect(acksOfUpdates(updates)).toEqual([
      { channelMessageId: 'A1', ack: -2, reason: refusedReason('463') },
      { channelMessageId: 'A2', ack: -2, reason: refusedReason('479') },
    ]);
    expect(refusedReason('463')).toMatch(/463/);
    expect(refusedReason('463')).toMatch(/Não reenvie/);
    expect(refusedReason('479')).toBe('O WhatsApp recusou esta mensagem (erro 479). Tente de novo mais tarde.');
  });
});
