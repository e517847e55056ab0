/** Outbound WhatsApp through the live socket of the connection (a socket double). */
import { beforeEach, describe, expect, it } from 'vitest';
import { DisconnectReason, proto, type WAMessage } from 'baileys';
import { ChannelSendError, type ChannelConnection, type OutboundMessage } from '#domain/channels/port.ts';
import { closeError, SocketDouble } from '../../tests/support/whatsapp-double.ts';
import { liveConnections } from './live.ts';
import { sendThrough, whatsappMessageIdOf } from './send.ts';

const customer = '5511912345678@s.whatsapp.net';
const connection: ChannelConnection = { accountId: 'ACC1', serviceId: 'SVC-SEND', type: 'whatsapp', token: null };

function outbound(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return { messageId: 'MSG1', to: customer, type: 'text', text: 'Olá!', file: null, replyTo: null, ...overrides };
}

const file = (name: string, mimetype: string, bytes = new Uint8Array([1, 2, 3])) => ({
  name,
  mimetype,
  size: bytes.length,
  read: async () => bytes,
  url: 'http://bucket/x',
});

let sockets = liveConnections();
let sendWhatsApp = sendThrough(sockets);

function live(recent: Record<string, WAMessage> = {}) {
  const socket = new SocketDouble();
  const remembered: WAMessage[] = [];
  sockets.hold(connection.serviceId, { socket, recent: (id) => recent[id], remember: (m) => void remembered.push(m) });
  return { socket, remembered };
}

beforeEach(() => {
  sockets = liveConnections();
  sendWhatsApp = sendThrough(sockets);
});

