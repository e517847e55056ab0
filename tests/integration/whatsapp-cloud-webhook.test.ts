/**
 * The WhatsApp (API oficial) webhook over HTTP against a local runtime of its own, with the Graph
 * API double (tests/support/fake-graph-api.ts) standing in for Meta: the callback URL and verify
 * token an admin reads on the connection, Meta's GET handshake, signed deliveries reaching the inbox
 * (every inbound type the double builds, duplicates stored once, unsigned or wrongly signed ones
 * refused and storing nothing), statuses out of order ending at the right ack, media copied to the
 * bucket (a URL that expired, answered 404 or 401, asked for again once; a file over the cap refused
 * without being read, whether Meta tells its size or not), the quality rating and the last inbound time.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import { maxCloudInboundBytes, tooLargeText } from '#connectors/whatsapp-cloud/media.ts';
import { getChannelRecord } from '#db/channel-records.ts';
import { getContactItem } from '#db/contacts.ts';
import { getMessageItem } from '#db/messages.ts';
import { keys } from '#db/keys.ts';
import type { Ports } from '#domain/ports.ts';
import { type FakeGraphApi, type FakeNumber, MEDIA_URL_TTL_MS, startFakeGraphApi } from '../support/fake-graph-api.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { runtimePorts } from '../support/runtime-ports.ts';
import { callAt, strongPassword, uniqueEmail } from './api.ts';
import { eventually } from './worker.ts';

const APP_SECRET = 'fedcba9876543210fedcba9876543210';
const CUSTOMER = { waId: '5511912345678', name: 'Carla Dias' };

let fake: FakeGraphApi & { close(): Promise<void> };
let runtime: RunningRuntime;
let ports: Ports;
const call = callAt(() => runtime.url);
let seq = 0;

async function newOwner() {
  const person = await call('POST', '/auth/register', { body: { name: 'Dona da Padaria', email: uniqueEmail('cloudhook'), password: strongPassword } });
  const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: 'Padaria' } });
  if (account.status !== 201) throw new Error(JSON.stringify(account.body));
  return { token: account.body.accessToken as string, accountId: account.body.id as string };
}

interface Line {
  owner: Awaited<ReturnType<typeof newOwner>>;
  number: FakeNumber;
  serviceId: string;
  /** The callback URL as Meta is given it. */
  url: string;
  verifyToken: string;
}

