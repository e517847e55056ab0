/**
 * Plans and Stripe subscriptions end to end over the local runtime, with a fake Stripe server
 * (tests/support/fake-stripe.ts) standing in through STRIPE_API_URL, and webhook deliveries signed
 * with the SDK's own test header helper. This file starts its own runtime with the Stripe settings;
 * the shared runtime of the other integration tests has none, which is the "not configured" case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { errorTexts } from '../../shared/contracts/errors.ts';
import { freePlan, proPlanDefaults } from '../../shared/contracts/plans.ts';
import { startFakeChannel } from '../support/fake-channel.ts';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { call as callShared, newOwner as newSharedOwner } from './api.ts';

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

async function call(method: string, path: string, options: { body?: unknown; token?: string } = {}) {
  const res = await fetch(`${runtime.url}/api${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined } as { status: number; body: any };
}

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
  const socket = new WebSocket(`${runtime.url.replace('http', 'ws')}/ws?token=${encodeURIComponent(token)}`);
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
  it('is the configured price with its product, read from Stripe once and then kept for a while', async () => {
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
