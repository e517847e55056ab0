/**
 * Sending through the Cloud API against the Graph API double (tests/support/fake-graph-api.ts):
 * every send type as Meta receives it, read receipts, and each class of Meta's refusals as the
 * port's send error (a wait the send queue honours, or a final pt-BR reason).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { oggOpusMimetype, type ChannelConnection, type OutboundMessage } from '#domain/channels/port.ts';
import { cloudCredentialsToken } from '#domain/channels/cloud-credentials.ts';
import { type FakeGraphApi, type FakeNumber, startFakeGraphApi } from '../../tests/support/fake-graph-api.ts';
import { cloudErrorMeaning, unreachableText } from './errors.ts';
import { GraphError } from './graph-client.ts';
import { cloudRecipient, markWhatsappCloudRead, readReceiptTimeoutMs, sendError, sendWhatsappCloud } from './send.ts';

const TOKEN = 'EAAGsystemusertoken0123456789';
const APP_SECRET = '0123456789abcdef0123456789abcdef';
const CUSTOMER = { waId: '5511987654321', name: 'Joana Souza' };

let fake: FakeGraphApi & { close(): Promise<void> };
let number: FakeNumber;
let connection: ChannelConnection;

const outbound = (input: Partial<OutboundMessage>): OutboundMessage => ({
  messageId: 'm1',
  to: CUSTOMER.waId,
  type: 'text',
  text: '',
  file: null,
  replyTo: null,
  ...input,
});
const file = (name: string, mimetype: string, bytes = Buffer.from(`bytes of ${name}`)) => ({
  name,
  mimetype,
  size: bytes.length,
  read: async () => new Uint8Array(bytes),
  url: `https://bucket.example/${name}`,
});
const lastSent = () => fake.sent.at(-1)!;
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the send was accepted'),
    (error: unknown) => error,
  );

beforeAll(async () => {
  fake = await startFakeGraphApi({ appSecret: APP_SECRET });
  process.env.WHATSAPP_CLOUD_GRAPH_URL = fake.url;
});
afterAll(async () => {
  delete process.env.WHATSAPP_CLOUD_GRAPH_URL;
  await fake.close();
});
beforeEach(() => {
  fake.addToken(TOKEN);
  number = fake.addNumber({ displayPhoneNumber: '+55 11 3000-1000', verifiedName: 'Doceria da Ana' });
  connection = {
    accountId: 'A1',
    serviceId: 'S1',
    type: 'whatsapp_cloud',
    token: cloudCredentialsToken({ phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken: TOKEN, appSecret: APP_SECRET }),
  };
  // The customer wrote first: the 24-hour window is open.
  fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Oi, vocês entregam hoje?' });
});
afterEach(() => fake.clearThrottles());

describe('sending each type', () => {
  it('a text goes as a text message, and the wamid Meta answers is the channel id', async () => {
    const sent = await sendWhatsappCloud(connection, outbound({ text: 'Entregamos sim, até as 18h.' }));
    expect(lastSent().body).toMatchObject({ messaging_product: 'whatsapp', to: CUSTOMER.waId, type: 'text', text: { body: 'Entregamos sim, até as 18h.' } });
    expect(lastSent().status).toBe(200);
    expect(sent.channelMessageId).toBe(lastSent().id);
    expect(sent.channelMessageId).toMatch(/^wamid\./);
    expect(sent.recipient).toBeUndefined();
  });

  it('a reply names the quoted message in context.message_id', async () => {
    const { message } = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Qual o preço do bolo?' });
    await sendWhatsappCloud(connection, outbound({ text: 'R$ 80,00', replyTo: message.id }));
    expect(lastSent().body.context).toEqual({ message_id: message.id });
  });

  it('an image and a video are uploaded first and sent by media id with their captions', async () => {
    const image = file('bolo.jpg', 'image/jpeg');
    await sendWhatsappCloud(connection, outbound({ type: 'image', text: 'Nosso bolo de cenoura', file: image }));
    const imageBody = lastSent().body;
    expect(imageBody.type).toBe('image');
    expect(imageBody.image.caption).toBe('Nosso bolo de cenoura');
    const uploaded = fake.media.get(imageBody.image.id)!;
    expect(uploaded.mimeType).toBe('image/jpeg');
    expect(uploaded.bytes.toString()).toBe('bytes of bolo.jpg');
    expect(uploaded.phoneNumberId).toBe(number.phoneNumberId);

    await sendWhatsappCloud(connection, outbound({ type: 'video', text: 'Como fazemos', file: file('receita.mp4', 'video/mp4') }));
    expect(lastSent().body).toMatchObject({ type: 'video', video: { caption: 'Como fazemos' } });
    expect(fake.media.get(lastSent().body.video.id)?.mimeType).toBe('video/mp4');
  });

  it('a document keeps its file name (and caption); one without text sends no caption', async () => {
    await sendWhatsappCloud(connection, outbound({ type: 'document', text: 'Segue o orçamento', file: file('Orçamento março.pdf', 'application/pdf') }));
    expect(lastSent().body.document).toMatchObject({ filename: 'Orçamento março.pdf', caption: 'Segue o orçamento' });
    expect(fake.media.get(lastSent().body.document.id)?.filename).toBe('Orçamento março.pdf');
    await sendWhatsappCloud(connection, outbound({ type: 'document', file: file('cardapio.pdf', 'application/pdf') }));
    expect(lastSent().body.document).not.toHaveProperty('caption');
  });

  it('a voice note goes as OGG/Opus audio, and an audio file as audio, with no caption', async () => {
    await sendWhatsappCloud(connection, outbound({ type: 'voice', file: { ...file('gravacao.ogg', oggOpusMimetype), durationSeconds: 3 } }));
    expect(lastSent().body.type).toBe('audio');
    expect(fake.media.get(lastSent().body.audio.id)?.mimeType).toBe(oggOpusMimetype);
    await sendWhatsappCloud(connection, outbound({ type: 'audio', text: 'ouça', file: file('jingle.mp3', 'audio/mpeg') }));
    expect(lastSent().body.type).toBe('audio');
    expect(lastSent().body.audio).not.toHaveProperty('caption');
  });

  it('a contact kept under a QR-channel JID or with a plus sign is sent to its digits', async () => {
    expect(cloudRecipient('5511987654321@s.whatsapp.net')).toBe('5511987654321');
    expect(cloudRecipient('+55 (11) 98765-4321')).toBe('5511987654321');
    await sendWhatsappCloud(connection, outbound({ to: `${CUSTOMER.waId}@s.whatsapp.net`, text: 'oi' }));
    expect(lastSent().body.to).toBe(CUSTOMER.waId);
  });

  it('a menu with up to three short options goes as reply buttons, a longer one as a list, and one Meta cannot show as the numbered text', async () => {
    const text = 'Como podemos ajudar?\n\n1 - Financeiro\n2 - Endereço';
    await sendWhatsappCloud(
      connection,
      outbound({
        text,
        choices: [
          { key: '1', label: 'Financeiro' },
          { key: '2', label: 'Endereço' },
        ],
      }),
    );
    expect(lastSent().status).toBe(200);
    expect(lastSent().body).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text },
        action: {
          buttons: [
            { type: 'reply', reply: { id: '1', title: 'Financeiro' } },
            { type: 'reply', reply: { id: '2', title: 'Endereço' } },
          ],
        },
      },
    });
    const rating = [
      { key: '5', label: '5 - Excelente' },
      { key: '4', label: '4 - Bom' },
      { key: '3', label: '3 - Regular' },
      { key: '2', label: '2 - Ruim' },
      { key: '1', label: '1 - Péssimo' },
    ];
    await sendWhatsappCloud(connection, outbound({ text: 'De 1 a 5, como foi?', choices: rating }));
    expect(lastSent().status).toBe(200);
    expect(lastSent().body.interactive).toMatchObject({
      type: 'list',
      action: { button: 'Ver opções', sections: [{ rows: rating.map((c) => ({ id: c.key, title: c.label })) }] },
    });
    // A label over a button's 20 characters makes it a list, clipped to a row's 24.
    await sendWhatsappCloud(connection, outbound({ text: 'Escolha:', choices: [{ key: '1', label: 'Segunda via do boleto bancário' }] }));
    expect(lastSent().body.interactive.action.sections[0].rows[0].title).toBe('Segunda via do boleto b…');
    // Eleven options: Meta shows at most ten rows, so the text goes.
    const eleven = Array.from({ length: 11 }, (_, i) => ({ key: String(i), label: `Opção ${i}` }));
    await sendWhatsappCloud(connection, outbound({ text: 'Muitas opções', choices: eleven }));
    expect(lastSent().body).toMatchObject({ type: 'text', text: { body: 'Muitas opções' } });
  });

  it('marks the newest received message read', async () => {
    const { message } = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Obrigada!' });
    await markWhatsappCloudRead(connection, { chat: CUSTOMER.waId, messages: [{ channelMessageId: message.id, author: null }] });
    expect(fake.reads.at(-1)).toMatchObject({ phoneNumberId: number.phoneNumberId, messageId: message.id });
  });
});

describe("Meta's refusals", () => {
  it('the number’s throughput limit (130429) asks the queue to come back later', async () => {
    fake.throttleNumber(number.phoneNumberId);
    const error = await rejection(sendWhatsappCloud(connection, outbound({ text: 'oi' })));
    expect(error).toMatchObject({ reason: cloudErrorMeaning(130429).text, options: { retryAfterSeconds: 2 } });
    expect(lastSent().status).toBe(400);
  });

  it('a rate limit asks for a longer wait at each hand-over (2 s ±20 % doubled), not the first delay again', async () => {
    fake.throttleNumber(number.phoneNumberId);
    const waitAt = async (attempt: number) =>
      ((await rejection(sendWhatsappCloud(connection, outbound({ text: 'oi', attempt })))) as { options: { retryAfterSeconds: number } }).options
        .retryAfterSeconds;
    expect(await waitAt(1)).toBe(2);
    const third = await waitAt(3);
    expect(third).toBeGreaterThanOrEqual(6);
    expect(third).toBeLessThanOrEqual(10);
    const fifth = await waitAt(5);
    expect(fifth).toBeGreaterThanOrEqual(26);
    expect(fifth).toBeLessThanOrEqual(38);
  });

  it('the pair rate limit (131056) and the account’s API limit (80007) wait longer', async () => {
    fake.throttlePair(number.phoneNumberId, CUSTOMER.waId);
    const pair = (await rejection(sendWhatsappCloud(connection, outbound({ text: 'oi' })))) as { options: { retryAfterSeconds: number } };
    expect(pair.options.retryAfterSeconds).toBeGreaterThanOrEqual(5);
    expect(pair.options.retryAfterSeconds).toBeLessThanOrEqual(7);
    fake.clearThrottles();
    fake.failNext('messages', 80007);
    const account = (await rejection(sendWhatsappCloud(connection, outbound({ text: 'oi' })))) as { options: { retryAfterSeconds: number } };
    expect(account.options.retryAfterSeconds).toBeGreaterThanOrEqual(48);
    expect(account.options.retryAfterSeconds).toBeLessThanOrEqual(72);
  });

  it('Meta’s passing failures (1, 2, 131000, 131016), its app limit (4) and any HTTP 5xx with Meta’s body are retried, with their pt-BR texts', async () => {
    for (const code of [1, 2, 131000, 131016, 4] as const) {
      fake.failNext('messages', code);
      const error = await rejection(sendWhatsappCloud(connection, outbound({ text: 'oi' })));
      expect(error, String(code)).toMatchObject({ reason: cloudErrorMeaning(code).text, options: { retryAfterSeconds: expect.any(Number) } });
    }
    // A code of no meaning of its own, answered 502 with Meta's envelope: Meta's side failed.
    fake.failNext('messages', 100, 'Bad gateway', { status: 502 });
    expect(await rejection(sendWhatsappCloud(connection, outbound({ text: 'oi' })))).toMatchObject({ options: { retryAfterSeconds: expect.any(Number) } });
    // The same code with its own 400 is final.
    fake.failNext('messages', 100);
    expect(await rejection(sendWhatsappCloud(connection, outbound({ text: 'oi' })))).toMatchObject({ options: { permanent: true } });
    expect(sendError(new GraphError(500, 131000, undefined, '(#131000) Something went wrong'), 1).options.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('a read receipt Meta never answers is given up after at most 5 s, not the whole Graph timeout (the agent’s open waits for it)', async () => {
    expect(readReceiptTimeoutMs()).toBe(5_000);
    process.env.WHATSAPP_CLOUD_GRAPH_TIMEOUT_MS = '300';
    try {
      expect(readReceiptTimeoutMs()).toBe(300);
      const { message } = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Já chegou?' });
      fake.hangNext('messages');
      const error = await rejection(markWhatsappCloudRead(connection, { chat: CUSTOMER.waId, messages: [{ channelMessageId: message.id, author: null }] }));
      expect(error).toMatchObject({ reason: unreachableText });
      expect(fake.reads.some((r) => r.messageId === message.id)).toBe(false);
    } finally {
      delete process.env.WHATSAPP_CLOUD_GRAPH_TIMEOUT_MS;
    }
  });

  it('a call Meta never answers is aborted by the timeout and asks the queue to try again', async () => {
    process.env.WHATSAPP_CLOUD_GRAPH_TIMEOUT_MS = '300';
    try {
      fake.hangNext('messages');
      const error = await rejection(sendWhatsappCloud(connection, outbound({ text: 'oi' })));
      expect(error).toMatchObject({ reason: unreachableText, options: { retryAfterSeconds: expect.any(Number) } });
      expect(fake.calls.filter((c) => c.path.endsWith('/messages')).at(-1)?.status).toBe(0);
      // The next try is answered.
      const sent = await sendWhatsappCloud(connection, outbound({ text: 'oi', attempt: 2 }));
      expect(sent.channelMessageId).toMatch(/^wamid\./);
    } finally {
      delete process.env.WHATSAPP_CLOUD_GRAPH_TIMEOUT_MS;
    }
  });

  it('outside the 24-hour window (131047) the message fails with the window’s explanation', async () => {
    fake.windowErrors = 'sync';
    try {
      const error = await rejection(sendWhatsappCloud(connection, outbound({ to: '5521999990000', text: 'Promoção!' })));
      expect(error).toMatchObject({ reason: expect.stringMatching(/24 horas.*modelo de mensagem aprovado/), options: { permanent: true } });
    } finally {
      fake.windowErrors = 'webhook';
    }
  });

  it('a revoked token (190) fails the message and says an admin must give a new one', async () => {
    fake.revokeToken(TOKEN);
    const error = await rejection(sendWhatsappCloud(connection, outbound({ text: 'oi' })));
    expect(error).toMatchObject({ reason: cloudErrorMeaning(190).text, options: { permanent: true } });
  });

  it('a file WhatsApp does not take (131053 on upload) fails the message, and nothing is sent', async () => {
    const before = fake.sent.length;
    const error = await rejection(sendWhatsappCloud(connection, outbound({ type: 'image', file: file('anim.gif', 'image/gif') })));
    expect(error).toMatchObject({ reason: cloudErrorMeaning(131053).text, options: { permanent: true } });
    expect(fake.sent.length).toBe(before);
  });

  it('Graph out of reach asks the queue to try again later, without a final mark', async () => {
    process.env.WHATSAPP_CLOUD_GRAPH_URL = 'http://127.0.0.1:1';
    try {
      const error = await rejection(sendWhatsappCloud(connection, outbound({ text: 'oi' })));
      expect(error).toMatchObject({ reason: unreachableText, options: { retryAfterSeconds: expect.any(Number) } });
      expect((error as { options: { permanent?: boolean } }).options.permanent).toBeUndefined();
    } finally {
      process.env.WHATSAPP_CLOUD_GRAPH_URL = fake.url;
    }
  });

  it('a connection without credentials fails for good', async () => {
    const error = await rejection(sendWhatsappCloud({ ...connection, token: null }, outbound({ text: 'oi' })));
    expect(error).toMatchObject({ options: { permanent: true } });
  });
});
