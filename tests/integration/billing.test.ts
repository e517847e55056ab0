/**
 * Plans and Stripe subscriptions end to end over the local runtime, with a fake Stripe server
 * (tests/support/fake-stripe.ts) standing in through STRIPE_API_URL, and webhook deliveries signed
 * with the SDK's own test header helper. This file starts its own runtime with the Stripe settings;
 * the shared runtime of the other integration tests has none, which is the "not configured" case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { errorTexts } from '#contracts/errors.ts';
import { freePlan, proPlanDefaults } from '#contracts/plans.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#db/keys.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import { applyPlanLimits } from '#domain/billing/plan-limits.ts';
import { startFakeChannel } from '../support/fake-channel.ts';
import { httpDoubleChannel } from '../support/http-double-channel.ts';
import { runtimePorts } from '../support/runtime-ports.ts';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { realtimeUrl } from '../support/realtime-url.ts';
import { callAt, call as callShared, newOwner as newSharedOwner } from './api.ts';

const strongPassword = 'Senha#Forte123';
let counter = 0;
let stripe: FakeStripe;
let runtime: RunningRuntime;
let channel: { url: string; close(): Promise<void> };

beforeAll(async () => {
  stripe = await startFakeStripe();
  channel = await startFakeChannel();
  runtime = await spawnLocalRuntime({
    FAKE_CHANNEL_URL: channel.url,
    FAKE_CHANNEL_STARTS: '1',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_PRICE_ID: stripe.price.id,
    STRIPE_API_URL: stripe.url,
  });
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await channel?.close();
  await stripe?.close();
});

const call = callAt(() => runtime.url);

async function newOwner() {
  const email = `billing.${Date.now().toString(36)}.${process.pid}.${++counter}@example.com`;
  const person = await call('POST', '/auth/register', { body: { name: 'Dona Billing', email, password: strongPassword } });
  const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: 'Loja Billing' } });
  if (account.status !== 201) throw new Error(JSON.stringify(account.body));
  return { token: account.body.accessToken as string, accountId: account.body.id as string };
}

async function addMember(owner: { token: string }, isAdmin = false) {
  const email = `member.${Date.now().toString(36)}.${++counter}@example.com`;
  const created = await call('POST', '/users', { token: owner.token, body: { name: 'Pessoa', email, password: strongPassword, isAdmin } });
  const login = await call('POST', '/auth/login', { body: { email, password: strongPassword } });
  return { created, token: login.body?.accessToken as string | undefined };
}

const account = async (owner: { token: string; accountId: string }) => (await call('GET', `/accounts/${owner.accountId}`, { token: owner.token })).body;
const newConnection = (owner: { token: string }) => call('POST', '/services', { token: owner.token, body: { name: `Conexão ${++counter}`, type: 'whatsapp' } });
const webhookUrl = () => `${runtime.url}/api/webhooks/stripe`;

/** An owner who went through checkout: the account, the checkout session and the subscription at Stripe. */
async function subscribedOwner() {
  const owner = await newOwner();
  const checkout = await call('POST', '/payments/create-checkout-session', { token: owner.token, body: { priceId: stripe.price.id } });
  expect(checkout.status).toBe(200);
  const sessionId = /\/pay\/(cs_test_\w+)$/.exec(checkout.body.url)![1]!;
  const { session, subscription } = stripe.completeCheckout(sessionId);
  const delivered = await stripe.deliver(webhookUrl(), stripe.event('checkout.session.completed', session));
  expect(delivered.status).toBe(200);
  return { owner, sessionId, subscriptionId: subscription.id as string };
}

