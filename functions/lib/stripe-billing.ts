/**
 * The billing port over the Stripe SDK. Configuration (read at each use, so a key set later counts):
 *   STRIPE_SECRET_KEY (or STRIPE_SECRET_KEY_ARN)          the API key; absent: 'Payments are not configured'
 *   STRIPE_WEBHOOK_SECRET (or STRIPE_WEBHOOK_SECRET_ARN)  the webhook endpoint's signing secret
 *   STRIPE_PRICE_ID, or STRIPE_PRICE_LOOKUP_KEY           the Pro price checkout sells
 *   STRIPE_API_URL                                        another Stripe-compatible server (tests, mocks)
 * Payment methods are not chosen here: Checkout offers what the Stripe account enables (card,
 * boleto, ...).
 */
import type Stripe from 'stripe';
import { errorTexts } from '#contracts/errors.ts';
import type { PaymentProduct } from '#contracts/payments.ts';
import { fail } from '#domain/errors.ts';
import type { Billing, BillingEvent, BillingSubscription } from '#domain/ports.ts';
import { logger } from './observability.ts';
import { optionalSecret } from './signing-secret.ts';

/**
 * The SDK, loaded when billing is first used: it is among the largest packages a function would
 * load, and most functions never bill.
 */
let sdk: Promise<typeof Stripe> | undefined;
const stripeSdk = () => (sdk ??= import('stripe').then((m) => m.default));

/** How long the product and its price are kept in memory. */
const productsTtlMs = 5 * 60 * 1000;

export interface StripeBillingOptions {
  /** Epoch ms, for the products cache. */
  clock?: () => number;
}

/** `new Stripe(key, ...)` pointed at STRIPE_API_URL when it is set. */
function connection(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

const notConfigured = () => fail.unavailable(errorTexts.paymentsNotConfigured);

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function metadataOf(value: Stripe.Metadata | null | undefined): Record<string, string> {
  return { ...(value ?? {}) };
}

function toProduct(price: Stripe.Price): PaymentProduct {
  const product = typeof price.product === 'string' ? null : price.product;
  return {
    id: idOf(price.product) ?? '',
    name: product && !('deleted' in product && product.deleted) ? (product as Stripe.Product).name : 'Pro',
    prices: [
      { id: price.id, unit_amount: price.unit_amount ?? 0, currency: price.currency, interval: price.recurring?.interval === 'year' ? 'year' : 'month' },
    ],
  };
}

function toSubscription(sub: Stripe.Subscription): BillingSubscription {
  const item = sub.items.data[0];
  const price = item?.price;
  const product =
    price && typeof price.product !== 'string' && !('deleted' in price.product && price.product.deleted) ? (price.product as Stripe.Product) : null;
  return {
    id: sub.id,
    customerId: idOf(sub.customer) ?? '',
    accountId: sub.metadata?.accountId ?? null,
    status: sub.status,
    created: sub.created,
    // Since API version 2025-03-31 the billing period lives on each item, not on the subscription.
    currentPeriodStart: item?.current_period_start ?? sub.start_date,
    currentPeriodEnd: item?.current_period_end ?? sub.start_date,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    amount: price?.unit_amount ?? 0,
    interval: price?.recurring?.interval === 'year' ? 'year' : 'month',
    productName: product?.name ?? '',
    metadata: { ...metadataOf(product?.metadata), ...metadataOf(price?.metadata) },
  };
}

/** The subscription an invoice belongs to (since 2025-03-31 under `parent.subscription_details`). */
function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription);
}

export function eventOf(event: Stripe.Event): BillingEvent {
  const base = { id: event.id, type: event.type, subscriptionId: null, customerId: null, accountId: null };
  const object = event.data.object as unknown as { object?: string };
  switch (object.object) {
    case 'checkout.session': {
      const session = object as Stripe.Checkout.Session;
      return { ...base, subscriptionId: idOf(session.subscription), customerId: idOf(session.customer), accountId: session.client_reference_id ?? null };
    }
    case 'subscription': {
      const sub = object as Stripe.Subscription;
      return { ...base, subscriptionId: sub.id, customerId: idOf(sub.customer), accountId: sub.metadata?.accountId ?? null };
    }
    case 'invoice': {
      const invoice = object as Stripe.Invoice;
      return { ...base, subscriptionId: invoiceSubscription(invoice), customerId: idOf(invoice.customer) };
    }
    default:
      return base;
  }
}

/** Stripe's own failures become our catalogue's; a missing object is null to the caller. */
async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const { errors } = await stripeSdk();
    if (error instanceof errors.StripeAuthenticationError) {
      logger.error('Stripe refused the API key', { stripeMessage: error.message });
      throw notConfigured();
    }
    if (error instanceof errors.StripeError) {
      logger.error('Stripe call failed', { stripeType: error.type, stripeStatus: error.statusCode, stripeMessage: error.message });
      throw fail.unavailable(errorTexts.paymentProviderFailed);
    }
    throw error;
  }
}