/** An owner with a started WhatsApp (API oficial) connection whose callback Meta knows. */
async function newLine(options: { start?: boolean } = {}): Promise<Line> {
  const owner = await newOwner();
  const accessToken = `EAAGhooktoken${++seq}x${Date.now()}`;
  fake.addToken(accessToken);
  const number = fake.addNumber({ displayPhoneNumber: `+55 11 3${String(seq).padStart(3, '0')}-2000`, verifiedName: 'Padaria Central' });
  const created = await call('POST', '/services', {
    token: owner.token,
    body: { name: 'Oficial', type: 'whatsapp_cloud', phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken, appSecret: APP_SECRET },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  if (options.start !== false) await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
  const { path, verifyToken } = created.body.webhook;
  return { owner, number, serviceId: created.body.id, url: `${runtime.url}${path}`, verifyToken };
}

/** Every message of the line's account (each line has an account of its own), oldest first. */
async function messagesOf(line: Line): Promise<any[]> {
  const all: any[] = [];
  for (const contact of await contactsOf(line)) {
    const page = await call('GET', `/messages${listQueryString({ where: { contactId: contact.id }, perPage: 100 })}`, { token: line.owner.token });
    if (page.status !== 200) throw new Error(JSON.stringify(page.body));
    all.push(...page.body.data);
  }
  return all.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

async function contactsOf(line: Line): Promise<any[]> {
  const page = await call('GET', '/contacts', { token: line.owner.token });
  if (page.status !== 200) throw new Error(JSON.stringify(page.body));
  return page.body.data;
}

beforeAll(async () => {
  fake = await startFakeGraphApi({ appSecret: APP_SECRET, now: Date.now() });
  runtime = await spawnLocalRuntime({ WHATSAPP_CLOUD_GRAPH_URL: fake.url });
  ports = runtimePorts(runtime);
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
  await fake?.close();
});

describe('the WhatsApp (API oficial) webhook', () => {
  it("shows admins the callback and verify token, and answers Meta's handshake only with that token", async () => {
    const line = await newLine({ start: false });
    expect(line.url).toMatch(new RegExp(`/api/webhooks/whatsapp-cloud/${line.serviceId}$`));
    expect(line.verifyToken).toMatch(/^[\w-]{40,}$/);
    expect(await fake.verifyCallback(line.url, line.verifyToken)).toMatchObject({ ok: true, status: 200 });
    const wrong = await fake.verifyCallback(line.url, `${line.verifyToken}x`);
    expect(wrong.status).toBe(403);
    expect(wrong.ok).toBe(false);
    const unknown = await fake.verifyCallback(line.url.replace(line.serviceId, '01JUNKNOWNSERVICE000000000'), line.verifyToken);
    expect(unknown.status).toBe(403);
    const notSubscribe = await fetch(`${line.url}?hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=${line.verifyToken}`);
    expect(notSubscribe.status).toBe(403);

    // A member of the account reads the connection without its verify token; an admin reads it.
    await ports.table.doc.send(
      new UpdateCommand({
        TableName: ports.table.name,
        Key: keys.account(line.owner.accountId),
        UpdateExpression: 'SET #plan = :plan',
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: { ':plan': { productName: 'Pro', users: 10, connections: 5, contacts: 25000 } },
      }),
    );
    const email = uniqueEmail('member');
    const member = await call('POST', '/users', { token: line.owner.token, body: { name: 'Atendente', email, password: strongPassword, isAdmin: false } });
    expect(member.status).toBe(201);
    const login = await call('POST', '/auth/login', { body: { email, password: strongPassword, accountId: line.owner.accountId } });
    expect(login.status).toBe(200);
    const asMember = await call('GET', `/services/${line.serviceId}`, { token: login.body.accessToken });
    expect(asMember.status).toBe(200);
    expect(asMember.body.webhook).toBeUndefined();
    expect(JSON.stringify(asMember.body)).not.toContain(line.verifyToken);
    const listed = await call('GET', '/services', { token: login.body.accessToken });
    expect(JSON.stringify(listed.body)).not.toContain(line.verifyToken);
    const asOwner = await call('GET', `/services/${line.serviceId}`, { token: line.owner.token });
    expect(asOwner.body.webhook).toEqual({ path: `/api/webhooks/whatsapp-cloud/${line.serviceId}`, verifyToken: line.verifyToken });
  }, 60_000);

  it('stores a signed text once, however often Meta delivers it, and refuses unsigned or wrongly signed deliveries', async () => {
    const line = await newLine();
    const { payload, message } = fake.inbound(line.number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Tem pão de queijo quentinho?' });

    const unsigned = await fake.deliver(payload, { url: line.url, signature: 'missing' });
    const forged = await fake.deliver(payload, { url: line.url, signature: 'wrong' });
    const malformed = await fake.deliver(payload, { url: line.url, signature: 'sha256=abc' });
    for (const d of [...unsigned, ...forged, ...malformed]) expect(d.status).toBe(401);
    expect(await messagesOf(line)).toEqual([]);
    expect(await contactsOf(line)).toEqual([]);

    const twice = await fake.deliver(payload, { url: line.url, times: 2 });
    expect(twice.map((d) => d.status)).toEqual([204, 204]);
    const messages = await messagesOf(line);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ text: 'Tem pão de queijo quentinho?', isFromMe: false });
    const contacts = await contactsOf(line);
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({ name: CUSTOMER.name });

    // The window: the person's last inbound time is kept on the contact of this connection.
    const contact = await getContactItem(ports.table, line.owner.accountId, contacts[0].id);
    expect(contact?.lastInboundAt).toBe(messages[0].timestamp);
    expect(Math.floor(Date.parse(contact!.lastInboundAt!) / 1000)).toBe(Number(message.timestamp));

    // A body that is not JSON but carries a good signature is refused as invalid (400), nothing stored.
    const junk = await fetch(line.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': (await import('../support/fake-graph-api.ts')).signPayload('not json', APP_SECRET),
      },
      body: 'not json',
    });
    expect(junk.status).toBe(400);
    expect(await messagesOf(line)).toHaveLength(1);
  }, 60_000);

  it('lands every inbound type the double builds as a readable message, replies quoted, reactions on their message', async () => {
    const line = await newLine();
    const deliver = async (content: Parameters<FakeGraphApi['inbound']>[2], options?: Parameters<FakeGraphApi['inbound']>[3]) => {
      const built = fake.inbound(line.number.phoneNumberId, CUSTOMER, content, options);
      const [d] = await fake.deliver(built.payload, { url: line.url });
      expect(d!.status, `${content.type}: ${d!.responseBody}`).toBe(204);
      return built.message;
    };
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const first = await deliver({ type: 'text', body: 'Bom dia' });
    await deliver({ type: 'image', bytes: png, mime_type: 'image/png', caption: 'Foto do bolo' });
    await deliver({ type: 'video', bytes: Buffer.from('video-bytes'), mime_type: 'video/mp4' });
    await deliver({ type: 'audio', voice: true, bytes: Buffer.from('OggS-voice'), mime_type: 'audio/ogg; codecs=opus' });
    await deliver({ type: 'audio', bytes: Buffer.from('mp3-bytes'), mime_type: 'audio/mpeg' });
    await deliver({ type: 'document', filename: 'pedido.pdf', bytes: Buffer.from('%PDF-1.4'), mime_type: 'application/pdf', caption: 'Meu pedido' });
    await deliver({ type: 'sticker', bytes: Buffer.from('RIFFwebp'), mime_type: 'image/webp' });
    await deliver({ type: 'location', latitude: -23.55, longitude: -46.63, name: 'Loja', address: 'Av. Paulista' });
    await deliver({
      type: 'contacts',
      contacts: [{ name: { formatted_name: 'João Lima' }, phones: [{ phone: '+55 11 99999-0000', wa_id: '5511999990000' }] }],
    });
    await deliver({ type: 'button_reply', id: 'sim', title: 'Sim, quero' });
    await deliver({ type: 'list_reply', id: 'p2', title: 'Pão francês', description: '10 unidades' });
    await deliver({ type: 'button', text: 'Parar promoções', payload: 'STOP' });
    await deliver({ type: 'unsupported', unsupported_type: 'poll' });
    await deliver({ type: 'text', body: 'Respondendo' }, { context: { from: CUSTOMER.waId, id: first.id } });
    await deliver({ type: 'reaction', message_id: first.id, emoji: '👍' });

    const messages = await messagesOf(line);
    // Every message but the reaction is one message; none is empty.
    expect(messages).toHaveLength(14);
    for (const m of messages) expect(m.text || m.file, JSON.stringify(m)).toBeTruthy();
    const byText = (pattern: RegExp) => messages.find((m) => pattern.test(m.text ?? ''));
    expect(byText(/^Foto do bolo$/)?.file?.mimetype).toBe('image/png');
    expect(messages.find((m) => m.file?.name === 'pedido.pdf')).toMatchObject({ text: 'Meu pedido' });
    expect(
      messages
        .filter((m) => m.file)
        .map((m) => m.type)
        .sort(),
    ).toEqual(['audio', 'document', 'image', 'image', 'video', 'voice']);
    expect(byText(/Av\. Paulista|-23\.55/)).toBeTruthy();
    expect(byText(/João Lima/)).toBeTruthy();
    expect(byText(/Sim, quero/)).toBeTruthy();
    expect(byText(/Pão francês/)).toBeTruthy();
    expect(byText(/Parar promoções/)).toBeTruthy();
    expect(byText(/não suportad/i)).toBeTruthy();
    const reply = byText(/^Respondendo$/);
    expect(reply?.quotedMessage?.text).toBe('Bom dia');
    const reacted = messages.find((m) => m.text === 'Bom dia');
    expect(JSON.stringify(reacted?.reactions)).toContain('👍');

    // The image's bytes are in the bucket.
    const image = byText(/^Foto do bolo$/)!;
    const stored = await fetch(image.file.url);
    expect(stored.status).toBe(200);
    expect(Buffer.from(await stored.arrayBuffer()).equals(png)).toBe(true);
  }, 90_000);

  it('a customer’s edit replaces the text or caption, and a revoke marks the message deleted, as on the QR channel (coexistence numbers)', async () => {
    const line = await newLine();
    line.number.coexistence = true;
    const deliver = async (content: Parameters<FakeGraphApi['inbound']>[2]) => {
      const built = fake.inbound(line.number.phoneNumberId, CUSTOMER, content);
      const [d] = await fake.deliver(built.payload, { url: line.url });
      expect(d!.status, `${content.type}: ${d!.responseBody}`).toBe(204);
      return built.message;
    };
    const text = await deliver({ type: 'text', body: 'Quero 2 bolos' });
    const photo = await deliver({ type: 'image', bytes: Buffer.from('jpeg'), mime_type: 'image/jpeg', caption: 'Este aqui' });
    const gone = await deliver({ type: 'text', body: 'Mensagem apagada depois' });

    await deliver({ type: 'edit', original_message_id: text.id, body: 'Quero 3 bolos' });
    // The caption of a photo: Meta's edit carries the message as it now reads.
    await deliver({ type: 'edit', original_message_id: photo.id, body: 'Este aqui, de chocolate', media: 'image' });
    await deliver({ type: 'revoke', original_message_id: gone.id });

    const messages = await messagesOf(line);
    // Edits and revokes are no messages of their own.
    expect(messages).toHaveLength(3);
    expect(messages.map((m) => m.text).sort()).toEqual(['Este aqui, de chocolate', 'Mensagem apagada depois', 'Quero 3 bolos']);
    expect(messages.find((m) => m.text === 'Este aqui, de chocolate')?.file?.mimetype).toBe('image/jpeg');
    expect(messages.find((m) => m.text === 'Mensagem apagada depois')?.ack).toBe(-1);
    expect(messages.find((m) => m.text === 'Quero 3 bolos')?.ack).not.toBe(-1);
    // Kept as edited, as the QR channel's edits are.
    const [contact] = await contactsOf(line);
    const stored = await getMessageItem(ports.table, line.owner.accountId, contact.id, messages.find((m) => m.text === 'Quero 3 bolos').id);
    // `edited` is written by the edit (shared/db/messages.ts editMessageText), not part of the item's type.
    expect((stored as Record<string, unknown> | undefined)?.edited).toBe(true);
  }, 60_000);

  it('asks for a fresh media URL once when the first one expired', async () => {
    const line = await newLine();
    // The first URL answered is already past its five minutes; the next one is fresh.
    let asked = 0;
    Object.defineProperty(fake, 'mediaUrlTtlMs', { configurable: true, get: () => (++asked === 1 ? -60_000 : MEDIA_URL_TTL_MS) });
    try {
      const bytes = Buffer.from('%PDF-1.4 recibo');
      const { payload } = fake.inbound(line.number.phoneNumberId, CUSTOMER, { type: 'document', filename: 'recibo.pdf', bytes, mime_type: 'application/pdf' });
      const [d] = await fake.deliver(payload, { url: line.url });
      expect(d!.status).toBe(204);
      expect(asked).toBe(2);
      const [message] = await messagesOf(line);
      expect(message.file?.name).toBe('recibo.pdf');
      const stored = await fetch(message.file.url);
      expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true);

      // Expired twice: the message stays, readable, without the file.
      asked = 0;
      Object.defineProperty(fake, 'mediaUrlTtlMs', {
        configurable: true,
        get: () => {
          asked++;
          return -60_000;
        },
      });
      const again = fake.inbound(line.number.phoneNumberId, CUSTOMER, { type: 'image', bytes: Buffer.from('jpeg'), mime_type: 'image/jpeg' });
      const [d2] = await fake.deliver(again.payload, { url: line.url });
      expect(d2!.status).toBe(204);
      expect(asked).toBe(2);
      const lost = (await messagesOf(line)).find((m) => m.id !== message.id);
      expect(lost.file).toBeFalsy();
      expect(lost.text).toBeTruthy();
    } finally {
      Object.defineProperty(fake, 'mediaUrlTtlMs', { configurable: true, writable: true, value: MEDIA_URL_TTL_MS });
    }
  }, 60_000);

  it('asks for a fresh URL when the expired one is answered 401 too', async () => {
    const line = await newLine();
    let asked = 0;
    Object.defineProperty(fake, 'mediaUrlTtlMs', { configurable: true, get: () => (++asked === 1 ? -60_000 : MEDIA_URL_TTL_MS) });
    fake.expiredUrlStatus = 401;
    try {
      const bytes = Buffer.from('%PDF-1.4 nota');
      const { payload } = fake.inbound(line.number.phoneNumberId, CUSTOMER, { type: 'document', filename: 'nota.pdf', bytes, mime_type: 'application/pdf' });
      const [d] = await fake.deliver(payload, { url: line.url });
      expect(d!.status).toBe(204);
      expect(asked).toBe(2);
      const [message] = await messagesOf(line);
      expect(message.file?.name).toBe('nota.pdf');
    } finally {
      fake.expiredUrlStatus = 404;
      Object.defineProperty(fake, 'mediaUrlTtlMs', { configurable: true, writable: true, value: MEDIA_URL_TTL_MS });
    }
  }, 60_000);

  it('refuses a file over the cap without reading it: told by file_size, by Content-Length, or cut off from a chunked body', async () => {
    const line = await newLine();
    const cap = maxCloudInboundBytes('video');
    const size = cap * 4;
    const served: Record<string, number> = {};
    for (const declare of ['file_size', 'content-length', 'none'] as const) {
      const { payload, message } = fake.inbound(line.number.phoneNumberId, CUSTOMER, { type: 'video', bytes: Buffer.from('mp4'), mime_type: 'video/mp4' });
      fake.serveHuge(message.video.id, size, declare);
      const [d] = await fake.deliver(payload, { url: line.url });
      expect(d!.status, declare).toBe(204);
      served[declare] = fake.media.get(message.video.id)!.bytesServed;
    }
    const messages = await messagesOf(line);
    expect(messages).toHaveLength(3);
    for (const m of messages) {
      expect(m.file, m.text).toBeFalsy();
      expect(m.text.startsWith(tooLargeText('video-', cap).split(':')[0]), m.text).toBe(true);
    }
    // Nothing downloaded when Meta told the size first; the download dropped when its length was
    // told; a body of no told length cut off a little past the cap, far from all of it.
    expect(served.file_size).toBe(0);
    expect(served['content-length']).toBeLessThan(size / 2);
    expect(served.none).toBeLessThan(size / 2);
  }, 90_000);

  it('moves acks forward only: statuses out of order end at the furthest, and a late failure does not undo a read', async () => {
    const line = await newLine();
    const { payload } = fake.inbound(line.number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Oi' });
    await fake.deliver(payload, { url: line.url });
    const [contact] = await contactsOf(line);
    const send = async (text: string) => {
      const answer = await call('POST', '/messages/send', { token: line.owner.token, body: { contactId: contact.id, serviceId: line.serviceId, text } });
      expect(answer.status).toBeLessThan(300);
      await eventually(async () => (await messagesOf(line)).find((m) => m.text === text && m.ack === 1), 20_000);
      return fake.accepted.find((s) => s.phoneNumberId === line.number.phoneNumberId && s.body.text?.body === text)!.id!;
    };
    const ackOf = async (text: string) => (await messagesOf(line)).find((m) => m.text === text);

    const readFirst = await send('Seu pedido saiu');
    for (const status of ['read', 'sent', 'delivered', 'failed'] as const) {
      const [d] = await fake.deliver(fake.status(readFirst, status), { url: line.url });
      expect(d!.status).toBe(204);
    }
    expect((await ackOf('Seu pedido saiu'))?.ack).toBe(3);

    const failedOne = await send('Mensagem que falha');
    await fake.deliver(fake.status(failedOne, 'failed', { error: { code: 131026 } }), { url: line.url });
    await fake.deliver(fake.status(failedOne, 'sent'), { url: line.url });
    const failed = await ackOf('Mensagem que falha');
    expect(failed?.ack).toBe(-2);
    expect(JSON.stringify(failed)).toMatch(/131026|entregue|entregar/i);

    // Redelivered statuses change nothing.
    await fake.deliver(fake.status(readFirst, 'delivered'), { url: line.url, times: 2 });
    expect((await ackOf('Seu pedido saiu'))?.ack).toBe(3);
  }, 90_000);

  it('shows the quality rating Meta reports, keeps template and quality news on the connection, and takes coexistence echoes as ours', async () => {
    const line = await newLine();
    const [d] = await fake.deliver(fake.qualityUpdate(line.number.phoneNumberId, { event: 'FLAGGED', currentLimit: 'TIER_250', quality: 'RED' }), {
      url: line.url,
    });
    expect(d!.status).toBe(204);
    const read = await call('GET', `/services/${line.serviceId}`, { token: line.owner.token });
    expect(read.body.qualityRating).toBe('RED');
    const quality = await getChannelRecord<{ event: string; alarm: boolean }>(ports.table, {
      scope: 'connection',
      accountId: line.owner.accountId,
      serviceId: line.serviceId,
      channel: 'whatsapp_cloud',
      kind: 'QUALITY',
    });
    expect(quality).toMatchObject({ event: 'FLAGGED', alarm: true });

    const template = fake.addTemplate(line.number.wabaId, { name: 'boas_vindas', language: 'pt_BR', category: 'UTILITY', components: [] });
    const [t] = await fake.deliver(fake.approveTemplate(template.id), { url: line.url });
    expect(t!.status).toBe(204);
    const kept = await getChannelRecord<{ name: string; event: string }>(ports.table, {
      scope: 'connection',
      accountId: line.owner.accountId,
      serviceId: line.serviceId,
      channel: 'whatsapp_cloud',
      kind: 'TEMPLATE',
      id: template.id,
    });
    expect(kept).toMatchObject({ name: 'boas_vindas', event: 'APPROVED' });

    const echo = fake.echo(line.number.phoneNumberId, CUSTOMER.waId, { type: 'text', body: 'Respondi pelo celular' });
    const [e] = await fake.deliver(echo.payload, { url: line.url });
    expect(e!.status).toBe(204);
    const mine = (await messagesOf(line)).find((m) => m.text === 'Respondi pelo celular');
    expect(mine).toMatchObject({ isFromMe: true });
    // An echo is no inbound: the window does not open on it.
    const [contact] = await contactsOf(line);
    expect((await getContactItem(ports.table, line.owner.accountId, contact.id))?.lastInboundAt ?? null).toBeNull();
  }, 60_000);

  it("routes another number's events to the connection holding it when it is of the same app, and ignores them otherwise", async () => {
    const first = await newLine();
    const second = await newLine();
    // Meta posts the whole app's numbers to the URL configured: here, the first connection's.
    const forSecond = fake.inbound(second.number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Para o segundo número' });
    const [d] = await fake.deliver(forSecond.payload, { url: first.url });
    expect(d!.status).toBe(204);
    expect(await messagesOf(first)).toEqual([]);
    expect((await messagesOf(second)).map((m) => m.text)).toEqual(['Para o segundo número']);

    // A connection of another app (another secret) does not take what this app signed.
    const otherSecret = '00112233445566778899aabbccddeeff';
    const owner = await newOwner();
    const accessToken = `EAAGotherapp${++seq}x${Date.now()}`;
    fake.addToken(accessToken);
    const number = fake.addNumber({ displayPhoneNumber: '+55 21 3000-9999', verifiedName: 'Outra Loja' });
    const other = await call('POST', '/services', {
      token: owner.token,
      body: { name: 'Outra', type: 'whatsapp_cloud', phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken, appSecret: otherSecret },
    });
    expect(other.status).toBe(201);
    await call('POST', `/services/${other.body.id}/start`, { token: owner.token });
    const forOther = fake.inbound(number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Não é deste app' });
    const [d2] = await fake.deliver(forOther.payload, { url: first.url });
    expect(d2!.status).toBe(204);
    expect((await call('GET', '/contacts', { token: owner.token })).body.data).toEqual([]);
    expect(await messagesOf(first)).toEqual([]);
    // Its own URL, signed with its own secret, it takes.
    const [d3] = await fake.deliver(forOther.payload, { url: `${runtime.url}${other.body.webhook.path}`, secret: otherSecret });
    expect(d3!.status).toBe(204);
    expect((await call('GET', '/contacts', { token: owner.token })).body.data).toHaveLength(1);
  }, 60_000);

  it('takes nothing for a connection that is not running, yet answers Meta 2xx', async () => {
    const line = await newLine({ start: false });
    const { payload } = fake.inbound(line.number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Alguém aí?' });
    const [d] = await fake.deliver(payload, { url: line.url });
    expect(d!.status).toBe(204);
    expect(await messagesOf(line)).toEqual([]);
  }, 60_000);
});