async function listen(token: string) {
  const socket = new WebSocket(await realtimeUrl(runtime.url, token));
  const events: { event: string; data: any }[] = [];
  socket.on('message', (data) => events.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    async waitFor(predicate: (e: { event: string; data: any }) => boolean, ms = 8000) {
      const until = Date.now() + ms;
      for (;;) {
        const found = events.find(predicate);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no such event; got ${events.map((e) => e.event).join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => socket.close(),
  };
}

describe('without a Stripe key (the shared runtime)', () => {
  it("answers 503 'Payments are not configured' for products, checkout, the portal and the webhook", async () => {
    const owner = await newSharedOwner();
    const notConfigured = { statusCode: 503, error: 'Service Unavailable', message: errorTexts.paymentsNotConfigured };
    expect((await callShared('GET', '/payments/products', { token: owner.token })).body).toEqual(notConfigured);
    expect((await callShared('POST', '/payments/create-checkout-session', { token: owner.token, body: {} })).body).toEqual(notConfigured);
    expect((await callShared('POST', '/payments/portal-session', { token: owner.token })).body).toEqual(notConfigured);
    expect((await callShared('POST', '/webhooks/stripe', { body: { id: 'evt_1' }, headers: { 'stripe-signature': 't=1,v1=x' } })).body).toEqual(notConfigured);
  });
});

describe('the product', () => {
  it('is the configured price with its product, read from Stripe into the table at start and answered from there (ADR-0228)', async () => {
    const owner = await newOwner();
    const first = await call('GET', '/payments/products', { token: owner.token });
    const second = await call('GET', '/payments/products', { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual([
      { id: stripe.product.id, name: 'Pro', prices: [{ id: stripe.price.id, unit_amount: 9990, currency: 'brl', interval: 'month' }] },
    ]);
    expect(second.body).toEqual(first.body);
    expect(stripe.requests.filter((r) => r.path === `/v1/prices/${stripe.price.id}`)).toHaveLength(1);
  });

  it("follows a price change at Stripe once Stripe's price.updated event arrives, not before", async () => {
    const owner = await newOwner();
    const amount = stripe.price.unit_amount;
    stripe.price.unit_amount = 12990;
    try {
      const before = await call('GET', '/payments/products', { token: owner.token });
      expect(before.body[0].prices[0].unit_amount).toBe(amount);
      expect((await stripe.deliver(webhookUrl(), stripe.event('price.updated', stripe.price))).body).toEqual({ received: true });
      const after = await call('GET', '/payments/products', { token: owner.token });
      expect(after.body[0].prices[0].unit_amount).toBe(12990);
    } finally {
      stripe.price.unit_amount = amount;
      await stripe.deliver(webhookUrl(), stripe.event('price.updated', stripe.price));
    }
    expect((await call('GET', '/payments/products', { token: owner.token })).body[0].prices[0].unit_amount).toBe(amount);
  });

  it('needs a signed-in member of an account', async () => {
    expect((await call('GET', '/payments/products')).status).toBe(401);
  });
});

describe('checkout', () => {
  it('is a subscription Checkout for a customer created once and remembered on the account, back to /my-account', async () => {
    const owner = await newOwner();
    const customersBefore = stripe.customers.size;
    const first = await call('POST', '/payments/create-checkout-session', { token: owner.token, body: { priceId: stripe.price.id } });
    const second = await call('POST', '/payments/create-checkout-session', { token: owner.token, body: {} });
    expect(first.status).toBe(200);
    expect(first.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    expect(second.body.url).not.toBe(first.body.url);
    expect(stripe.customers.size).toBe(customersBefore + 1);
    const [request] = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').slice(-1);
    const customer = [...stripe.customers.values()].at(-1)!;
    expect(customer.metadata).toEqual({ accountId: owner.accountId });
    expect(request!.params).toMatchObject({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: owner.accountId,
      line_items: [{ price: stripe.price.id, quantity: '1' }],
      subscription_data: { metadata: { accountId: owner.accountId } },
      success_url: expect.stringMatching(/\/my-account\?checkout=success&session_id=\{CHECKOUT_SESSION_ID\}$/),
      cancel_url: expect.stringMatching(/\/my-account\?checkout=canceled$/),
    });
    // Payment methods come from the Stripe account's settings (card, boleto...), not from us.
    expect(request!.params.payment_method_types).toBeUndefined();
  });

  it('refuses a price that is not the product’s', async () => {
    const owner = await newOwner();
    const answer = await call('POST', '/payments/create-checkout-session', { token: owner.token, body: { priceId: 'price_someone_elses' } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(errorTexts.invalidParams);
  });

  it('and the billing portal are for admins only', async () => {
    // Free plan: one user. Upgrade first so a member fits.
    const { owner: pro } = await subscribedOwner();
    const member = await addMember(pro);
    expect(member.created.status).toBe(201);
    expect((await call('POST', '/payments/create-checkout-session', { token: member.token, body: {} })).status).toBe(403);
    expect((await call('POST', '/payments/portal-session', { token: member.token })).status).toBe(403);
  });

  it('answers the account its own checkout session, and not another account’s', async () => {
    const { owner, sessionId } = await subscribedOwner();
    const mine = await call('GET', `/payments/checkout-session?session_id=${sessionId}`, { token: owner.token });
    expect(mine.body).toEqual({ id: sessionId, status: 'complete', payment_status: 'paid', subscriptionId: expect.stringMatching(/^sub_/) });
    const stranger = await newOwner();
    expect((await call('GET', `/payments/checkout-session?sessionId=${sessionId}`, { token: stranger.token })).status).toBe(404);
    expect((await call('GET', '/payments/checkout-session', { token: owner.token })).status).toBe(400);
  });
});

describe('the subscription through webhooks', () => {
  it('upgrade through checkout: the account gets the Pro plan and its subscription, announced as account.UPDATED', async () => {
    const owner = await newOwner();
    expect((await newConnection(owner)).status).toBe(201);
    const refused = await newConnection(owner);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ error: 'Payment Required', message: 'The maximum number of services allowed on the account has been reached' });
    expect((await addMember(owner)).created.body.message).toBe('The maximum number of contacts or users allowed on the account has been reached');

    const events = await listen(owner.token);
    const checkout = await call('POST', '/payments/create-checkout-session', { token: owner.token, body: {} });
    const { session, subscription } = stripe.completeCheckout(/\/pay\/(\w+)$/.exec(checkout.body.url)![1]!);
    expect((await stripe.deliver(webhookUrl(), stripe.event('checkout.session.completed', session))).body).toEqual({ received: true });

    const updated = await events.waitFor((e) => e.event === 'account.UPDATED' && e.data.plan?.productName === 'Pro');
    events.close();
    const item = subscription.items.data[0];
    expect(updated.data.plan).toEqual(proPlanDefaults);
    expect(updated.data.subscription).toEqual({
      status: 'active',
      current_period_start: item.current_period_start,
      current_period_end: item.current_period_end,
      cancel_at_period_end: false,
      plan: { amount: 9990, interval: 'month' },
    });
    expect((await account(owner)).plan).toEqual(proPlanDefaults);
    expect((await newConnection(owner)).status).toBe(201);
    expect((await addMember(owner)).created.status).toBe(201);
  });

  it('renewal moves the period forward on invoice.paid', async () => {
    const { owner, subscriptionId } = await subscribedOwner();
    const renewed = stripe.renew(subscriptionId);
    await stripe.deliver(webhookUrl(), stripe.event('invoice.paid', stripe.invoice(subscriptionId, true)));
    const { subscription } = await account(owner);
    expect(subscription.current_period_start).toBe(renewed.items.data[0].current_period_start);
    expect(subscription.current_period_end).toBe(renewed.items.data[0].current_period_end);
    expect(subscription.status).toBe('active');
  });

  it('scheduled cancellation keeps Pro until the period ends', async () => {
    const { owner, subscriptionId } = await subscribedOwner();
    const updated = stripe.update(subscriptionId, { cancel_at_period_end: true });
    await stripe.deliver(webhookUrl(), stripe.event('customer.subscription.updated', updated));
    const after = await account(owner);
    expect(after.subscription).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(after.plan.productName).toBe('Pro');
  });

  it('past due keeps Pro while Stripe retries the payment, and paid brings it back to active', async () => {
    const { owner, subscriptionId } = await subscribedOwner();
    stripe.update(subscriptionId, { status: 'past_due' });
    await stripe.deliver(webhookUrl(), stripe.event('invoice.payment_failed', stripe.invoice(subscriptionId, false)));
    expect((await account(owner)).subscription.status).toBe('past_due');
    expect((await account(owner)).plan.productName).toBe('Pro');
    stripe.update(subscriptionId, { status: 'active' });
    await stripe.deliver(webhookUrl(), stripe.event('invoice.paid', stripe.invoice(subscriptionId, true)));
    expect((await account(owner)).subscription.status).toBe('active');
  });

  it('deletion ends the plan: back to Free limits, with the canceled subscription shown', async () => {
    const { owner, subscriptionId } = await subscribedOwner();
    expect((await newConnection(owner)).status).toBe(201);
    expect((await newConnection(owner)).status).toBe(201);
    await stripe.deliver(webhookUrl(), stripe.event('customer.subscription.deleted', stripe.cancel(subscriptionId)));
    const after = await account(owner);
    expect(after.plan).toEqual(freePlan);
    expect(after.subscription.status).toBe('canceled');
    const refused = await newConnection(owner);
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe('The maximum number of services allowed on the account has been reached');
    // Nothing is deleted: both connections are still there.
    expect((await call('GET', '/services', { token: owner.token })).body.totalCount).toBe(2);
  });

  it('limits come from the price’s or the product’s metadata, with the Pro defaults for the rest', async () => {
    stripe.product.metadata = { users: '4', connections: '9' };
    stripe.price.metadata = { connections: '2' };
    try {
      const { owner } = await subscribedOwner();
      expect((await account(owner)).plan).toEqual({ productName: 'Pro', users: 4, connections: 2, contacts: proPlanDefaults.contacts });
    } finally {
      stripe.product.metadata = {};
      stripe.price.metadata = {};
    }
  });

  it('the billing portal opens for the account’s customer, back to /my-account', async () => {
    const fresh = await newOwner();
    const none = await call('POST', '/payments/portal-session', { token: fresh.token });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(errorTexts.noSubscription);
    const { owner } = await subscribedOwner();
    const portal = await call('POST', '/payments/portal-session', { token: owner.token });
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    expect(stripe.requests.at(-1)!.params.return_url).toMatch(/\/my-account$/);
  });

  it('a second checkout is refused while the subscription is live', async () => {
    const { owner } = await subscribedOwner();
    const again = await call('POST', '/payments/create-checkout-session', { token: owner.token, body: {} });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(errorTexts.alreadySubscribed);
  });
});

describe('webhook deliveries', () => {
  it('with a bad signature, no signature, or a signature too old are refused with 400 and change nothing', async () => {
    const { owner, subscriptionId } = await subscribedOwner();
    const updated = stripe.update(subscriptionId, { cancel_at_period_end: true });
    const event = stripe.event('customer.subscription.updated', updated);
    for (const options of [{ secret: 'whsec_wrong' }, { signature: null }, { timestamp: Math.floor(Date.now() / 1000) - 3600 }, { signature: 'garbage' }]) {
      const answer = await stripe.deliver(webhookUrl(), event, options);
      expect(answer.status, JSON.stringify(options)).toBe(400);
      expect(answer.body.message).toBe(errorTexts.invalidSignature);
    }
    expect((await account(owner)).subscription.cancel_at_period_end).toBe(false);
  });

  it('replayed (the same event id again) are acknowledged and not handled twice', async () => {
    const { owner, subscriptionId } = await subscribedOwner();
    const event = stripe.event('customer.subscription.updated', stripe.update(subscriptionId, { cancel_at_period_end: true }));
    expect((await stripe.deliver(webhookUrl(), event)).body).toEqual({ received: true });
    const reads = stripe.requests.filter((r) => r.path === `/v1/subscriptions/${subscriptionId}`).length;
    stripe.update(subscriptionId, { cancel_at_period_end: false });
    expect((await stripe.deliver(webhookUrl(), event)).body).toEqual({ received: true, duplicate: true });
    expect(stripe.requests.filter((r) => r.path === `/v1/subscriptions/${subscriptionId}`)).toHaveLength(reads);
    expect((await account(owner)).subscription.cancel_at_period_end).toBe(true);
  });

  it('that arrive out of order never move the account backwards', async () => {
    const { owner, subscriptionId } = await subscribedOwner();
    const created = stripe.event('customer.subscription.created', structuredClone(stripe.subscriptions.get(subscriptionId)!));
    const failed = stripe.event('invoice.payment_failed', stripe.invoice(subscriptionId, false));
    const scheduled = stripe.event('customer.subscription.updated', stripe.update(subscriptionId, { cancel_at_period_end: true }));
    await stripe.deliver(webhookUrl(), scheduled);
    // Older events come late: the created snapshot (no cancellation) and a payment failure already settled.
    await stripe.deliver(webhookUrl(), created);
    await stripe.deliver(webhookUrl(), failed);
    expect((await account(owner)).subscription).toMatchObject({ status: 'active', cancel_at_period_end: true });

    // After deletion, a late "updated: active" does not bring the plan back.
    const active = stripe.event('customer.subscription.updated', structuredClone(stripe.subscriptions.get(subscriptionId)!));
    await stripe.deliver(webhookUrl(), stripe.event('customer.subscription.deleted', stripe.cancel(subscriptionId)));
    await stripe.deliver(webhookUrl(), active);
    const after = await account(owner);
    expect(after.subscription.status).toBe('canceled');
    expect(after.plan).toEqual(freePlan);
  });

  it('about an old, ended subscription do not replace the live one that followed it', async () => {
    const { owner, subscriptionId: first } = await subscribedOwner();
    await stripe.deliver(webhookUrl(), stripe.event('customer.subscription.deleted', stripe.cancel(first)));
    const checkout = await call('POST', '/payments/create-checkout-session', { token: owner.token, body: {} });
    const { session, subscription } = stripe.completeCheckout(/\/pay\/(\w+)$/.exec(checkout.body.url)![1]!);
    await stripe.deliver(webhookUrl(), stripe.event('checkout.session.completed', session));
    expect((await account(owner)).subscription.status).toBe('active');
    // The first subscription's deletion is delivered again, late (a new event id).
    await stripe.deliver(webhookUrl(), stripe.event('customer.subscription.deleted', structuredClone(stripe.subscriptions.get(first)!)));
    const after = await account(owner);
    expect(after.subscription.status).toBe('active');
    expect(after.plan.productName).toBe('Pro');
    expect(subscription.id).not.toBe(first);
  });

  it('of other event types are acknowledged and ignored', async () => {
    const answer = await stripe.deliver(webhookUrl(), stripe.event('customer.created', { id: 'cus_x', object: 'customer' }));
    expect(answer).toEqual({ status: 200, body: { received: true } });
  });
});

describe('over the limit after a downgrade or a cancellation', () => {
  /** Polls until `check` passes: the plan-limit consumer works from the table's stream, after the webhook answered. */
  async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 10_000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (check(value)) return value;
      if (Date.now() > until) throw new Error(`still not there: ${JSON.stringify(value)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const byCreation = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
    a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

  it('archives and stops what no longer fits, newest first, keeps counters true, refuses creates, and brings it all back on an upgrade', async () => {
    // A small Pro: 3 users, 3 connections, 4 contacts (from the price's metadata).
    stripe.price.metadata = { users: '3', connections: '3', contacts: '4' };
    let subscribed: Awaited<ReturnType<typeof subscribedOwner>>;
    try {
      subscribed = await subscribedOwner();
    } finally {
      stripe.price.metadata = {};
    }
    const { owner, subscriptionId } = subscribed;
    const get = async (path: string) => (await call('GET', path, { token: owner.token })).body;
    const all = async (kind: 'users' | 'services' | 'contacts') =>
      ((await get(`/${kind}?query=${encodeURIComponent(JSON.stringify({ perPage: 100 }))}`)).data as any[]).sort(byCreation);
    const usage = () => get(`/accounts/${owner.accountId}/usage`);
    const active = (items: any[]) => items.filter((i) => !i.archivedAt).map((i) => i.id);
    const running = (items: any[]) => items.filter((s) => s.status !== 'disconnected').map((s) => s.id);

    // Three users, three running connections; four active contacts, one archived by hand, and one
    // stored archived by the limit at creation (the plan was full).
    for (let i = 0; i < 2; i++) expect((await addMember(owner)).created.status).toBe(201);
    const services: string[] = [];
    for (let i = 0; i < 3; i++) services.push((await newConnection(owner)).body.id);
    for (const id of services) expect((await call('POST', `/services/${id}/start`, { token: owner.token })).status).toBe(200);
    const contacts: string[] = [];
    const newContact = async () => {
      const i = contacts.length;
      const created = await call('POST', '/contacts', {
        token: owner.token,
        body: { name: `Cliente ${i}`, serviceId: services[0], data: { phoneNumber: `+55 11 9${String(8000_0000 + i)}`, phoneCountry: 'BR' } },
      });
      expect(created.status).toBe(201);
      contacts.push(created.body.id);
      return created.body;
    };
    for (let i = 0; i < 4; i++) await newContact();
    expect((await call('POST', `/contacts/${contacts[3]}/archive`, { token: owner.token, body: { archive: true } })).status).toBe(200);
    await newContact();
    expect((await newContact()).archivedReason).toBe('limit');
    const [c0, c1, c2, c3, c4, c5] = contacts as [string, string, string, string, string, string];
    const users = await all('users');
    const ownerId = users.find((u) => u.isOwner).id;
    expect(await usage()).toEqual({ users: 3, connections: 3, contacts: 4 });

    // The plan changes to 2 contacts: the two least recently active (never written to: the oldest) are archived.
    stripe.subscriptions.get(subscriptionId)!.items.data[0].price.metadata = { users: '3', connections: '3', contacts: '2' };
    await stripe.deliver(webhookUrl(), stripe.event('customer.subscription.updated', stripe.update(subscriptionId, {})));
    await eventually(usage, (u) => u.contacts === 2);
    const smaller = await all('contacts');
    expect(active(smaller).sort()).toEqual([c2, c4].sort());
    const reasons = Object.fromEntries(smaller.map((c) => [c.id, c.archivedReason]));
    expect([reasons[c0], reasons[c1], reasons[c3], reasons[c5]]).toEqual(['limit', 'limit', 'manual', 'limit']);
    const refusedUnarchive = await call('POST', `/contacts/${c0}/archive`, { token: owner.token, body: { archive: false } });
    expect(refusedUnarchive.status).toBe(402);
    expect(refusedUnarchive.body.message).toBe('The maximum number of contacts or users allowed on the account has been reached');

    // Cancellation: Free (1 user, 1 connection, 1,000 contacts).
    await stripe.deliver(webhookUrl(), stripe.event('customer.subscription.deleted', stripe.cancel(subscriptionId)));
    await eventually(
      async () => ({ users: await all('users'), services: await all('services') }),
      ({ users: u, services: s }) => active(u).length === 1 && running(s).length === 1,
    );
    const freeUsers = await all('users');
    expect(active(freeUsers)).toEqual([ownerId]);
    expect(freeUsers.every((u) => u.isOwner || u.archivedAt)).toBe(true);
    // The API says why: the plan's limit, not an administrator.
    for (const u of freeUsers.filter((u) => !u.isOwner)) expect(u.archivedReason).toBe('limit');
    expect(freeUsers.find((u) => u.isOwner).archivedReason).toBeNull();
    const freeServices = await all('services');
    expect(running(freeServices)).toEqual([services[0]]);
    for (const s of freeServices.slice(1)) {
      expect(s.status).toBe('disconnected');
      expect(s.statusReason).toMatch(/plano da conta permite menos conexões/);
    }
    // Free has room for 1,000 contacts: those the limit archived are back; the one archived by hand is not.
    await eventually(usage, (u) => u.contacts === 5);
    expect(active(await all('contacts')).sort()).toEqual([c0, c1, c2, c4, c5].sort());
    // Nothing was deleted, and the counters are what is stored.
    expect(await usage()).toEqual({ users: 3, connections: 3, contacts: 5 });

    // Creates are refused with the catalogue's texts; what is beyond the limit stays put.
    const user = await addMember(owner);
    expect(user.created.status).toBe(402);
    expect(user.created.body).toMatchObject({
      error: 'Payment Required',
      message: 'The maximum number of contacts or users allowed on the account has been reached',
    });
    const connection = await newConnection(owner);
    expect(connection.status).toBe(402);
    expect(connection.body).toMatchObject({ error: 'Payment Required', message: 'The maximum number of services allowed on the account has been reached' });
    const start = await call('POST', `/services/${services[2]}/start`, { token: owner.token });
    expect(start.status).toBe(402);
    expect(start.body.message).toBe('The maximum number of services allowed on the account has been reached');
    const archivedMember = freeUsers.find((u) => !u.isOwner)!;
    const unarchive = await call('POST', `/users/${archivedMember.id}/archive`, { token: owner.token, body: { archive: false } });
    expect(unarchive.status).toBe(402);
    expect(unarchive.body.message).toBe('The maximum number of contacts or users allowed on the account has been reached');

    // Upgrade again (Pro defaults): the members and connections come back.
    const checkout = await call('POST', '/payments/create-checkout-session', { token: owner.token, body: {} });
    const { session } = stripe.completeCheckout(/\/pay\/(\w+)$/.exec(checkout.body.url)![1]!);
    await stripe.deliver(webhookUrl(), stripe.event('checkout.session.completed', session));
    await eventually(
      async () => ({ users: await all('users'), services: await all('services') }),
      ({ users: u, services: s }) => active(u).length === 3 && running(s).length === 3,
    );
    expect((await all('services')).every((s) => s.statusReason === null)).toBe(true);
    expect(active(await all('contacts')).sort()).toEqual([c0, c1, c2, c4, c5].sort());
    expect(await usage()).toEqual({ users: 3, connections: 3, contacts: 5 });
    expect((await newConnection(owner)).status).toBe(201);
  }, 60_000);
  it('resumes after a crash half-way: a second run finishes the work, counters equal what is stored, a third changes nothing', async () => {
    const owner = await newOwner();
    const ports = { ...runtimePorts(runtime), channels: channelRegistry([httpDoubleChannel(channel.url, 'whatsapp', { starts: true })]) };
    // The plan is written straight to the table (no billing write, so the runtime's consumer stays out of it).
    const setLimits = (users: number, connections: number, contacts: number) =>
      ports.table.doc.send(
        new UpdateCommand({
          TableName: ports.table.name,
          Key: keys.account(owner.accountId),
          UpdateExpression: 'SET #plan = :plan',
          ExpressionAttributeNames: { '#plan': 'plan' },
          ExpressionAttributeValues: { ':plan': { productName: 'Pro', users, connections, contacts } },
        }),
      );
    await setLimits(3, 3, 4);
    for (let i = 0; i < 2; i++) await addMember(owner);
    for (let i = 0; i < 3; i++) {
      const { body } = await newConnection(owner);
      await call('POST', `/services/${body.id}/start`, { token: owner.token });
    }
    const service = (await call('GET', '/services', { token: owner.token })).body.data[0].id;
    for (let i = 0; i < 4; i++) {
      const body = { name: `Cliente ${i}`, serviceId: service, data: { phoneNumber: `+55 21 9${String(7000_0000 + i)}`, phoneCountry: 'BR' } };
      expect((await call('POST', '/contacts', { token: owner.token, body })).status).toBe(201);
    }
    await setLimits(1, 1, 1);

    // The process dies at its fourth write (after two users and one connection).
    let writes = 0;
    const send = ports.table.doc.send.bind(ports.table.doc);
    const dying = {
      ...ports,
      table: {
        ...ports.table,
        doc: {
          send: (command: any) => {
            if (command.constructor.name !== 'GetCommand' && command.constructor.name !== 'QueryCommand' && ++writes === 4) {
              return Promise.reject(new Error('the process died'));
            }
            return send(command);
          },
        } as any,
      },
    };
    await expect(applyPlanLimits(dying, owner.accountId)).rejects.toThrow('the process died');
    const stored = async () => {
      const get = async (path: string) => (await call('GET', path, { token: owner.token })).body;
      const list = (kind: string) => get(`/${kind}?query=${encodeURIComponent(JSON.stringify({ perPage: 100 }))}`);
      const [users, services, contacts, usage] = await Promise.all([
        list('users'),
        list('services'),
        list('contacts'),
        get(`/accounts/${owner.accountId}/usage`),
      ]);
      return {
        usage,
        counted: { users: users.totalCount, connections: services.totalCount, contacts: contacts.data.filter((c: any) => !c.archivedAt).length },
        activeUsers: users.data.filter((u: any) => !u.archivedAt).length,
        running: services.data.filter((x: any) => x.status !== 'disconnected').length,
      };
    };
    const halfWay = await stored();
    expect(halfWay.usage).toEqual(halfWay.counted);
    expect(halfWay.activeUsers).toBe(1);

    const second = await applyPlanLimits(ports, owner.accountId);
    expect(second.usersArchived).toBe(0);
    expect(second.contactsArchived).toBe(3);
    const done = await stored();
    expect(done).toEqual({ usage: { users: 3, connections: 3, contacts: 1 }, counted: { users: 3, connections: 3, contacts: 1 }, activeUsers: 1, running: 1 });
    expect(Object.values(await applyPlanLimits(ports, owner.accountId)).every((n) => n === 0)).toBe(true);
  }, 60_000);
});
