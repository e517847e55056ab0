/**
 * A stand-in for the Stripe API that speaks its wire format, for the `stripe` SDK pointed at it by
 * host and port (STRIPE_API_URL):
 *   requests   form-encoded bodies and query strings in the SDK's bracket notation
 *              (`line_items[0][price]=...`, `expand[0]=product`), `Authorization: Bearer <key>`,
 *              `Idempotency-Key` honoured on POSTs
 *   answers    JSON objects with `object` and `id`, lists as `{ object: 'list', data, has_more, url }`,
 *              errors as `{ error: { type, code?, message, param? } }` with Stripe's status codes
 * Endpoints: GET /v1/prices/{id}, GET /v1/prices (lookup_keys), POST /v1/customers,
 * POST /v1/checkout/sessions, GET /v1/checkout/sessions/{id}, POST /v1/billing_portal/sessions,
 * GET /v1/subscriptions/{id} (expanding `product`, `data.product` and `items.data.price.product`).
 * Tests play the customer and Stripe's billing: complete a checkout, renew, schedule a cancellation,
 * fail a payment, delete a subscription; and deliver events signed with the SDK's own test header.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

type Json = Record<string, any>;

const day = 24 * 60 * 60;

/** Parses `a[b][0][c]=v&...` into nested objects, as Stripe's servers read the SDK's encoding. */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const path = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: any = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
    });
  }
  return root;
}

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; message: string; param?: string },
  ) {
    super(body.message);
  }
}

const missing = (kind: string, id: string, param = 'id') =>
  new StripeFailure(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param });

