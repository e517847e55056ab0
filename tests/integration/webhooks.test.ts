/**
 * Outbound webhooks (ADR-0233) on a runtime of this file's own, started with
 * WEBHOOKS_ALLOW_LOOPBACK=1 so it delivers to a real receiver on 127.0.0.1, which checks every
 * delivery's signature with `verifyWebhookSignature`. The first attempt comes from the stream; the
 * retries run through the poller's function on a moved clock: a 500 then a 200 (one event id);
 * a receiver down for a day (eight attempts, the subscription switched off, every admin mailed);
 * a stream record handled twice writes one delivery; the secret kept sealed, and after a rotation
 * signed with both secrets; an account without subscriptions gets none.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#db/keys.ts';
import { getWebhookDelivery, type WebhookDeliveryItem } from '#db/webhooks.ts';
import type { Ports } from '#domain/ports.ts';
import { deliverDueWebhooks } from '#domain/webhooks/deliver-webhooks.ts';
import { subscriptionCache } from '#domain/webhooks/subscription-cache.ts';
import { enqueueWebhookEvents } from '#domain/webhooks/webhook-events.ts';
import { verifyWebhookSignature, webhookSignatureHeader } from '#domain/webhooks/webhook-signature.ts';
import { strongPassword } from './api.ts';
import { ownRuntime } from './own-runtime.ts';
import { eventually } from './worker.ts';

// The runtime's ports are built in this process: they read these before it starts. The retries'
// own interval is pushed out of the way: the test runs the poller's function on its moved clock.
process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
process.env.WEBHOOK_RETRY_POLL_MS = String(3_600_000);

const own = ownRuntime('conversa-webhooks-', { quiet: true, channels: [], worker: false });
const { call } = own;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

/** The receiver: answers each path with its script's statuses in turn (then the last one), records every request. */
const received: Received[] = [];
const scripts = new Map<string, number[]>();
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body, json: JSON.parse(body) });
      const script = scripts.get(path) ?? [200];
      const status = script.length > 1 ? script.shift()! : script[0]!;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'falhou');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

let people = 0;
/** An owner with an account, a second admin, a WhatsApp connection and a contact. */
async function team(tag: string) {
  const email = (who: string) => `${who}.${tag}.${Date.now().toString(36)}.${++people}@example.com`;
  const ownerEmail = email('dona');
  const registered = await call('POST', '/auth/register', { body: { name: 'Dona Hook', email: ownerEmail, password: strongPassword } });
  const account = await call('POST', '/accounts', { token: registered.body.accessToken, body: { name: `Loja ${tag}` } });
  const token = account.body.accessToken as string;
  // A Pro plan's seats, as the billing webhook writes them (the free plan has one user).
  const { table } = own.ports();
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.account(account.body.id),
      UpdateExpression: 'SET #plan = :plan',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': { productName: 'Pro', users: 10, connections: 5, contacts: 25000 } },
    }),
  );
  const adminEmail = email('admin');
  const admin = await call('POST', '/users', { token, body: { name: 'Admin Hook', email: adminEmail, password: strongPassword, isAdmin: true } });
  expect(admin.status).toBe(201);
  const service = await call('POST', '/services', { token, body: { name: 'WhatsApp da loja', type: 'whatsapp' } });
  expect(service.status).toBe(201);
  const phone = `55119${String(Date.now() % 100_000_000).padStart(8, '0')}`;
  const contact = await call('POST', '/contacts', {
    token,
    body: { name: 'Cliente Hook', serviceId: service.body.id, data: { phoneNumber: phone, phoneCountry: 'BR' } },
  });
  expect(contact.status).toBe(201);
  return { token, accountId: account.body.id as string, contactId: contact.body.id as string, emails: [ownerEmail, adminEmail] };
}
type Team = Awaited<ReturnType<typeof team>>;

const note = async (t: Team, text: string) => {
  const answer = await call('POST', '/messages/notes', { token: t.token, body: { contactId: t.contactId, text } });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
};

async function subscribe(t: Team, path: string, eventTypes: string[]) {
  const answer = await call('POST', '/webhook-subscriptions', { token: t.token, body: { url: `${receiverUrl}${path}`, description: 'ERP', eventTypes } });
  expect(answer.status).toBe(201);
  expect(answer.body.secret).toMatch(/^whsec_/);
  return answer.body as { id: string; secret: string };
}

/** The runtime's ports with the clock at `at` (epoch ms): the poller in the future. */
const at = (ms: number): Ports => ({ ...own.ports(), clock: () => new Date(ms) });