async function orNull<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof (await stripeSdk()).errors.StripeError && error.statusCode === 404) return null;
    throw error;
  }
}

export function stripeBilling(options: StripeBillingOptions = {}): Billing {
  const env = () => process.env;
  const now = options.clock ?? Date.now;
  const clients = new Map<string, Stripe>();
  let products: { key: string; at: number; value: Promise<PaymentProduct[]> } | undefined;

  const client = async (): Promise<Stripe> => {
    const key = await optionalSecret('STRIPE_SECRET_KEY');
    if (!key) throw notConfigured();
    const apiUrl = env().STRIPE_API_URL || undefined;
    const cacheKey = `${key}\n${apiUrl ?? ''}`;
    let stripe = clients.get(cacheKey);
    if (!stripe) {
      const Sdk = await stripeSdk();
      stripe = new Sdk(key, { ...connection(apiUrl), maxNetworkRetries: 2, timeout: 8000, appInfo: { name: 'Conversa' } });
      clients.set(cacheKey, stripe);
    }
    return stripe;
  };

  const loadProducts = async (): Promise<PaymentProduct[]> => {
    const stripe = await client();
    const { STRIPE_PRICE_ID: priceId, STRIPE_PRICE_LOOKUP_KEY: lookupKey } = env();
    if (priceId) return [toProduct(await call(() => stripe.prices.retrieve(priceId, { expand: ['product'] })))];
    if (lookupKey) {
      const { data } = await call(() => stripe.prices.list({ lookup_keys: [lookupKey], active: true, expand: ['data.product'] }));
      if (data[0]) return [toProduct(data[0])];
    }
    logger.error('Neither STRIPE_PRICE_ID nor a price with STRIPE_PRICE_LOOKUP_KEY is available');
    throw notConfigured();
  };

  return {
    async assertConfigured() {
      await client();
    },

    async products(options) {
      const key = `${env().STRIPE_PRICE_ID ?? ''}\n${env().STRIPE_PRICE_LOOKUP_KEY ?? ''}`;
      if (options?.fresh || !products || products.key !== key || now() - products.at > productsTtlMs) {
        const value = loadProducts();
        products = { key, at: now(), value };
        value.catch(() => {
          if (products?.value === value) products = undefined;
        });
      }
      return products.value;
    },

    async createCustomer({ accountId, name, email }) {
      const stripe = await client();
      const customer = await call(() =>
        stripe.customers.create({ name, email, metadata: { accountId } }, { idempotencyKey: `conversa-customer-${accountId}` }),
      );
      return customer.id;
    },

    async createCheckout({ customerId, accountId, priceId, successUrl, cancelUrl }) {
      const stripe = await client();
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customerId,
          client_reference_id: accountId,
          line_items: [{ price: priceId, quantity: 1 }],
          subscription_data: { metadata: { accountId } },
          success_url: successUrl,
          cancel_url: cancelUrl,
          locale: 'pt-BR',
        }),
      );
      if (!session.url) throw fail.unavailable(errorTexts.paymentProviderFailed);
      return { id: session.id, url: session.url };
    },

    async checkout(id) {
      const stripe = await client();
      const session = await call(() => orNull(() => stripe.checkout.sessions.retrieve(id)));
      if (!session) return null;
      return {
        id: session.id,
        customerId: idOf(session.customer),
        status: session.status ?? 'open',
        paymentStatus: session.payment_status,
        subscriptionId: idOf(session.subscription),
      };
    },

    async portal({ customerId, returnUrl }) {
      const stripe = await client();
      const session = await call(() => stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl, locale: 'pt-BR' }));
      return { url: session.url };
    },

    async subscription(id) {
      const stripe = await client();
      const sub = await call(() => orNull(() => stripe.subscriptions.retrieve(id, { expand: ['items.data.price.product'] })));
      return sub ? toSubscription(sub) : null;
    },

    async verifyEvent(rawBody, signature) {
      const stripe = await client();
      const secret = await optionalSecret('STRIPE_WEBHOOK_SECRET');
      if (!secret) throw notConfigured();
      if (!signature) throw fail.invalid(errorTexts.invalidSignature);
      try {
        return eventOf(await stripe.webhooks.constructEventAsync(rawBody, signature, secret));
      } catch (error) {
        if (error instanceof (await stripeSdk()).errors.StripeSignatureVerificationError) throw fail.invalid(errorTexts.invalidSignature);
        throw error;
      }
    },
  };
}
