/**
 * Numbers not on WhatsApp, and numbers WhatsApp keeps under another JID (a Brazilian mobile without
 * the ninth digit): checked through the live socket (a socket double whose directory answers as
 * Baileys' `onWhatsApp` does) at a send to a phone-number JID.
 */
import { describe, expect, it } from 'vitest';
import { ChannelSendError, type ChannelConnection, type OutboundMessage } from '#domain/channels/port.ts';
import { SocketDouble } from '../../tests/support/whatsapp-double.ts';
import { brazilianVariant } from './jids.ts';
import { liveConnections } from './live.ts';
import { checkNumber } from './lookup.ts';
import { sendThrough } from './send.ts';

const connection: ChannelConnection = { accountId: 'ACC1', serviceId: 'SVC-LOOKUP', type: 'whatsapp', token: null };
/** Typed by hand, with the ninth digit. */
const typed = '5511987654321@s.whatsapp.net';
/** As WhatsApp keeps this older number: without it. */
const registered = '551187654321@s.whatsapp.net';

function outbound(to: string): OutboundMessage {
  return { messageId: 'MSG1', to, type: 'text', text: 'Olá!', file: null, replyTo: null };
}

function live(socket = new SocketDouble()) {
  const sockets = liveConnections();
  sockets.hold(connection.serviceId, { socket, recent: () => undefined, remember: () => undefined });
  return { socket, send: sendThrough(sockets) };
}

describe('the socket double answers onWhatsApp as Baileys does', () => {
  it('answers the JID WhatsApp keeps for a number on WhatsApp, and nothing for one that is not', async () => {
    const socket = new SocketDouble();
    socket.registered = new Set([registered]);
    expect(await socket.onWhatsApp(typed, '5511912340000@s.whatsapp.net')).toEqual([{ jid: registered, exists: true }]);
  });
});

describe('checking a number before sending to it', () => {
  it('fails a send to a number that is not on WhatsApp, for good, with a clear reason, sending nothing', async () => {
    const { socket, send } = live();
    socket.registered = new Set([registered]);
    const error = await send(connection, outbound('5521999990000@s.whatsapp.net')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChannelSendError);
    expect(error).toMatchObject({ reason: 'Este número não tem WhatsApp.', options: { permanent: true } });
    expect(socket.sent).toEqual([]);
  });

  it('sends to the JID WhatsApp answered, not the one typed, and tells the domain', async () => {
    const { socket, send } = live();
    socket.registered = new Set([registered]);
    const sent = await send(connection, outbound(typed));
    expect(socket.sent.map((s) => s.jid)).toEqual([registered]);
    expect(sent.recipient).toEqual({ idFromService: registered, aliases: [typed], phoneNumber: '551187654321' });
  });

  it('tells the domain the LID Baileys has for the JID answered, to keep on the contact', async () => {
    const { socket, send } = live();
    socket.registered = new Set([registered]);
    socket.lidMappings.set('551187654321', '201234567890123');
    const sent = await send(connection, outbound(typed));
    expect(sent.recipient).toEqual({ idFromService: registered, aliases: [typed, '201234567890123@lid'], phoneNumber: '551187654321' });
  });

  it('asks once per socket for a number found, and again for a number not found', async () => {
    const socket = new SocketDouble();
    socket.registered = new Set([registered]);
    await checkNumber(socket, typed);
    await checkNumber(socket, typed);
    await checkNumber(socket, registered);
    await checkNumber(socket, '5521999990000@s.whatsapp.net');
    await checkNumber(socket, '5521999990000@s.whatsapp.net');
    expect(socket.numberAsks).toEqual([[typed], ['5521999990000@s.whatsapp.net'], ['5521999990000@s.whatsapp.net']]);
  });

  it('leaves groups and @lid ids unchecked (WhatsApp gave them to us)', async () => {
    const socket = new SocketDouble();
    socket.registered = new Set();
    expect(await checkNumber(socket, '120363000000000000@g.us')).toEqual({ kind: 'on', jid: '120363000000000000@g.us', lid: null });
    expect(await checkNumber(socket, '201234567890123@lid')).toEqual({ kind: 'on', jid: '201234567890123@lid', lid: null });
    expect(socket.numberAsks).toEqual([]);
  });

  it('sends unchecked when WhatsApp does not answer the check in time (nothing is held up for good)', async () => {
    const socket = new SocketDouble();
    socket.answering = false;
    expect(await checkNumber(socket, typed, { timeoutMs: 20 })).toEqual({ kind: 'unknown' });
  });
});

describe('the Brazilian ninth digit', () => {
  it('pairs a mobile number with and without the ninth digit, and leaves landlines and other countries alone', () => {
    expect(brazilianVariant(registered)).toBe(typed);
    expect(brazilianVariant(typed)).toBe(registered);
    expect(brazilianVariant('551133334444@s.whatsapp.net')).toBeNull();
    expect(brazilianVariant('5511933334444@s.whatsapp.net')).toBeNull();
    expect(brazilianVariant('14155550123@s.whatsapp.net')).toBeNull();
    expect(brazilianVariant('201234567890123@lid')).toBeNull();
  });
});
