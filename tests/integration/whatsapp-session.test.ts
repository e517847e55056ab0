/**
 * The WhatsApp adapter end to end below the socket: the generic worker opens the real session
 * (auth state in the runtime's table, the real inbound sink, the local bucket) over a socket double
 * that emits Baileys' own events. A QR reaches the connection, `open` connects it, messages and
 * media land in the inbox, acks advance, a reply goes out through the live socket, and a logout on
 * the phone disconnects the connection with its reason and removes the auth state.
 */
import { describe, expect, it } from 'vitest';
import { DisconnectReason, proto, type WAMessage } from 'baileys';
import { connectionRecordsOf } from '../../shared/db/channel-records.ts';
import { writeServiceStatus } from '../../shared/db/services.ts';
import type { ChannelAdapter } from '../../shared/domain/channels/port.ts';
import { channelRegistry } from '../../shared/domain/channels/registry.ts';
import { startChannelWorker } from '../../connectors/worker.ts';
import { whatsappWorkerChannel } from '../../connectors/whatsapp/worker-adapter.ts';
import { tableLedger } from '../../connectors/whatsapp/ledger.ts';
import { loggedOutText } from '../../connectors/whatsapp/session.ts';
import { closeError, SocketDouble } from '../support/whatsapp-double.ts';
import { call, proTeam } from './api.ts';
import { eventually, workerPorts, tellChanged } from './worker.ts';

/**
 * The worker's WhatsApp adapter, its sessions on socket doubles; only for the test's own
 * connection (the table holds other tests' running connections, which a worker would resume).
 */
function adapterOnDoubles(serviceId: string, sockets: SocketDouble[]): ChannelAdapter {
  const adapter = whatsappWorkerChannel({
    backoff: { firstMs: 20, maxMs: 100 },
    socketFactory: () => {
      const socket = new SocketDouble();
      sockets.push(socket);
      return socket;
    },
    // Media as WhatsApp's servers would hand them over, decrypted.
    mediaDownload: () => async () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]),
  });
  return {
    ...adapter,
    sessions: { ...adapter.sessions!, wants: (connection) => (connection as { id?: string }).id === serviceId && adapter.sessions!.wants(connection) },
  };
}

const at = Math.floor(Date.now() / 1000);
const waMessage = (object: Record<string, unknown>) => proto.WebMessageInfo.fromObject({ messageTimestamp: at, ...object }) as WAMessage;

