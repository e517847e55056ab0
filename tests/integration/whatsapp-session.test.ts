/**
 * The WhatsApp adapter end to end below the socket: the generic worker opens the real session
 * (auth state in the runtime's table, the real inbound sink, the local bucket) over a socket double
 * that emits Baileys' own events. A QR reaches the connection, `open` connects it, messages and
 * media land in the inbox, acks advance, a reply goes out through the live socket, and a logout on
 * the phone disconnects the connection with its reason and removes the auth state.
 */
import { describe, expect, it } from 'vitest';
import { DisconnectReason, proto, type WAMessage } from 'baileys';
import { connectionRecordsOf } from '#db/channel-records.ts';
import { writeServiceStatus } from '#db/services.ts';
import { getUserItem } from '#db/users.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import { startChannelWorker } from '#connectors/worker.ts';
import { whatsappWorkerChannel } from '#connectors/whatsapp/worker-adapter.ts';
import { tableLedger } from '#connectors/whatsapp/ledger.ts';
import { loggedOutText, reconnectingText } from '#connectors/whatsapp/session.ts';
import { errorTexts } from '#contracts/errors.ts';
import { servicePairingPayload } from '#contracts/pairing.ts';
import type { AccountSession } from '#domain/session.ts';
import { pairByPhoneNumber } from '#domain/services/services.ts';
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
    // Profile pictures as WhatsApp's CDN would hand them over.
    pictureFetch: async () => ({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xdb, 9]), mimetype: 'image/jpeg' }),
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

  it('shows reconnecting while the socket comes back, stores the outage’s gap from the phone’s history once, applies an early receipt, names new groups and copies pictures', async () => {
    const { owner } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap da Queda', type: 'whatsapp' } });
    const serviceId = created.body.id as string;
    const sockets: SocketDouble[] = [];
    const ports = { ...workerPorts(), channels: channelRegistry([adapterOnDoubles(serviceId, sockets)]) };
    const worker = await startChannelWorker(ports);
    const service = { accountId: owner.accountId, id: serviceId, channelType: 'whatsapp' as const };
    const get = async () => (await call('GET', `/services/${serviceId}`, { token: owner.token })).body;
    const now = Math.floor(Date.now() / 1000);
    const customer = `55117${String(Date.now()).slice(-8)}@s.whatsapp.net`;
    const group = `1203630${String(Date.now()).slice(-8)}@g.us`;
    const contactOf = (jid: string) =>
      eventually(async () => {
        const listed = await call('GET', `/contacts?query=${encodeURIComponent(JSON.stringify({ where: { idFromService: jid } }))}`, { token: owner.token });
        return listed.body.data?.[0] ?? null;
      });
    const messagesOf = async (contactId: string) =>
      (await call('GET', `/messages?query=${encodeURIComponent(JSON.stringify({ where: { contactId } }))}`, { token: owner.token })).body.data as {
        text: string;
        ack: number;
      }[];
    try {
      await writeServiceStatus(ports.table, service, { status: 'starting', runId: 'run-wa-gap', now: new Date().toISOString() });
      await tellChanged(worker, owner.accountId, serviceId);
      await eventually(async () => sockets.length === 1);
      const first = sockets[0]!;
      first.user = { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' };
      first.pictures.set(customer, 'https://pps.whatsapp.net/v/t61/cliente.jpg');
      first.emit('connection.update', { connection: 'open' });
      await eventually(async () => (await get()).status === 'connected');

      // A new customer: the contact gets their picture, copied into the bucket.
      first.emit('messages.upsert', {
        type: 'notify',
        messages: [
          waMessage({
            key: { remoteJid: customer, fromMe: false, id: `WA-BEFORE-${now}` },
            messageTimestamp: now - 30,
            pushName: 'Cliente',
            message: { conversation: 'Antes' },
          }),
        ],
      });
      const contact = await contactOf(customer);
      expect(contact.avatar?.url).toBeTruthy();
      expect(new Uint8Array(await (await fetch(contact.avatar.url)).arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 0xdb, 9]));

      // A receipt that races its message: WhatsApp says delivered before the message is stored.
      first.emit('messages.update', [
        { key: { remoteJid: customer, fromMe: true, id: `WA-EARLY-${now}` }, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } },
      ]);
      await new Promise((r) => setTimeout(r, 100));
      first.emit('messages.upsert', {
        type: 'notify',
        messages: [
          waMessage({
            key: { remoteJid: customer, fromMe: true, id: `WA-EARLY-${now}` },
            messageTimestamp: now - 25,
            message: { conversation: 'Pelo celular' },
          }),
        ],
      });
      await eventually(async () => (await messagesOf(contact.id))[0]?.ack === 2);

      // A group seen for the first time is named after its subject (asked once); no picture, none stored.
      first.emit('messages.upsert', {
        type: 'notify',
        messages: [
          waMessage({ key: { remoteJid: group, participant: customer, id: `WA-G-${now}` }, pushName: 'Cliente', message: { conversation: 'Bom dia, grupo' } }),
        ],
      });
      const groupContact = await contactOf(group);
      expect(groupContact).toMatchObject({ name: 'Grupo da Loja', type: 'group', avatar: null });
      expect(first.groupAsks).toEqual([group]);

      // The socket drops: 'Iniciando...' with the reason, until the new socket opens.
      first.close(closeError(DisconnectReason.connectionLost, 'Connection Lost'));
      const reconnecting = await eventually(async () => ((await get()).status === 'starting' ? await get() : null));
      expect(reconnecting.statusReason).toBe(reconnectingText);
      await eventually(async () => sockets.length === 2);
      const second = sockets[1]!;
      second.user = first.user;
      second.emit('connection.update', { connection: 'open' });
      const back = await eventually(async () => ((await get()).status === 'connected' ? await get() : null));
      expect(back.statusReason).toBeNull();

      // Offline delivery brings one message; the phone's history has one more it missed, and what the inbox has.
      const offline = waMessage({
        key: { remoteJid: customer, fromMe: false, id: `WA-OFF-${now}` },
        messageTimestamp: now - 5,
        pushName: 'Cliente',
        message: { conversation: 'Está aí?' },
      });
      second.emit('messages.upsert', { type: 'append', messages: [offline] });
      second.emit('connection.update', { receivedPendingNotifications: true });
      await eventually(async () => second.historyAsks.length === 1);
      expect(second.historyAsks[0]).toMatchObject({ count: 50, key: { remoteJid: customer, id: `WA-OFF-${now}` }, timestampMs: (now - 5) * 1000 });
      second.emit('messaging-history.set', {
        chats: [],
        contacts: [],
        syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
        messages: [
          waMessage({ key: { remoteJid: customer, fromMe: false, id: `WA-BEFORE-${now}` }, messageTimestamp: now - 30, message: { conversation: 'Antes' } }),
          waMessage({
            key: { remoteJid: customer, fromMe: false, id: `WA-MISSED-${now}` },
            messageTimestamp: now - 10,
            message: { conversation: 'Preciso de ajuda' },
          }),
          offline,
        ],
      });
      await eventually(async () => (await messagesOf(contact.id)).length === 4);
      await new Promise((r) => setTimeout(r, 200));
      expect((await messagesOf(contact.id)).map((m) => m.text)).toEqual(['Está aí?', 'Preciso de ajuda', 'Pelo celular', 'Antes']);
    } finally {
      await worker.stop();
    }
  });

  it('pairs by phone number code: a new run reaches the worker’s session, whose code reaches the connection', async () => {
    const { owner } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap do Código', type: 'whatsapp' } });
    const serviceId = created.body.id as string;
    const sockets: SocketDouble[] = [];
    const ports = { ...workerPorts(), channels: channelRegistry([adapterOnDoubles(serviceId, sockets)]) };
    const worker = await startChannelWorker(ports);
    // The domain reads the caller's account and user (an admin sees admin-only fields); no claims are needed here.
    const session = { accountId: owner.accountId, user: (await getUserItem(ports.table, owner.accountId, owner.user.id as string))! } as AccountSession;
    const get = async () => (await call('GET', `/services/${serviceId}`, { token: owner.token })).body;
    try {
      // Not started yet: nothing is waiting to be paired.
      await expect(pairByPhoneNumber(ports, session, serviceId, servicePairingPayload.parse({ phoneNumber: '11 91234-5678' }))).rejects.toMatchObject({
        kind: 'invalid',
        text: errorTexts.notWaitingForPairing,
      });

      await writeServiceStatus(
        ports.table,
        { accountId: owner.accountId, id: serviceId, channelType: 'whatsapp' },
        {
          status: 'starting',
          runId: 'run-wa-qr',
          now: new Date().toISOString(),
        },
      );
      await tellChanged(worker, owner.accountId, serviceId);
      await eventually(async () => sockets.length === 1);
      sockets[0]!.emit('connection.update', { qr: '2@ref,noise,identity,adv' });
      await eventually(async () => (await get()).status === 'isOnQrCode');

      // 'Conectar com número de telefone': a new run with the phone; the worker replaces the session.
      const asked = await pairByPhoneNumber(ports, session, serviceId, servicePairingPayload.parse({ phoneNumber: '(11) 91234-5678' }));
      expect(asked).toMatchObject({ status: 'starting', data: { qrCode: null, pairingCode: null } });
      await tellChanged(worker, owner.accountId, serviceId);
      await eventually(async () => sockets.length === 2);
      sockets[1]!.emit('connection.update', { qr: '2@ref2,noise,identity,adv' });
      const onCode = await eventually(async () => ((await get()).data.pairingCode ? await get() : null));
      expect(onCode).toMatchObject({ status: 'isOnQrCode', data: { qrCode: null, pairingCode: 'ABCD1234' } });
      expect(sockets[1]!.pairingCodeAsks).toEqual(['5511912345678']);
      expect(sockets[0]!.ended).toHaveLength(1);

      // The code was typed on the phone: connected, the code gone.
      sockets[1]!.close(closeError(DisconnectReason.restartRequired, 'restart required'));
      await eventually(async () => sockets.length === 3);
      sockets[2]!.user = { id: '5511912345678:3@s.whatsapp.net', name: 'Loja' };
      sockets[2]!.emit('connection.update', { connection: 'open' });
      const connected = await eventually(async () => ((await get()).status === 'connected' ? await get() : null));
      expect(connected.data).toEqual({ qrCode: null, pairingCode: null });
      await expect(pairByPhoneNumber(ports, session, serviceId, servicePairingPayload.parse({ phoneNumber: '11 91234-5678' }))).rejects.toMatchObject({
        text: errorTexts.notWaitingForPairing,
      });
    } finally {
      await worker.stop();
    }
  });

  it('POST /services/{id}/pairing-code is for admins, with the phone checked by the shared schema', async () => {
    const { owner, member } = await proTeam();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } });
    const path = `/services/${created.body.id}/pairing-code`;
    expect((await call('POST', path, { token: member.token, body: { phoneNumber: '11 91234-5678' } })).status).toBe(403);
    const bad = await call('POST', path, { token: owner.token, body: { phoneNumber: 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      error: 'Bad Request',
      message: 'Invalid params',
      details: [{ path: 'phoneNumber', message: 'Não tem formato de número' }],
    });
    const short = await call('POST', path, { token: owner.token, body: { phoneNumber: '1234' } });
    expect(short.body.details).toEqual([{ path: 'phoneNumber', message: 'Número muito pequeno inválido' }]);
    const missing = await call('POST', path, { token: owner.token, body: {} });
    expect(missing.body.details).toEqual([{ path: 'phoneNumber', message: 'Campo obrigatório' }]);
    expect((await call('POST', '/services/NOPE/pairing-code', { token: owner.token, body: { phoneNumber: '11 91234-5678' } })).status).toBe(404);
  });
});