describe('sending on WhatsApp', () => {
  it('with no live socket in this worker, asks the dispatcher to come back in 5 s', async () => {
    const error = await sendWhatsApp(connection, outbound()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChannelSendError);
    expect(error).toMatchObject({ reason: 'A conexão do WhatsApp não está ativa neste servidor. Tente de novo.', options: { retryAfterSeconds: 5 } });
  });

  it('sends a text and answers the WhatsApp id, remembering the message for retries and quotes', async () => {
    const { socket, remembered } = live();
    const sent = await sendWhatsApp(connection, outbound());
    const id = whatsappMessageIdOf(outbound().messageId, customer);
    expect(id).toMatch(/^3EB0[0-9A-F]{18}$/);
    expect(socket.sent).toEqual([{ jid: customer, content: { text: 'Olá!' }, options: { messageId: id } }]);
    expect(sent).toEqual({ channelMessageId: id, timestamp: new Date(1_767_000_000_000).toISOString() });
    expect(remembered.map((m) => m.key.id)).toEqual([id]);
  });

  it('sends images and videos with their captions, documents with their file names, audio as it is', async () => {
    const { socket } = live();
    await sendWhatsApp(connection, outbound({ type: 'image', text: 'Foto', file: file('foto.jpg', 'image/jpeg') }));
    await sendWhatsApp(connection, outbound({ type: 'video', text: '', file: file('clip.mp4', 'video/mp4') }));
    await sendWhatsApp(connection, outbound({ type: 'document', text: 'Segue o orçamento', file: file('Orçamento.pdf', 'application/pdf') }));
    await sendWhatsApp(connection, outbound({ type: 'audio', text: '', file: file('musica.mp3', 'audio/mpeg') }));
    const bytes = Buffer.from([1, 2, 3]);
    expect(socket.sent.map((s) => s.content)).toEqual([
      { image: bytes, mimetype: 'image/jpeg', jpegThumbnail: '', caption: 'Foto' },
      { video: bytes, mimetype: 'video/mp4', jpegThumbnail: '' },
      { document: bytes, mimetype: 'application/pdf', fileName: 'Orçamento.pdf', caption: 'Segue o orçamento' },
      { audio: bytes, mimetype: 'audio/mpeg' },
    ]);
  });

  it('sends a voice note as push-to-talk with the label and length the dispatcher gave it; AAC as plain audio', async () => {
    const { socket } = live();
    await sendWhatsApp(connection, outbound({ type: 'voice', text: '', file: { ...file('gravacao.ogg', 'audio/ogg; codecs=opus'), durationSeconds: 1.98 } }));
    await sendWhatsApp(connection, outbound({ type: 'voice', text: '', file: file('gravacao.mp4', 'audio/mp4') }));
    expect(socket.sent.map((s) => s.content)).toEqual([
      { audio: Buffer.from([1, 2, 3]), ptt: true, mimetype: 'audio/ogg; codecs=opus', seconds: 2 },
      { audio: Buffer.from([1, 2, 3]), mimetype: 'audio/mp4' },
    ]);
  });

  it('quotes the original of a reply: the message itself when seen recently, else a stand-in with its id', async () => {
    const original = proto.WebMessageInfo.fromObject({
      key: { remoteJid: customer, fromMe: false, id: 'ORIG1' },
      message: { conversation: 'Qual o preço?' },
    }) as WAMessage;
    const { socket } = live({ ORIG1: original });
    await sendWhatsApp(connection, outbound({ text: 'R$ 10', replyTo: 'ORIG1' }));
    await sendWhatsApp(connection, outbound({ text: 'Sim', replyTo: 'OLD7' }));
    expect(socket.sent[0]!.options?.quoted).toBe(original);
    expect(socket.sent[1]!.options?.quoted).toEqual({ key: { remoteJid: customer, id: 'OLD7', fromMe: false }, message: { conversation: '' } });
  });

  it("a socket that closes during the send asks for a retry; WhatsApp's other refusals are errors with pt-BR reasons", async () => {
    const { socket } = live();
    socket.failNextSend = closeError(DisconnectReason.connectionClosed, 'Connection Closed');
    await expect(sendWhatsApp(connection, outbound())).rejects.toMatchObject({
      reason: 'A conexão com o WhatsApp caiu durante o envio. Tente de novo.',
      options: { retryAfterSeconds: 5 },
    });
    socket.failNextSend = new Error('Media upload failed on all hosts');
    await expect(sendWhatsApp(connection, outbound())).rejects.toMatchObject({
      reason: 'Não foi possível enviar o arquivo para o WhatsApp. Tente de novo.',
      options: {},
    });
    socket.failNextSend = closeError(400, 'bad-request');
    await expect(sendWhatsApp(connection, outbound())).rejects.toMatchObject({
      reason: 'Falha ao enviar a mensagem pelo WhatsApp. Tente de novo.',
      options: {},
    });
  });

  it('a retry after a socket that closed once WhatsApp had taken the send names the same WhatsApp id, so the phone shows it once', async () => {
    const { socket } = live();
    socket.failAfterNextRelay = closeError(DisconnectReason.connectionClosed, 'Connection Closed');
    await expect(sendWhatsApp(connection, outbound())).rejects.toMatchObject({ options: { retryAfterSeconds: 5 } });
    const retried = await sendWhatsApp(connection, outbound());
    expect(socket.sent).toHaveLength(2);
    expect(socket.sent.map((s) => s.options?.messageId)).toEqual([retried.channelMessageId, retried.channelMessageId]);
    // Another message to the same customer is another id.
    const other = await sendWhatsApp(connection, outbound({ messageId: 'M-other' }));
    expect(other.channelMessageId).not.toBe(retried.channelMessageId);
  });

  it('a file that cannot be read from the bucket fails the send with a reason', async () => {
    live();
    const unreadable = { ...file('foto.jpg', 'image/jpeg'), read: async () => Promise.reject(new Error('NoSuchKey')) };
    await expect(sendWhatsApp(connection, outbound({ type: 'image', file: unreadable }))).rejects.toMatchObject({
      reason: 'Não foi possível ler o arquivo da mensagem. Tente de novo.',
    });
  });
});