describe('a WhatsApp connection held by the worker', () => {
  it('pairs by QR, connects, receives into the inbox, sends a reply, follows acks, and stops when logged out on the phone', async () => {
    const { owner } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap da Loja', type: 'whatsapp' } });
    const serviceId = created.body.id as string;
    const sockets: SocketDouble[] = [];
    const adapter = adapterOnDoubles(serviceId, sockets);
    const ports = { ...workerPorts(), channels: channelRegistry([adapter]) };
    const worker = await startChannelWorker(ports);
    const service = { accountId: owner.accountId, id: serviceId, channelType: 'whatsapp' as const };
    const get = async () => (await call('GET', `/services/${serviceId}`, { token: owner.token })).body;
    try {
      await writeServiceStatus(ports.table, service, { status: 'starting', runId: 'run-wa-1', now: new Date().toISOString() });
      await tellChanged(worker, owner.accountId, serviceId);
      await eventually(async () => sockets.length === 1);
      const socket = sockets[0]!;

      // Pairing: the QR reaches the connection as a PNG data URL.
      socket.emit('connection.update', { qr: '2@pairing-ref,noise-key,identity-key,adv-secret' });
      const onQr = await eventually(async () => ((await get()).status === 'isOnQrCode' ? await get() : null));
      expect(onQr.data.qrCode).toMatch(/^data:image\/png;base64,/);

      // The phone read it: new creds are saved in the table, the socket opens, the connection is connected.
      socket.emit('creds.update', { me: { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' } });
      socket.user = { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' };
      socket.emit('connection.update', { connection: 'open' });
      await eventually(async () => (await get()).status === 'connected');
      await eventually(
        async () => (await connectionRecordsOf(ports.table, { accountId: owner.accountId, serviceId, channel: 'whatsapp', kind: 'CREDS' })).length === 1,
      );

      // A customer writes, then sends a photo; the reply from the phone quotes the first message.
      const customer = `55119${String(Date.now()).slice(-8)}@s.whatsapp.net`;
      socket.emit('messages.upsert', {
        type: 'notify',
        messages: [
          waMessage({
            key: { remoteJid: customer, fromMe: false, id: `WA-IN-${at}` },
            messageTimestamp: at - 3,
            pushName: 'Cliente Zap',
            message: { conversation: 'Vocês abrem sábado?' },
          }),
          waMessage({
            key: { remoteJid: customer, fromMe: false, id: `WA-IMG-${at}` },
            messageTimestamp: at - 2,
            pushName: 'Cliente Zap',
            message: { imageMessage: { caption: 'Este modelo', mimetype: 'image/jpeg' } },
          }),
          waMessage({
            key: { remoteJid: customer, fromMe: true, id: `WA-ME-${at}` },
            messageTimestamp: at - 1,
            message: { extendedTextMessage: { text: 'Abrimos sim, das 9h às 13h', contextInfo: { stanzaId: `WA-IN-${at}` } } },
          }),
        ],
      });
      const contact = await eventually(async () => {
        const listed = await call('GET', `/contacts?query=${encodeURIComponent(JSON.stringify({ where: { idFromService: customer } }))}`, {
          token: owner.token,
        });
        return listed.body.data?.[0]?.lastMessage?.text === 'Abrimos sim, das 9h às 13h' ? listed.body.data[0] : null;
      });
      expect(contact).toMatchObject({ name: 'Cliente Zap', data: { phoneNumber: customer.split('@')[0] } });
      const messages = async () =>
        (await call('GET', `/messages?query=${encodeURIComponent(JSON.stringify({ where: { contactId: contact.id } }))}`, { token: owner.token })).body
          .data as {
          text: string;
          type: string;
          isFromMe: boolean;
          ack: number;
          quotedMessage: { text: string } | null;
          file: { name: string; url: string } | null;
        }[];
      const listed = await messages();
      expect(listed.map((m) => [m.text, m.type, m.isFromMe, m.quotedMessage?.text ?? null])).toEqual([
        ['Abrimos sim, das 9h às 13h', 'text', true, 'Vocês abrem sábado?'],
        ['Este modelo', 'image', false, null],
        ['Vocês abrem sábado?', 'text', false, null],
      ]);
      // The photo was copied into the bucket under the account, and is served from there.
      const photo = listed[1]!.file!;
      expect(photo).toMatchObject({ name: `imagem-WA-IMG-${at}.jpg`, mimetype: 'image/jpeg', size: 7, type: 'image' });
      expect(new Uint8Array(await (await fetch(photo.url)).arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));

      // The message sent from the phone is read by the customer: its ack advances.
      socket.emit('messages.update', [{ key: { remoteJid: customer, fromMe: true, id: `WA-ME-${at}` }, update: { status: proto.WebMessageInfo.Status.READ } }]);
      await eventually(async () => (await messages())[0]!.ack === 3);

      // A reply from the inbox goes out through the live socket, quoting the customer's message.
      const sent = await adapter.send(
        { accountId: owner.accountId, serviceId, type: 'whatsapp', token: null },
        {
          messageId: 'M-OUT',
          to: customer,
          type: 'text',
          text: 'Te esperamos!',
          file: null,
          replyTo: `WA-IN-${at}`,
        },
      );
      expect(sent.channelMessageId).toMatch(/^3EB0/);
      expect(socket.sent[0]).toMatchObject({ jid: customer, content: { text: 'Te esperamos!' } });
      expect(socket.sent[0]!.options?.quoted?.key.id).toBe(`WA-IN-${at}`);

      // Logged out on the phone: disconnected with the reason, the auth state gone, no new socket.
      socket.close(closeError(DisconnectReason.loggedOut, 'Connection Failure'));
      const stopped = await eventually(async () => ((await get()).status === 'disconnected' ? await get() : null));
      expect(stopped.statusReason).toBe(loggedOutText);
      await eventually(
        async () => (await connectionRecordsOf(ports.table, { accountId: owner.accountId, serviceId, channel: 'whatsapp', kind: '' })).length === 0,
      );
      expect(sockets).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });

  it('hands over, when the session opens again, what a crash left in the ledger, once, with the real table and sink', async () => {
    const { owner } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap do Ledger', type: 'whatsapp' } });
    const serviceId = created.body.id as string;
    const connection = { accountId: owner.accountId, serviceId };
    const sockets: SocketDouble[] = [];
    const ports = { ...workerPorts(), channels: channelRegistry([adapterOnDoubles(serviceId, sockets)]) };
    const worker = await startChannelWorker(ports);
    const service = { accountId: owner.accountId, id: serviceId, channelType: 'whatsapp' as const };
    const ledger = tableLedger(ports.table);
    const pending = async () => (await connectionRecordsOf(ports.table, { ...connection, channel: 'whatsapp', kind: 'LEDGER' })).length;
    try {
      await writeServiceStatus(ports.table, service, { status: 'starting', runId: 'run-wa-ledger', now: new Date().toISOString() });
      await tellChanged(worker, owner.accountId, serviceId);
      await eventually(async () => sockets.length === 1);
      const first = sockets[0]!;
      first.user = { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' };
      first.emit('connection.update', { connection: 'open' });

      const customer = `55118${String(Date.now()).slice(-8)}@s.whatsapp.net`;
      const handed = waMessage({
        key: { remoteJid: customer, fromMe: false, id: `WA-L1-${at}` },
        messageTimestamp: at - 2,
        pushName: 'Cliente',
        message: { conversation: 'Primeira' },
      });
      const lost = waMessage({
        key: { remoteJid: customer, fromMe: false, id: `WA-L2-${at}` },
        messageTimestamp: at - 1,
        pushName: 'Cliente',
        message: { conversation: 'Segunda' },
      });
      first.emit('messages.upsert', { type: 'notify', messages: [handed] });
      const contact = await eventually(async () => {
        const listed = await call('GET', `/contacts?query=${encodeURIComponent(JSON.stringify({ where: { idFromService: customer } }))}`, {
          token: owner.token,
        });
        return listed.body.data?.[0] ?? null;
      });
      await eventually(async () => (await pending()) === 0);

      // A worker that crashed: the first after the sink took it (before marking it done), the second before the sink saw it.
      await ledger.put(connection, handed);
      await ledger.put(connection, lost);
      expect(await pending()).toBe(2);
      first.close(closeError(DisconnectReason.connectionLost, 'Connection Lost'));
      await eventually(async () => sockets.length === 2);
      sockets[1]!.user = first.user;
      sockets[1]!.emit('connection.update', { connection: 'open' });

      const texts = async () =>
        (
          (await call('GET', `/messages?query=${encodeURIComponent(JSON.stringify({ where: { contactId: contact.id } }))}`, { token: owner.token })).body
            .data as { text: string }[]
        ).map((m) => m.text);
      await eventually(async () => (await pending()) === 0);
      expect(await texts()).toEqual(['Segunda', 'Primeira']);
    } finally {
      await worker.stop();
    }
  });
});
