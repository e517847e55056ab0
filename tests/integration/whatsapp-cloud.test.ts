/**
 * WhatsApp (API oficial) over HTTP against a local runtime of its own, with the Graph API double
 * (tests/support/fake-graph-api.ts) standing in for Meta through WHATSAPP_CLOUD_GRAPH_URL: a
 * connection created with its credentials (checked with Meta on save, secrets only ever answered
 * masked), started (the app subscribed to the WABA's webhooks), a message sent through the send
 * queue reaching Meta and recorded as sent; refusals on save and a rate limit the queue waits out;
 * Meta's unhappy answers to a send (a call never answered, cut by the client's timeout, and a 503
 * with Meta's 131016 body, both tried again; a final refusal with its pt-BR meaning on the bubble).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorTexts } from '#contracts/errors.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { cloudCredentialTexts } from '#contracts/services.ts';
import { cloudErrorMeaning } from '#connectors/whatsapp-cloud/errors.ts';
import { type FakeGraphApi, type FakeNumber, startFakeGraphApi } from '../support/fake-graph-api.ts';
import { inboundSink } from '#domain/channels/inbound-sink.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { runtimePorts } from '../support/runtime-ports.ts';
import { callAt, strongPassword, uniqueEmail } from './api.ts';
import { eventually } from './worker.ts';

const APP_SECRET = '0123456789abcdef0123456789abcdef';
const CUSTOMER = { waId: '5511987654321', name: 'Joana Souza' };

let fake: FakeGraphApi & { close(): Promise<void> };
let runtime: RunningRuntime;
const call = callAt(() => runtime.url);
let seq = 0;

async function newOwner() {
  const person = await call('POST', '/auth/register', { body: { name: 'Dona da Doceria', email: uniqueEmail('cloud'), password: strongPassword } });
  const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: 'Doceria' } });
  if (account.status !== 201) throw new Error(JSON.stringify(account.body));
  return { token: account.body.accessToken as string, accountId: account.body.id as string };
}

function newNumber(): { number: FakeNumber; accessToken: string } {
  const accessToken = `EAAGsystemuser${++seq}token${Date.now()}`;
  fake.addToken(accessToken);
  const number = fake.addNumber({ displayPhoneNumber: '+55 11 3000-1000', verifiedName: 'Doceria da Ana' });
  return { number, accessToken };
}

const credentialsOf = ({ number, accessToken }: ReturnType<typeof newNumber>) => ({
  phoneNumberId: number.phoneNumberId,
  wabaId: number.wabaId,
  accessToken,
  appSecret: APP_SECRET,
});

/**
 * The customer's message delivered to the connection's webhook as Meta would, now: it opens the
 * 24-hour window at Meta and here (free text is refused outside it). Answers the contact it made and the message's wamid.
 */
async function customerWrote(token: string, line: ReturnType<typeof newNumber>, service: { webhook: { path: string } }, text: string) {
  fake.setNow(Date.now());
  const { payload, message } = fake.inbound(line.number.phoneNumberId, CUSTOMER, { type: 'text', body: text });
  const [delivery] = await fake.deliver(payload, { url: `${runtime.url}${service.webhook.path}` });
  expect(delivery!.status).toBe(204);
  const contact = await eventually(async () => (await call('GET', '/contacts', { token })).body.data.find((c: any) => c.name === CUSTOMER.name));
  return { body: contact as { id: string }, wamid: message.id };
}

beforeAll(async () => {
  fake = await startFakeGraphApi({ appSecret: APP_SECRET });
  // A short Graph timeout, so a call the double never answers is cut in a second and a half.
  runtime = await spawnLocalRuntime({ WHATSAPP_CLOUD_GRAPH_URL: fake.url, WHATSAPP_CLOUD_GRAPH_TIMEOUT_MS: '1500' });
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
  await fake?.close();
});