export interface FakeStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  price: Json;
  product: Json;
  customers: Map<string, Json>;
  checkoutSessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  /** Every request the SDK made: method, path, parsed body or query. */
  requests: { method: string; path: string; params: Json; idempotencyKey?: string }[];
  /** The customer pays: the session completes and an active subscription starts now. */
  completeCheckout(sessionId: string, at?: number): { session: Json; subscription: Json };
  /** A new period: starts where the last ended. */
  renew(subscriptionId: string): Json;
  /** Changes a subscription as Stripe would (status, cancel_at_period_end), answering its new state. */
  update(subscriptionId: string, changes: { status?: string; cancel_at_period_end?: boolean }): Json;
  /** Ends a subscription now (status canceled). */
  cancel(subscriptionId: string): Json;
  /** An invoice of the subscription's current period, paid or not. */
  invoice(subscriptionId: string, paid: boolean): Json;
  /** An event as Stripe sends it, with a snapshot of the object. */
  event(type: string, object: Json, created?: number): Json;
  /** Posts an event to a webhook URL, signed with the SDK's test header helper (or another secret or time). */
  deliver(url: string, event: Json, options?: { secret?: string; timestamp?: number; signature?: string | null }): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startFakeStripe(options: { productMetadata?: Json; priceMetadata?: Json } = {}): Promise<FakeStripe> {
  const secretKey = 'sk_test_fake_conversa';
  const webhookSecret = 'whsec_fake_conversa';
  let counter = 0;
  const newId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++counter).toString().padStart(6, '0')}`;
  const now = () => Math.floor(Date.now() / 1000);

  const product: Json = {
    id: 'prod_fake_pro',
    object: 'product',
    active: true,
    name: 'Pro',
    description: 'Plano Pro',
    metadata: options.productMetadata ?? {},
    livemode: false,
    created: now(),
  };
  const price: Json = {
    id: 'price_fake_pro_monthly',
    object: 'price',
    active: true,
    currency: 'brl',
    unit_amount: 9990,
    lookup_key: 'conversa_pro_monthly',
    product: product.id,
    recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
    type: 'recurring',
    metadata: options.priceMetadata ?? {},
    livemode: false,
    created: now(),
  };
  const customers = new Map<string, Json>();
  const checkoutSessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const idempotent = new Map<string, { status: number; body: Json }>();
  const requests: FakeStripe['requests'] = [];

  const expanded = (value: Json, expand: string[]) => {
    const copy = structuredClone(value);
    if (copy.object === 'price' && (expand.includes('product') || expand.includes('data.product'))) copy.product = structuredClone(product);
    if (copy.object === 'subscription' && expand.includes('items.data.price.product')) {
      for (const item of copy.items.data) item.price.product = structuredClone(product);
    }
    return copy;
  };

  const subscriptionItem = (subscriptionId: string, start: number) => ({
    id: newId('si'),
    object: 'subscription_item',
    created: start,
    current_period_start: start,
    current_period_end: start + 30 * day,
    metadata: {},
    price: structuredClone(price),
    quantity: 1,
    subscription: subscriptionId,
  });

  function route(method: string, path: string, params: Json): Json {
    const expand: string[] = params.expand ?? [];
    /** The id in `path` when it matches `prefix/{id}` for this method. */
    const idAt = (verb: string, prefix: string) =>
      method === verb && path.startsWith(`${prefix}/`) && !path.slice(prefix.length + 1).includes('/') ? path.slice(prefix.length + 1) : null;
    const priceId = idAt('GET', '/v1/prices');
    const sessionId = idAt('GET', '/v1/checkout/sessions');
    const subscriptionId = idAt('GET', '/v1/subscriptions');
    if (priceId) {
      if (priceId !== price.id) throw missing('price', priceId);
      return expanded(price, expand);
    }
    if (method === 'GET' && path === '/v1/prices') {
      const keys: string[] = params.lookup_keys ?? [];
      const data = !keys.length || keys.includes(price.lookup_key) ? [expanded(price, expand)] : [];
      return { object: 'list', data, has_more: false, url: '/v1/prices' };
    }
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        name: params.name ?? null,
        email: params.email ?? null,
        metadata: params.metadata ?? {},
        created: now(),
        livemode: false,
      };
      customers.set(customer.id, customer);
      return customer;
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (params.mode !== 'subscription')
        throw new StripeFailure(400, { type: 'invalid_request_error', message: 'Fake Stripe only sells subscriptions', param: 'mode' });
      if (!customers.has(params.customer)) throw missing('customer', params.customer, 'customer');
      const line = params.line_items?.[0];
      if (line?.price !== price.id) throw missing('price', line?.price ?? '', 'line_items[0][price]');
      if (!params.success_url)
        throw new StripeFailure(400, { type: 'invalid_request_error', message: 'Missing required param: success_url.', param: 'success_url' });
      const id = newId('cs_test');
      const session = {
        id,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'open',
        payment_status: 'unpaid',
        customer: params.customer,
        client_reference_id: params.client_reference_id ?? null,
        subscription: null,
        success_url: params.success_url,
        cancel_url: params.cancel_url ?? null,
        metadata: params.metadata ?? {},
        subscription_data: params.subscription_data ?? {},
        url: `https://checkout.stripe.test/c/pay/${id}`,
        created: now(),
        livemode: false,
      };
      checkoutSessions.set(id, session);
      return session;
    }
    if (sessionId) {
      const session = checkoutSessions.get(sessionId);
      if (!session) throw missing('checkout.session', sessionId);
      const { subscription_data: _, ...answer } = session;
      return structuredClone(answer);
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!customers.has(params.customer)) throw missing('customer', params.customer, 'customer');
      const id = newId('bps');
      return {
        id,
        object: 'billing_portal.session',
        customer: params.customer,
        return_url: params.return_url ?? null,
        url: `https://billing.stripe.test/p/session/${id}`,
        created: now(),
        livemode: false,
      };
    }
    if (subscriptionId) {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw missing('subscription', subscriptionId);
      return expanded(sub, expand);
    }
    throw new StripeFailure(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const params = parseStripeForm(method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString('utf8'));
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? undefined;
    requests.push({ method, path: url.pathname, params, idempotencyKey });
    const send = (status: number, body: Json) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), 'stripe-version': Stripe.API_VERSION });
      res.end(text);
    };
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_****' } });
    }
    const remembered = idempotencyKey && method === 'POST' ? idempotent.get(`${url.pathname}\n${idempotencyKey}`) : undefined;
    if (remembered) return send(remembered.status, remembered.body);
    let answer: { status: number; body: Json };
    try {
      answer = { status: 200, body: route(method, url.pathname, params) };
    } catch (error) {
      if (!(error instanceof StripeFailure)) throw error;
      answer = { status: error.status, body: { error: error.body } };
    }
    if (idempotencyKey && method === 'POST') idempotent.set(`${url.pathname}\n${idempotencyKey}`, answer);
    send(answer.status, answer.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  const subscription = (id: string) => {
    const sub = subscriptions.get(id);
    if (!sub) throw new Error(`no subscription ${id}`);
    return sub;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    price,
    product,
    customers,
    checkoutSessions,
    subscriptions,
    requests,
    completeCheckout(sessionId, at = now()) {
      const session = checkoutSessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      const id = newId('sub');
      const sub = {
        id,
        object: 'subscription',
        status: 'active',
        customer: session.customer,
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        created: at,
        start_date: at,
        currency: 'brl',
        metadata: session.subscription_data?.metadata ?? {},
        items: { object: 'list', data: [subscriptionItem(id, at)], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
        latest_invoice: null,
        livemode: false,
      };
      subscriptions.set(id, sub);
      Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: id });
      const { subscription_data: _, ...shown } = session;
      return { session: structuredClone(shown), subscription: structuredClone(sub) };
    },
    renew(subscriptionId) {
      const sub = subscription(subscriptionId);
      const item = sub.items.data[0];
      item.current_period_start = item.current_period_end;
      item.current_period_end = item.current_period_start + 30 * day;
      sub.status = 'active';
      return structuredClone(sub);
    },
    update(subscriptionId, changes) {
      const sub = subscription(subscriptionId);
      Object.assign(sub, changes);
      if (changes.cancel_at_period_end !== undefined) {
        sub.cancel_at = changes.cancel_at_period_end ? sub.items.data[0].current_period_end : null;
        sub.canceled_at = changes.cancel_at_period_end ? now() : null;
      }
      return structuredClone(sub);
    },
    cancel(subscriptionId) {
      const sub = subscription(subscriptionId);
      Object.assign(sub, { status: 'canceled', ended_at: now(), canceled_at: sub.canceled_at ?? now() });
      return structuredClone(sub);
    },
    invoice(subscriptionId, paid) {
      const sub = subscription(subscriptionId);
      const item = sub.items.data[0];
      return {
        id: newId('in'),
        object: 'invoice',
        customer: sub.customer,
        status: paid ? 'paid' : 'open',
        amount_due: item.price.unit_amount,
        amount_paid: paid ? item.price.unit_amount : 0,
        currency: 'brl',
        billing_reason: 'subscription_cycle',
        period_start: item.current_period_start,
        period_end: item.current_period_end,
        // Since API version 2025-03-31 an invoice names its subscription under `parent`.
        parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: sub.metadata } },
        created: now(),
        livemode: false,
      };
    },
    event(type, object, created = now()) {
      return {
        id: newId('evt'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created,
        type,
        data: { object: structuredClone(object) },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      };
    },
    async deliver(url, event, deliverOptions = {}) {
      const payload = JSON.stringify(event, null, 2);
      const header =
        deliverOptions.signature === undefined
          ? Stripe.webhooks.generateTestHeaderString({ payload, secret: deliverOptions.secret ?? webhookSecret, timestamp: deliverOptions.timestamp })
          : deliverOptions.signature;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0', ...(header === null ? {} : { 'stripe-signature': header }) },
        body: payload,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
