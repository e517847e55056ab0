/**
 * Telegram end to end over the local runtime, with a fake Bot API (tests/support/fake-telegram.ts)
 * standing in for Telegram through TELEGRAM_API_ROOT. These tests start their own runtimes: one in
 * polling mode (what `npm start` does) and one in webhook mode (the cloud path), with no channel
 * double.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { listQueryString } from '#contracts/list-query.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { realtimeUrl } from '../support/realtime-url.ts';
import { startFakeTelegram, type FakeTelegram, type Person } from '../support/fake-telegram.ts';

const strongPassword = 'Senha#Forte123';
let counter = 0;

function client(baseUrl: () => string) {
  const call = async (method: string, path: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${baseUrl()}/api${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined } as { status: number; body: any };
  };
  const newOwner = async () => {
    const email = `tg.${Date.now().toString(36)}.${process.pid}.${++counter}@example.com`;
    const person = await call('POST', '/auth/register', { body: { name: 'Dona Telegram', email, password: strongPassword } });
    const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: 'Loja Telegram' } });
    if (account.status !== 201) throw new Error(JSON.stringify(account.body));
    return { token: account.body.accessToken as string, accountId: account.body.id as string };
  };
  const listen = async (token: string) => {
    const socket = new WebSocket(await realtimeUrl(baseUrl(), token));
    const events: { event: string; data: any }[] = [];
    socket.on('message', (data) => events.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return {
      events,
      waitFor: (predicate: (e: { event: string; data: any }) => boolean, ms = 10_000) => eventually(async () => events.find(predicate), ms),
      close: () => socket.close(),
    };
  };
  return { call, newOwner, listen };
}

async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

let tokens = 0;
const newToken = () => `${7_000_000 + ++tokens}:AAH-fake-${process.pid}-${tokens}-tokenXYZ`;
const customer = (n: number): Person => ({ id: 900_000 + n * 7 + tokens, first_name: 'Cliente', last_name: `Número ${n}` });

let fake: FakeTelegram;

beforeAll(async () => {
  fake = await startFakeTelegram();
});
afterAll(async () => {
  await fake?.close();
});

describe('Telegram through long polling (the local runtime)', () => {
  let runtime: RunningRuntime;
  const dataDir = mkdtempSync(join(tmpdir(), 'conversa-telegram-'));
  const env = () => ({ TELEGRAM_API_ROOT: fake.url, TELEGRAM_MODE: 'polling', TELEGRAM_POLL_TIMEOUT: '5' });
  const { call, newOwner, listen } = client(() => runtime.url);

  beforeAll(async () => {
    runtime = await spawnLocalRuntime(env(), dataDir);
  });
  afterAll(async () => {
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** An owner with a started Telegram connection whose bot is polled. */
  async function connected() {
    const owner = await newOwner();
    const token = newToken();
    const bot = fake.addBot(token, 'Loja');
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Bot da loja', type: 'telegram', token } });
    expect(created.status).toBe(201);
    const started = await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
    expect(started.status).toBe(200);
    await eventually(async () => (await call('GET', `/services/${created.body.id}`, { token: owner.token })).body.status === 'connected');
    await eventually(async () => bot.polling);
    return { owner, bot, service: created.body };
  }

  const messagesOf = (token: string, contactId: string) => call('GET', `/messages${listQueryString({ where: { contactId } })}`, { token });

  async function contactOf(token: string, idFromService: string) {
    return eventually(async () => (await call('GET', '/contacts', { token })).body.data.find((c: any) => c.idFromService === idFromService));
  }

  it('refuses a token the Bot API does not know, with a clear error, and stores nothing', async () => {
    const owner = await newOwner();
    const answer = await call('POST', '/services', { token: owner.token, body: { name: 'Bot', type: 'telegram', token: '123:not-a-real-token' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ message: 'Invalid Telegram token', details: [{ path: 'token', message: 'Token do Telegram inválido' }] });
    expect((await call('GET', '/services', { token: owner.token })).body.totalCount).toBe(0);
  });

  it('an admin starts a connection: starting, then connected, each reaching browsers as service.UPDATED', async () => {
    const owner = await newOwner();
    const token = newToken();
    const bot = fake.addBot(token);
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Bot', type: 'telegram', token } });
    expect(JSON.stringify(created.body)).not.toContain(token);
    const events = await listen(owner.token);
    const started = await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
    expect(started.status).toBe(200);
    expect(['starting', 'connected']).toContain(started.body.status);
    await events.waitFor((e) => e.event === 'service.UPDATED' && e.data.id === created.body.id && e.data.status === 'starting');
    const up = await events.waitFor((e) => e.event === 'service.UPDATED' && e.data.id === created.body.id && e.data.status === 'connected');
    expect(up.data).toMatchObject({ connected: true, type: 'telegram' });
    expect(JSON.stringify(up.data)).not.toContain(token);
    expect(bot.calls.map((c) => c.method)).toEqual(expect.arrayContaining(['getMe', 'deleteWebhook', 'getUpdates']));
    events.close();
  });

  it('a customer message arrives through the Bot API, becomes a contact, a listed message and message.CREATED', async () => {
    const { owner, bot } = await connected();
    const events = await listen(owner.token);
    const person = customer(1);
    bot.receive(person, { text: 'Olá, vocês entregam hoje?' });
    const created = await events.waitFor((e) => e.event === 'message.CREATED' && e.data.text === 'Olá, vocês entregam hoje?');
    expect(created.data).toMatchObject({ isFromMe: false, type: 'text' });
    const contact = await contactOf(owner.token, String(person.id));
    expect(contact.name).toBe('Cliente Número 1');
    const page = await messagesOf(owner.token, contact.id);
    expect(page.body).toMatchObject({ totalCount: 1, data: [{ text: 'Olá, vocês entregam hoje?' }] });
    events.close();
  });

  it("a new sender's profile photo becomes the contact's avatar, served by a signed URL", async () => {
    const { owner, bot } = await connected();
    const person = customer(9);
    const photo = Buffer.from('\xff\xd8\xff fake jpeg profile photo', 'latin1');
    bot.setProfilePhoto(person.id, photo);
    bot.receive(person, { text: 'Oi, tudo bem?' });
    const contact = await eventually(async () => {
      const found = await contactOf(owner.token, String(person.id));
      return found?.avatar?.url ? found : null;
    });
    expect(contact.avatarUrl).toBe(contact.avatar.url);
    const download = await fetch(contact.avatar.url);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(photo);
    const stranger = customer(10);
    bot.receive(stranger, { text: 'Sem foto aqui' });
    const plain = await eventually(() => contactOf(owner.token, String(stranger.id)));
    expect(plain.avatar).toBeNull();
  });

  it('media comes through getFile into the bucket; captions, replies and edits follow; redelivery adds nothing', async () => {
    const { owner, bot } = await connected();
    const person = customer(2);
    const first = bot.receive(person, { text: 'Quero este modelo' });
    const photoBytes = Buffer.from('\xff\xd8\xff fake jpeg bytes', 'latin1');
    const photoId = bot.addFile(photoBytes, 'photos/file_7.jpg');
    bot.receive(person, {
      photo: [
        { file_id: 'small', file_unique_id: 's', width: 90, height: 90 },
        { file_id: photoId, file_unique_id: 'b', width: 800, height: 800, file_size: photoBytes.length },
      ],
      caption: 'Na cor azul',
      reply_to_message: first.message,
    });
    const voiceId = bot.addFile(Buffer.from('OggS voice'), 'voice/file_8.oga');
    bot.receive(person, { voice: { file_id: voiceId, file_unique_id: 'v', duration: 2, mime_type: 'audio/ogg' } });
    const contact = await contactOf(owner.token, String(person.id));
    const page = await eventually(async () => {
      const p = await messagesOf(owner.token, contact.id);
      return p.body.totalCount === 3 && p.body;
    });
    const voice = page.data.find((m: any) => m.type === 'voice');
    const photo = page.data.find((m: any) => m.type === 'image');
    expect(voice).toMatchObject({ type: 'voice', file: { mimetype: 'audio/ogg' } });
    expect(photo).toMatchObject({ type: 'image', text: 'Na cor azul', file: { mimetype: 'image/jpeg' }, quotedMessage: { text: 'Quero este modelo' } });
    expect(Buffer.from(await (await fetch(photo.file.url)).arrayBuffer())).toEqual(photoBytes);

    bot.edit(first.message, 'Quero este modelo, tamanho M');
    await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data.some((m: any) => m.text === 'Quero este modelo, tamanho M'));

    // Telegram delivers the same message again (a new update carrying the same message).
    bot.push({ message: first.message });
    const marker = bot.receive(person, { text: 'depois da repetição' });
    await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data.some((m: any) => m.text === marker.message.text));
    expect((await messagesOf(owner.token, contact.id)).body.totalCount).toBe(4);
  });

  it('a group message becomes a group contact, with the author on the message', async () => {
    const { owner, bot } = await connected();
    const group = { id: -1_000_000 - tokens, type: 'supergroup' as const, title: 'Clientes VIP' };
    bot.receive(customer(8), { text: 'Bom dia, grupo' }, group);
    const contact = await contactOf(owner.token, String(group.id));
    expect(contact).toMatchObject({ name: 'Clientes VIP', type: 'group' });
    const message = await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data[0]);
    expect(message).toMatchObject({ text: 'Bom dia, grupo', groupContact: { id: String(customer(8).id), name: 'Cliente Número 8' } });
  });

  it('a reply with a file goes out with the right method, caption and reply id, then shows as sent (ack 1)', async () => {
    const { owner, bot, service } = await connected();
    const person = customer(3);
    const incoming = bot.receive(person, { text: 'Tem catálogo?' });
    const contact = await contactOf(owner.token, String(person.id));
    const quoted = await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data[0]);
    const bytes = Buffer.from('%PDF-1.4\n% catálogo\n');
    const upload = await call('POST', '/files/generate-url-to-upload', {
      token: owner.token,
      body: { name: 'catalogo.pdf', mimetype: 'application/pdf', serviceId: service.id, length: bytes.length, isPtt: false },
    });
    await fetch(upload.body.urlToUpload, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes });
    const sent = await call('POST', '/messages/send', {
      token: owner.token,
      body: {
        contactId: contact.id,
        serviceId: service.id,
        text: 'Segue o catálogo',
        type: 'document',
        fileId: upload.body.file.id,
        replyMessageId: quoted.id,
      },
    });
    expect(sent.status).toBe(201);
    const out = await eventually(async () => bot.sent.find((s) => s.answer.ok)).catch(async (error) => {
      throw new Error(`${error.message}: ${JSON.stringify((await messagesOf(owner.token, contact.id)).body.data)}`);
    });
    expect(out.method).toBe('sendDocument');
    expect(out.params).toMatchObject({
      chat_id: String(person.id),
      caption: 'Segue o catálogo',
      reply_parameters: { message_id: incoming.message.message_id },
    });
    expect(out.file).toMatchObject({ name: 'catalogo.pdf', size: bytes.length });
    expect(out.file!.bytes).toEqual(bytes);
    await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data.find((m: any) => m.id === sent.body.id)?.ack === 1);
  });

  it('an internal note stays with the team: the Bot API never receives it, while the reply written after it goes out', async () => {
    const { owner, bot, service } = await connected();
    const person = customer(11);
    bot.receive(person, { text: 'Quero cancelar' });
    const contact = await contactOf(owner.token, String(person.id));
    const note = await call('POST', '/messages/notes', { token: owner.token, body: { contactId: contact.id, text: 'Cliente irritado, oferecer desconto' } });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ kind: 'note', isFromMe: true, text: 'Cliente irritado, oferecer desconto' });
    const reply = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: service.id, text: 'Posso ajudar?' } });
    expect(reply.status).toBe(201);
    // The reply reaching Telegram proves the outbound path ran past the note, which was stored first.
    await eventually(async () => bot.sent.find((s) => s.params.text === 'Posso ajudar?' && s.answer.ok));
    expect(bot.sent.map((s) => s.params.text ?? s.params.caption)).toEqual(['Posso ajudar?']);
    const listed = (await messagesOf(owner.token, contact.id)).body.data;
    expect(listed.find((m: any) => m.id === note.body.id)).toMatchObject({ kind: 'note', ack: 1 });
  });

  it('a flood wait is waited out and the send retried; a blocked user fails with the reason (ack -2)', async () => {
    const { owner, bot, service } = await connected();
    const person = customer(4);
    bot.receive(person, { text: 'Oi' });
    const contact = await contactOf(owner.token, String(person.id));
    bot.failNext('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } });
    const first = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: service.id, text: 'Já respondo' } });
    await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data.find((m: any) => m.id === first.body.id)?.ack === 1, 15_000);
    expect(bot.sent.filter((s) => s.params.text === 'Já respondo').map((s) => s.answer.ok)).toEqual([false, true]);

    bot.block(person.id);
    const second = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.id, serviceId: service.id, text: 'Ainda aí?' } });
    const failed = await eventually(async () => {
      const m = (await messagesOf(owner.token, contact.id)).body.data.find((x: any) => x.id === second.body.id);
      return m?.ack === -2 && m;
    });
    expect(failed.error).toBe('O cliente bloqueou o bot no Telegram');
  });

  it('shutdown stops polling; start resumes from the stored offset; logout drops pending updates', async () => {
    const { owner, bot, service } = await connected();
    const person = customer(5);
    const off = await call('POST', `/services/${service.id}/shutdown`, { token: owner.token });
    expect(off.body).toMatchObject({ status: 'disconnected', connected: false });
    await eventually(async () => !bot.polling);
    bot.receive(person, { text: 'Mandei enquanto estava desligado' });
    expect((await call('POST', `/services/${service.id}/start`, { token: owner.token })).status).toBe(200);
    const contact = await contactOf(owner.token, String(person.id));
    await eventually(async () => (await messagesOf(owner.token, contact.id)).body.totalCount === 1);

    const restarted = await call('POST', `/services/${service.id}/restart`, { token: owner.token });
    expect(restarted.status).toBe(200);
    await eventually(async () => (await call('GET', `/services/${service.id}`, { token: owner.token })).body.status === 'connected');

    const out = await call('POST', `/services/${service.id}/logout`, { token: owner.token });
    expect(out.body.status).toBe('disconnected');
    await eventually(async () => !bot.polling);
    expect(bot.calls.some((c) => c.method === 'deleteWebhook' && c.params.drop_pending_updates === true)).toBe(true);
  });

  it('another account cannot act on the connection', async () => {
    const { service } = await connected();
    const stranger = await newOwner();
    for (const action of ['start', 'restart', 'shutdown', 'logout']) {
      expect((await call('POST', `/services/${service.id}/${action}`, { token: stranger.token })).status).toBe(404);
    }
  });

  it('after a runtime restart, started connections poll again by themselves', async () => {
    const { owner, bot } = await connected();
    await runtime.stop();
    expect(bot.polling).toBe(false);
    runtime = await spawnLocalRuntime(env(), dataDir);
    await eventually(async () => bot.polling, 15_000);
    const person = customer(6);
    bot.receive(person, { text: 'Voltaram?' });
    const contact = await contactOf(owner.token, String(person.id));
    await eventually(async () => (await messagesOf(owner.token, contact.id)).body.data[0]?.text === 'Voltaram?');
  }, 60_000);
});