describe('WhatsApp (API oficial) connections', () => {
  it('are created with credentials checked with Meta, start subscribed, and send through the queue', async () => {
    const owner = await newOwner();
    const line = newNumber();
    const created = await call('POST', '/services', {
      token: owner.token,
      body: { name: 'WhatsApp oficial', type: 'whatsapp_cloud', ...credentialsOf(line) },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'whatsapp_cloud',
      status: 'disconnected',
      displayPhoneNumber: '+55 11 3000-1000',
      verifiedName: 'Doceria da Ana',
      qualityRating: 'GREEN',
      internalData: {
        token: `••••••••${line.accessToken.slice(-4)}`,
        appSecret: `••••••••${APP_SECRET.slice(-4)}`,
        phoneNumberId: line.number.phoneNumberId,
        wabaId: line.number.wabaId,
      },
    });
    // The secrets are never answered whole, in any read.
    const read = await call('GET', `/services/${created.body.id}`, { token: owner.token });
    const list = await call('GET', '/services', { token: owner.token });
    for (const text of [JSON.stringify(created.body), JSON.stringify(read.body), JSON.stringify(list.body)]) {
      expect(text).not.toContain(line.accessToken);
      expect(text).not.toContain(APP_SECRET);
    }
    expect(read.body.verifiedName).toBe('Doceria da Ana');

    const started = await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
    expect(started.body).toMatchObject({ status: 'connected', connected: true, verifiedName: 'Doceria da Ana' });
    expect(fake.wabas.get(line.number.wabaId)?.subscribed).toBe(true);

    // The customer wrote to the number (the 24-hour window is open); the agent answers from the inbox.
    const contact = await customerWrote(owner.token, line, created.body, 'Vocês entregam hoje?');
    const answer = await call('POST', '/messages/send', {
      token: owner.token,
      body: { contactId: contact.body.id, serviceId: created.body.id, text: 'Entregamos sim, até as 18h.' },
    });
    expect(answer.status).toBeLessThan(300);
    const sent = await eventually(async () => {
      const page = await call('GET', `/messages${listQueryString({ where: { contactId: contact.body.id } })}`, { token: owner.token });
      const message = page.body.data.find((m: any) => m.text === 'Entregamos sim, até as 18h.');
      return message?.ack === 1 && message;
    }, 20_000);
    const atMeta = fake.accepted.find((s) => s.phoneNumberId === line.number.phoneNumberId && s.body.text?.body === 'Entregamos sim, até as 18h.');
    expect(atMeta?.body).toMatchObject({ to: CUSTOMER.waId, type: 'text' });
    expect(atMeta?.asyncFailure).toBeUndefined();
    expect(sent.ack).toBe(1);

    // Stopping it unsubscribes the app (no other connection uses the WABA).
    const off = await call('POST', `/services/${created.body.id}/shutdown`, { token: owner.token });
    expect(off.body.status).toBe('disconnected');
    expect(fake.wabas.get(line.number.wabaId)?.subscribed).toBe(false);
  }, 60_000);

  it('a rate limit (130429) holds the send and the message goes once Meta takes it', async () => {
    const owner = await newOwner();
    const line = newNumber();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Oficial', type: 'whatsapp_cloud', ...credentialsOf(line) } });
    await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
    const contact = await customerWrote(owner.token, line, created.body, 'Oi');
    fake.throttleNumber(line.number.phoneNumberId);
    await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.body.id, serviceId: created.body.id, text: 'Depois do limite' } });
    const refused = () => fake.sent.filter((s) => s.phoneNumberId === line.number.phoneNumberId && s.status === 400 && s.answer?.error?.code === 130429);
    await eventually(async () => refused().length >= 1, 10_000);
    const messages = async () =>
      (await call('GET', `/messages${listQueryString({ where: { contactId: contact.body.id } })}`, { token: owner.token })).body.data as any[];
    // Held, not failed, while Meta refuses.
    expect((await messages()).find((m) => m.text === 'Depois do limite')?.ack).toBe(0);
    fake.clearThrottles();
    const sent = await eventually(async () => (await messages()).find((m) => m.text === 'Depois do limite' && m.ack === 1), 20_000);
    expect(sent.ack).toBe(1);
    expect(fake.accepted.filter((s) => s.body.text?.body === 'Depois do limite')).toHaveLength(1);
  }, 60_000);

  it('a send Meta never answers is cut by the timeout and tried again; a 503 with 131016 too; a final refusal shows its meaning', async () => {
    const owner = await newOwner();
    const line = newNumber();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Oficial', type: 'whatsapp_cloud', ...credentialsOf(line) } });
    await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
    const contact = await customerWrote(owner.token, line, created.body, 'Oi');
    const messages = async () =>
      (await call('GET', `/messages${listQueryString({ where: { contactId: contact.body.id } })}`, { token: owner.token })).body.data as any[];
    const sendText = async (text: string) => {
      const answer = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.body.id, serviceId: created.body.id, text } });
      expect(answer.status).toBeLessThan(300);
    };
    const messageCalls = () => fake.calls.filter((c) => c.method === 'POST' && c.path.endsWith(`/${line.number.phoneNumberId}/messages`));
    const before = messageCalls().length;

    // Meta takes the call and never answers: the client gives up after its timeout, the queue tries again.
    fake.hangNext('messages');
    await sendText('Depois do silêncio');
    const afterHang = await eventually(async () => (await messages()).find((m) => m.text === 'Depois do silêncio' && m.ack !== 0), 30_000);
    expect(afterHang.ack).toBe(1);
    expect(
      messageCalls()
        .slice(before)
        .map((c) => c.status),
    ).toEqual([0, 200]);

    // Meta's "Service unavailable" answered 503 with its error body: tried again, then sent.
    fake.failNext('messages', 131016);
    await sendText('Depois da indisponibilidade');
    const afterOutage = await eventually(async () => (await messages()).find((m) => m.text === 'Depois da indisponibilidade' && m.ack !== 0), 30_000);
    expect(afterOutage.ack).toBe(1);
    expect(fake.sent.filter((s) => s.body.text?.body === 'Depois da indisponibilidade').map((s) => s.status)).toEqual([503, 200]);

    // A refusal that sending again cannot fix fails the message at once, with Meta's meaning in pt-BR.
    fake.failNext('messages', 131026);
    await sendText('Para um número sem WhatsApp');
    const refused = await eventually(async () => (await messages()).find((m) => m.text === 'Para um número sem WhatsApp' && m.ack !== 0), 20_000);
    expect(refused).toMatchObject({ ack: -2, error: cloudErrorMeaning(131026).text });
    expect(fake.sent.filter((s) => s.body.text?.body === 'Para um número sem WhatsApp')).toHaveLength(1);
  }, 90_000);

  it('an agent’s reaction goes to Meta as a reaction message and shows on the bubble as ours; an empty one takes it away', async () => {
    const owner = await newOwner();
    const line = newNumber();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Oficial', type: 'whatsapp_cloud', ...credentialsOf(line) } });
    await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
    const contact = await customerWrote(owner.token, line, created.body, 'O bolo chegou lindo!');
    const page = await call('GET', `/messages${listQueryString({ where: { contactId: contact.body.id } })}`, { token: owner.token });
    const theirs = page.body.data.find((m: any) => m.text === 'O bolo chegou lindo!');
    const wamid = contact.wamid;

    const reacted = await call('POST', `/messages/${theirs.id}/reaction`, { token: owner.token, body: { contactId: contact.body.id, emoji: '❤️' } });
    expect(reacted.status).toBe(200);
    expect(reacted.body.reactions).toEqual([{ emoji: '❤️', count: 1, fromMe: true }]);
    expect(fake.accepted.at(-1)!.body).toMatchObject({ to: CUSTOMER.waId, type: 'reaction', reaction: { message_id: wamid, emoji: '❤️' } });

    const removed = await call('POST', `/messages/${theirs.id}/reaction`, { token: owner.token, body: { contactId: contact.body.id, emoji: '' } });
    expect(removed.status).toBe(200);
    expect(removed.body.reactions).toEqual([]);
    expect(fake.accepted.at(-1)!.body.reaction).toEqual({ message_id: wamid, emoji: '' });

    // Meta refusing it (its own 400) answers the channel's reason and keeps the bubble as it was.
    fake.failNext('messages', 131026);
    const refused = await call('POST', `/messages/${theirs.id}/reaction`, { token: owner.token, body: { contactId: contact.body.id, emoji: '👍' } });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ path: 'emoji', message: cloudErrorMeaning(131026).text }]);
    const after = await call('GET', `/messages${listQueryString({ where: { contactId: contact.body.id } })}`, { token: owner.token });
    expect(after.body.data.find((m: any) => m.id === theirs.id).reactions).toEqual([]);
  }, 60_000);

  it('a number not yet registered on the Cloud API asks for its PIN, and is registered with it on save', async () => {
    const owner = await newOwner();
    const line = newNumber();
    line.number.registered = false;
    const body = { name: 'Oficial', type: 'whatsapp_cloud', ...credentialsOf(line) };
    const asked = await call('POST', '/services', { token: owner.token, body });
    expect(asked.status).toBe(400);
    expect(asked.body).toMatchObject({
      message: errorTexts.whatsappCloudCredentialsInvalid,
      details: [{ path: 'registrationPin', message: cloudCredentialTexts.registrationPinRequired }],
    });
    const badPin = await call('POST', '/services', { token: owner.token, body: { ...body, registrationPin: '12345' } });
    expect(badPin.body.details).toEqual([{ path: 'registrationPin', message: cloudCredentialTexts.registrationPinInvalid }]);

    const created = await call('POST', '/services', { token: owner.token, body: { ...body, registrationPin: '246810' } });
    expect(created.status).toBe(201);
    expect(line.number).toMatchObject({ registered: true, pin: '246810' });
    // The PIN is used once and kept nowhere the API answers.
    const read = await call('GET', `/services/${created.body.id}`, { token: owner.token });
    expect(JSON.stringify([created.body, read.body])).not.toContain('246810');
    const started = await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
    expect(started.body.status).toBe('connected');
  }, 60_000);

  it('refuses credentials Meta refuses with a field error, and a number already connected elsewhere', async () => {
    const owner = await newOwner();
    const line = newNumber();
    const badToken = await call('POST', '/services', {
      token: owner.token,
      body: { name: 'Oficial', type: 'whatsapp_cloud', ...credentialsOf(line), accessToken: 'EAAGunknown-token-000000' },
    });
    expect(badToken.status).toBe(400);
    expect(badToken.body).toMatchObject({
      message: errorTexts.whatsappCloudCredentialsInvalid,
      details: [{ path: 'accessToken', message: cloudCredentialTexts.accessTokenRejected }],
    });
    const badId = await call('POST', '/services', {
      token: owner.token,
      body: { name: 'Oficial', type: 'whatsapp_cloud', ...credentialsOf(line), phoneNumberId: '999999999999999' },
    });
    expect(badId.body.details).toEqual([{ path: 'phoneNumberId', message: cloudCredentialTexts.phoneNumberNotFound }]);
    const missing = await call('POST', '/services', { token: owner.token, body: { name: 'Oficial', type: 'whatsapp_cloud' } });
    expect(missing.status).toBe(400);
    expect(missing.body.details.map((d: any) => d.path).sort()).toEqual(['accessToken', 'appSecret', 'phoneNumberId', 'wabaId']);

    const first = await call('POST', '/services', { token: owner.token, body: { name: 'Oficial', type: 'whatsapp_cloud', ...credentialsOf(line) } });
    expect(first.status).toBe(201);
    const other = await newOwner();
    const second = await call('POST', '/services', { token: other.token, body: { name: 'Oficial', type: 'whatsapp_cloud', ...credentialsOf(line) } });
    expect(second.status).toBe(400);
    expect(second.body.message).toBe(errorTexts.whatsappCloudNumberInUse);

    // A new token on update is checked again; the rest of the credentials stay.
    const refused = await call('PUT', `/services/${first.body.id}`, {
      token: owner.token,
      body: { name: 'Oficial', accessToken: 'EAAGrevoked-or-unknown-0000' },
    });
    expect(refused.body.details).toEqual([{ path: 'accessToken', message: cloudCredentialTexts.accessTokenRejected }]);
    const renewed = `EAAGrenewed${Date.now()}token`;
    fake.addToken(renewed);
    const updated = await call('PUT', `/services/${first.body.id}`, { token: owner.token, body: { name: 'Oficial', accessToken: renewed } });
    expect(updated.status).toBe(200);
    expect(updated.body.internalData).toMatchObject({ token: `••••••••${renewed.slice(-4)}`, phoneNumberId: line.number.phoneNumberId });
  }, 60_000);

  it('opening a conversation marks the customer’s newest message read at Meta', async () => {
    const owner = await newOwner();
    const line = newNumber();
    const created = await call('POST', '/services', { token: owner.token, body: { name: 'Oficial', type: 'whatsapp_cloud', ...credentialsOf(line) } });
    await call('POST', `/services/${created.body.id}/start`, { token: owner.token });
    // Two messages from the customer, stored as the webhook will store them (the route comes next).
    const sink = inboundSink(runtimePorts(runtime), { accountId: owner.accountId, serviceId: created.body.id });
    const ids: string[] = [];
    for (const body of ['Bom dia', 'Vocês abrem hoje?']) {
      const { message } = fake.inbound(line.number.phoneNumberId, CUSTOMER, { type: 'text', body });
      ids.push(message.id);
      await sink.message({
        channelMessageId: message.id,
        chat: { idFromService: CUSTOMER.waId, name: CUSTOMER.name, isGroup: false, phoneNumber: CUSTOMER.waId },
        isFromMe: false,
        type: 'text',
        text: body,
        timestamp: new Date().toISOString(),
      });
    }
    const contact = await eventually(async () => (await call('GET', '/contacts', { token: owner.token })).body.data.find((c: any) => c.unread === 2), 10_000);
    const before = fake.reads.length;
    const read = await call('POST', `/contacts/${contact.id}/read`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.unread).toBe(0);
    expect(fake.reads.slice(before)).toEqual([expect.objectContaining({ phoneNumberId: line.number.phoneNumberId, messageId: ids[1] })]);
  }, 60_000);
});
