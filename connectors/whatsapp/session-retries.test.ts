/**
 * What Baileys asks of the session when a recipient's phone cannot decrypt a message, and when a
 * message goes to a group (ADR-0177), on the socket double, which answers as Baileys'
 * `sendMessagesAgain` and `relayMessage` do: a retry request is answered from the socket's own
 * recent sends, else from `getMessage`, at most 5 times per (message, participant) as counted in
 * `msgRetryCounterCache`; a group send takes the members from `cachedGroupMetadata`, else asks
 * WhatsApp. The sent messages live in the table (dynalite behind the local DynamoDB front).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { DisconnectReason, proto, type WAMessage } from 'baileys';
import { connectionRecordsOf, getChannelRecord } from '#db/channel-records.ts';
import { clearAuthState, loadAuthState } from './auth-state.ts';
import { tableSentStore } from './sent-store.ts';
import { liveConnections } from './live.ts';
import { defaultSessionOptions, WhatsAppSession, type SessionOptions } from './session.ts';
import { closeError, memoryAuth, memoryLedger, sessionContext, SocketDouble, until } from '../../tests/support/whatsapp-double.ts';
import { startLocalTable, type LocalTable } from '../../tests/support/local-table.ts';

let local: LocalTable;
beforeAll(async () => {
  local = await startLocalTable('whatsapp-retries');
});
afterAll(() => local.close());

const customer = '5511987654321@s.whatsapp.net';

/** A session of one connection on socket doubles, its sent messages in the table. */
function sessionOf(connection: { accountId: string; serviceId: string }, overrides: Partial<SessionOptions> = {}) {
  const sockets: SocketDouble[] = [];
  const live = liveConnections();
  const options: SessionOptions = {
    ...defaultSessionOptions,
    live,
    backoff: { firstMs: 10, maxMs: 50 },
    loadAuth: async () => memoryAuth(),
    ledger: () => memoryLedger(),
    socketFactory: (socketOptions) => {
      const socket = new SocketDouble(socketOptions);
      sockets.push(socket);
      return socket;
    },
    ...overrides,
  };
  const { context } = sessionContext(connection);
  context.ports = { ...context.ports, ...local.ports };
  const session = new WhatsAppSession(context, options);
  session.start();
  /** The latest socket opens. */
  const open = async (count: number) => {
    await until(() => sockets.length === count);
    sockets[count - 1]!.emit('connection.update', { connection: 'open' });
    await until(() => live.get(connection.serviceId)?.socket === sockets[count - 1]);
    return sockets[count - 1]!;
  };
  /** A send as the worker makes it (sendThrough): the live socket sends, the session remembers. */
  const send = async (jid: string, content: Parameters<SocketDouble['sendMessage']>[1]): Promise<WAMessage> => {
    const connected = live.get(connection.serviceId)!;
    const sent = (await connected.socket.sendMessage(jid, content))!;
    connected.remember(sent);
    return sent;
  };
  return { session, sockets, open, send };
}

const encoded = (message: proto.IMessage | undefined) => Buffer.from(proto.Message.encode(proto.Message.fromObject(message ?? {})).finish());