async function deliveriesOf(t: Team, subscriptionId: string): Promise<WebhookDeliveryItem[]> {
  const { table } = own.ports();
  const { pk, skPrefix } = keys.webhookDeliveries(t.accountId, subscriptionId);
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
    }),
  );
  return (Items ?? []) as WebhookDeliveryItem[];
}

const signed = (secret: string, r: Received, nowSeconds = Math.floor(Date.now() / 1000)) =>
  verifyWebhookSignature(secret, r.headers[webhookSignatureHeader.toLowerCase()] as string | undefined, r.body, nowSeconds);

describe('outbound webhooks', () => {
  it('delivers a signed event at once; a 500 is retried on the moved clock with the same event id and a 200 ends it; a record handled twice is one delivery', async () => {
    const t = await team('retry');
    const subscription = await subscribe(t, '/retry', ['message.created']);
    scripts.set('/retry', [500, 200]);

    const messageId = await note(t, 'Cliente pediu o boleto');
    const first = await eventually(async () => received.find((r) => r.path === '/retry' && r.json.data?.id === messageId));
    expect(first.json).toMatchObject({
      type: 'message.created',
      accountId: t.accountId,
      data: { id: messageId, contactId: t.contactId, text: 'Cliente pediu o boleto' },
    });
    expect(first.json.id).toMatch(/^evt_/);
    expect(first.headers['conversa-event-id']).toBe(first.json.id);
    expect(signed(subscription.secret, first)).toBe(true);
    expect(signed('whsec_outro', first)).toBe(false);

    // The 500 is in the log, and the delivery waits about a minute for its next attempt.
    const [waiting] = await eventually(async () => {
      const found = await deliveriesOf(t, subscription.id);
      return found[0]?.attempts.length === 1 ? found : undefined;
    });
    expect(waiting).toMatchObject({ state: 'pending', attemptCount: 1, attempts: [{ attempt: 1, outcome: 'http_error', status: 500 }] });
    const due = Date.parse(waiting!.nextAttemptAt!);
    expect(due - Date.parse(waiting!.attempts[0]!.at)).toBeGreaterThanOrEqual(54_000);
    expect(due - Date.parse(waiting!.attempts[0]!.at)).toBeLessThanOrEqual(66_000);

    // Not due yet: nothing goes. Due: the same event again, signed at the moved clock's time.
    expect(await deliverDueWebhooks(at(due - 5_000))).toMatchObject({ delivered: 0, retry: 0, failed: 0 });
    expect((await deliverDueWebhooks(at(due + 1_000))).delivered).toBe(1);
    const retries = received.filter((r) => r.path === '/retry');
    expect(retries).toHaveLength(2);
    expect(retries[1]!.json.id).toBe(first.json.id);
    expect(retries[1]!.headers['conversa-delivery-attempt']).toBe('2');
    expect(signed(subscription.secret, retries[1]!, Math.floor((due + 1_000) / 1000))).toBe(true);
    const log = await call('GET', `/webhook-subscriptions/${subscription.id}/deliveries`, { token: t.token });
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ eventId: first.json.id, state: 'delivered', nextAttemptAt: null });
    expect(log.body.data[0].attempts.map((a: any) => [a.outcome, a.status])).toEqual([
      ['http_error', 500],
      ['success', 200],
    ]);

    // The stream handing the same record twice (at least once) writes its delivery once.
    const { table } = own.ports();
    const { Item: item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.message(t.accountId, t.contactId, messageId) }));
    const record = { recordId: 'test-record-once', change: 'INSERT' as const, next: item, previous: undefined, at: Date.now() };
    const cache = subscriptionCache();
    expect(await enqueueWebhookEvents(own.ports(), cache, [record])).toBe(1);
    expect(await enqueueWebhookEvents(own.ports(), cache, [record])).toBe(0);
    expect(await deliveriesOf(t, subscription.id)).toHaveLength(2);

    // 'Enviar evento de teste': a ping posted now, its answer returned.
    const ping = await call('POST', `/webhook-subscriptions/${subscription.id}/test`, { token: t.token });
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ eventType: 'ping', state: 'delivered', attempts: [{ outcome: 'success', status: 200 }] });
    const pinged = received.find((r) => r.json.id === ping.body.eventId)!;
    expect(signed(subscription.secret, pinged)).toBe(true);

    // The secret is kept sealed; a rotation answers a new one, and for a day every delivery is
    // signed with both, so a receiver holding either accepts it.
    const stored = (await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.webhookSubscription(t.accountId, subscription.id) }))).Item!;
    expect(JSON.stringify(stored)).not.toContain(subscription.secret);
    const rotated = await call('POST', `/webhook-subscriptions/${subscription.id}/rotate-secret`, { token: t.token });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(subscription.secret);
    expect((await call('GET', `/webhook-subscriptions/${subscription.id}`, { token: t.token })).body.secret).toBeUndefined();
    const afterRotation = await call('POST', `/webhook-subscriptions/${subscription.id}/test`, { token: t.token });
    const both = received.find((r) => r.json.id === afterRotation.body.eventId)!;
    expect(both.headers[webhookSignatureHeader.toLowerCase()]).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(signed(rotated.body.secret, both)).toBe(true);
    expect(signed(subscription.secret, both)).toBe(true);
  });

  it('a receiver down for a day: eight attempts over about 24 h, then the subscription is switched off and every admin gets an e-mail', async () => {
    const t = await team('down');
    const subscription = await subscribe(t, '/down', ['message.created']);
    scripts.set('/down', [503]);
    await note(t, 'Pedido 123 pago');
    const [delivery] = await eventually(async () => {
      const found = await deliveriesOf(t, subscription.id);
      return found[0]?.attempts.length === 1 ? found : undefined;
    });
    const started = Date.parse(delivery!.createdAt);
    let current = delivery!;
    while (current.state === 'pending') {
      await deliverDueWebhooks(at(Date.parse(current.nextAttemptAt!) + 1_000));
      current = (await getWebhookDelivery(own.ports().table, t.accountId, subscription.id, current.id))!;
    }
    expect(current.state).toBe('failed');
    expect(current.attempts).toHaveLength(8);
    expect(current.attempts.every((a) => a.outcome === 'http_error' && a.status === 503)).toBe(true);
    const lastAt = Date.parse(current.attempts.at(-1)!.at);
    expect((lastAt - started) / 3_600_000).toBeGreaterThan(21);
    expect((lastAt - started) / 3_600_000).toBeLessThan(27);
    expect(received.filter((r) => r.path === '/down').every((r) => r.json.id === current.eventId)).toBe(true);

    const read = await call('GET', `/webhook-subscriptions/${subscription.id}`, { token: t.token });
    expect(read.body).toMatchObject({ enabled: false, status: 'auto_disabled', consecutiveFailures: 8 });
    const outbox = own.runtime().outboxDir;
    const mails = await Promise.all((await readdir(outbox)).map(async (f) => JSON.parse(await readFile(join(outbox, f), 'utf8'))));
    const notices = mails.filter((m) => m.subject === 'Um webhook da sua conta no Conversa foi desativado');
    expect(notices.map((m) => m.to).sort()).toEqual([...t.emails].sort());
    expect(notices[0].text).toContain(`${receiverUrl}/down`);
    expect(notices[0].text).toContain('falharam por 24 horas seguidas');

    // Switched off, it takes no new event (a witness subscription of the account gets it);
    // 'Reativar' brings it back with its count at zero.
    await subscribe(t, '/witness', ['message.created']);
    const later = await note(t, 'Outro pedido');
    await eventually(async () => received.find((r) => r.path === '/witness' && r.json.data?.id === later));
    expect(await deliveriesOf(t, subscription.id)).toHaveLength(1);
    const enabled = await call('POST', `/webhook-subscriptions/${subscription.id}/enable`, { token: t.token });
    expect(enabled.body).toMatchObject({ status: 'active', consecutiveFailures: 0 });
  });

  it('an account without subscriptions makes no delivery, while the next account is delivered to', async () => {
    const quiet = await team('quiet');
    const busy = await team('busy');
    const subscription = await subscribe(busy, '/busy', ['message.created']);
    scripts.set('/busy', [200]);
    await note(quiet, 'Nada sai daqui');
    const after = await note(busy, 'Isto sai');
    await eventually(async () => received.find((r) => r.path === '/busy' && r.json.data?.id === after));
    expect(received.filter((r) => r.json.accountId === quiet.accountId)).toEqual([]);
    const { table } = own.ports();
    const { Items } = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': keys.accountPartition(quiet.accountId).pk, ':p': 'WEBHOOK' },
      }),
    );
    expect(Items).toEqual([]);
    expect(await deliveriesOf(busy, subscription.id)).toHaveLength(1);
  });
});