describe('Telegram through the webhook (the cloud path)', () => {
  let runtime: RunningRuntime;
  const { call, newOwner } = client(() => runtime.url);

  beforeAll(async () => {
    runtime = await spawnLocalRuntime({ TELEGRAM_API_ROOT: fake.url, TELEGRAM_MODE: 'webhook' });
  });
  afterAll(async () => {
    await runtime?.stop();
  });

  it('start registers the webhook with a secret; updates with it are stored, others are refused', async () => {
    const owner = await newOwner();
    const token = newToken();
    const bot = fake.addBot(token);
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Bot', type: 'telegram', token } });
    const started = await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
    expect(started.body).toMatchObject({ status: 'connected', connected: true });
    expect(new URL(bot.webhook!.url).pathname).toBe(`/api/webhooks/telegram/${created.body.id}`);
    expect(bot.webhook!.secret_token).toMatch(/^[A-Za-z0-9_-]{32,256}$/);

    const person = customer(7);
    const good = bot.receive(person, { text: 'Pelo webhook' });
    expect(await bot.deliver(good)).toBe(204);
    expect(await bot.deliver(good)).toBe(204);
    const forged = bot.receive(person, { text: 'Forjada' });
    expect(await bot.deliver(forged, 'wrong-secret')).toBe(401);
    const none = await fetch(`${runtime.url}/api/webhooks/telegram/${created.body.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(forged),
    });
    expect(none.status).toBe(401);

    const contacts = (await call('GET', '/contacts', { token: owner.token })).body.data;
    expect(contacts).toHaveLength(1);
    const page = await call('GET', `/messages${listQueryString({ where: { contactId: contacts[0].id } })}`, { token: owner.token });
    expect(page.body.data.map((m: any) => m.text)).toEqual(['Pelo webhook']);

    const off = await call('POST', `/services/${created.body.id}/shutdown`, { token: owner.token });
    expect(off.body.status).toBe('disconnected');
    expect(bot.webhook).toBeNull();
    const hook = bot.receive(person, { text: 'Depois de desligar' });
    const late = await fetch(`${runtime.url}/api/webhooks/telegram/${created.body.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'anything' },
      body: JSON.stringify(hook),
    });
    expect(late.status).toBe(401);
  });
});