describe('WhatsApp retries and group sends as Baileys asks for them', () => {
  it('a retry asked after a restart is answered from the table, text and media alike, byte for byte', async () => {
    const connection = { accountId: ulid(), serviceId: ulid() };
    const before = sessionOf(connection);
    await before.open(1);
    const text = await before.send(customer, { text: 'Seu pedido saiu para entrega' });
    const image = await before.send(customer, { image: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]), mimetype: 'image/jpeg', caption: 'Nota fiscal' });
    // A deploy: this worker stops; the session opens again (here or in the next task) with nothing in memory.
    await before.session.stop();

    const after = sessionOf(connection);
    const socket = await after.open(1);
    // The customer's phone was off; now it cannot decrypt them and asks for both again.
    const againText = await socket.retryReceipt(text.key);
    const againImage = await socket.retryReceipt(image.key);
    await after.session.stop();

    expect(socket.unavailable).toEqual([]);
    expect(encoded(againText)).toEqual(encoded(text.message!));
    expect(encoded(againImage)).toEqual(encoded(image.message!));
    expect(Buffer.from(againImage!.imageMessage!.mediaKey!)).toEqual(Buffer.from(image.message!.imageMessage!.mediaKey!));

    // Kept sealed, as the auth state is, and forgotten after days.
    const item = await getChannelRecord<{ sealed: string }>(local.ports.table, {
      scope: 'connection',
      ...connection,
      channel: 'whatsapp',
      kind: 'SENT',
      id: text.key.id!,
    });
    expect(item?.sealed).toMatch(/^v1\./);
    expect(item?.sealed).not.toContain('pedido');
  });

  it('retry counts outlive a socket: after five re-sends, a reconnect does not start a sixth', async () => {
    const connection = { accountId: ulid(), serviceId: ulid() };
    const { session, open, send } = sessionOf(connection);
    const first = await open(1);
    const sent = await send(customer, { text: 'Oi' });
    for (let i = 0; i < 5; i++) expect(await first.retryReceipt(sent.key, `${customer.split('@')[0]}:2@s.whatsapp.net`)).toBeDefined();
    // The socket drops and the session opens a new one.
    first.close(closeError(DisconnectReason.connectionLost, 'Connection Lost'));
    const second = await open(2);
    expect(await second.retryReceipt(sent.key, `${customer.split('@')[0]}:2@s.whatsapp.net`)).toBeUndefined();
    await session.stop();
    expect(first.resent).toHaveLength(5);
    expect(second.resent).toEqual([]);
  });

  it('group sends take the members from the cache, asked again when WhatsApp says the group changed', async () => {
    const connection = { accountId: ulid(), serviceId: ulid() };
    const group = `1203630${Date.now()}@g.us`;
    const { session, open, send } = sessionOf(connection);
    const socket = await open(1);
    socket.groupMembers.set(group, ['5511900000001@s.whatsapp.net', '5511900000002@s.whatsapp.net']);

    await send(group, { text: 'Bom dia, grupo' });
    await send(group, { text: 'Segunda mensagem' });
    // One question to WhatsApp for both sends.
    expect(socket.groupAsks).toEqual([group]);

    // A member joins: the next send must be encrypted for them too, or their phone waits for it forever.
    socket.changeGroup(group, { add: ['5511900000003@s.whatsapp.net'] });
    await until(() => socket.groupAsks.length === 2);
    await send(group, { text: 'Bem-vinda' });
    // A member leaves: the next send must no longer be encrypted for them.
    socket.changeGroup(group, { remove: ['5511900000001@s.whatsapp.net'] });
    await until(() => socket.groupAsks.length === 3);
    await send(group, { text: 'Até mais' });
    await session.stop();

    expect(socket.groupSends.map((s) => s.participants)).toEqual([
      ['5511900000001@s.whatsapp.net', '5511900000002@s.whatsapp.net'],
      ['5511900000001@s.whatsapp.net', '5511900000002@s.whatsapp.net'],
      ['5511900000001@s.whatsapp.net', '5511900000002@s.whatsapp.net', '5511900000003@s.whatsapp.net'],
      ['5511900000002@s.whatsapp.net', '5511900000003@s.whatsapp.net'],
    ]);
    expect(socket.groupAsks).toHaveLength(3);
  });

  it('a logout removes what the device sent with its auth state (a new pairing is a new device)', async () => {
    const connection = { accountId: ulid(), serviceId: ulid() };
    const sent = tableSentStore(local.ports);
    await sent.put(connection, {
      key: { remoteJid: customer, fromMe: true, id: '3EB0LOGOUT1' },
      message: { extendedTextMessage: { text: 'Oi' } },
    } as WAMessage);
    expect(await sent.get(connection, '3EB0LOGOUT1')).toBeDefined();
    await clearAuthState(local.ports, connection);
    expect(await connectionRecordsOf(local.ports.table, { ...connection, channel: 'whatsapp', kind: '' })).toEqual([]);
  });

  it('a logout right after a send leaves nothing of the device behind, even when the sent write lands late', async () => {
    const connection = { accountId: ulid(), serviceId: ulid() };
    const table = tableSentStore(local.ports);
    // A table slow to take the sent message's write.
    const slowSent = () => ({
      ...table,
      put: async (...args: Parameters<typeof table.put>) => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        await table.put(...args);
      },
    });
    const { session, open, send } = sessionOf(connection, { loadAuth: (ports, at) => loadAuthState(ports, at), sent: slowSent });
    const socket = await open(1);
    await send(customer, { text: 'Até logo' });
    // Logged out on the phone while the sent message is still being written.
    socket.close(closeError(DisconnectReason.loggedOut, 'Connection Failure'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    await session.stop();
    expect(await connectionRecordsOf(local.ports.table, { ...connection, channel: 'whatsapp', kind: '' })).toEqual([]);
  });
});
