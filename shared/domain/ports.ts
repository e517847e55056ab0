/** The outside world as the business rules see it. Handlers pass real ones; tests pass local ones. */
import type { Table } from '#db/client.ts';
import type { PaymentProduct } from '#contracts/payments.ts';
import type { Channels } from './channels/registry.ts';
import type { WorkerQueue } from './channels/worker-commands.ts';
import type { WebhookSender } from './webhooks/webhook-sender.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one-time code the mail carries, if any (the local outbox keeps it for tests and newcomers). */
  code?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface TokenClaims {
  sub: string;
  acc: string | null;
  jti: string;
  exp: number;
  /**
   * The user's session generation when the token was issued (absent in a token: 0). A password
   * reset moves the user to the next generation, which ends every token issued before it.
   */
  gen: number;
}

export interface TokenService {
  issue(userId: string, accountId: string | null, generation?: number): Promise<{ token: string; claims: TokenClaims }>;
  /** The claims of a well-signed, unexpired token, or null. */
  verify(token: string): Promise<TokenClaims | null>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

/** Encrypts secrets kept in the table (channel tokens). */
export interface Vault {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

/** The media bucket. Keys are always built by `fileObjectKey`, under the account. */
export interface Storage {
  /** A URL the browser PUTs the bytes to, bound to the content type and length. */
  uploadUrl(key: string, mimetype: string, length: number): Promise<string>;
  /**
   * A short-lived URL to read an object, served with a safe type and disposition for what the
   * file claims to be (`downloadHeadersOf` in shared/contracts/downloads.ts).
   */
  downloadUrl(key: string, filename: string, mimetype: string): Promise<string>;
  put(key: string, bytes: Uint8Array, mimetype: string): Promise<void>;
  /**
   * Writes an object from bytes of unknown length as they come, never holding the whole: S3's
   * multipart upload, one part in memory at a time (5 MiB, S3's smallest but the last); a body
   * shorter than a part is one PutObject. A failure of the body or of the bucket, or `signal`,
   * abandons the upload (AbortMultipartUpload: no object, no parts left) and throws. Answers the
   * bytes written.
   */
  putStream(key: string, body: AsyncIterable<Uint8Array>, mimetype: string, options?: { signal?: AbortSignal }): Promise<{ size: number }>;
  /** Size and type of a stored object, or null when there is none. */
  head(key: string): Promise<{ size: number; mimetype: string | null } | null>;
  get(key: string): Promise<Uint8Array>;
  /** Bytes `start` to `end` (exclusive) of an object, for reading a large one a range at a time. */
  getRange(key: string, start: number, end: number): Promise<Uint8Array>;
  /** Keys of up to `max` objects under a prefix. */
  list(prefix: string, max: number): Promise<string[]>;
  /** Removes objects (a missing one is no error). */
  remove(keys: readonly string[]): Promise<void>;
}

/** A subscription as the payment provider holds it now (the source of truth for the account's plan). */
export interface BillingSubscription {
  id: string;
  customerId: string;
  /** The account named in the subscription's metadata, if any. */
  accountId: string | null;
  status: string;
  /** Epoch seconds (when the provider created it). */
  created: number;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
  /** Cents per interval. */
  amount: number;
  interval: 'month' | 'year';
  productName: string;
  /** The product's metadata overlaid with the price's (plan limits). */
  metadata: Record<string, string>;
}

/** A verified event of the payment provider, reduced to what the account's plan depends on. */
export interface BillingEvent {
  id: string;
  type: string;
  /** The subscription the event is about (directly, through a checkout or through an invoice). */
  subscriptionId: string | null;
  customerId: string | null;
  /** The account the checkout was started for (its client reference), if the event says. */
  accountId: string | null;
}

export interface BillingCheckout {
  id: string;
  customerId: string | null;
  status: string;
  paymentStatus: string;
  subscriptionId: string | null;
}

/**
 * The payment provider (Stripe, through functions/lib/stripe-billing.ts). Every call fails with
 * 'Payments are not configured' when no key is set.
 */
export interface Billing {
  /** Fails with 'Payments are not configured' unless a key is set. */
  assertConfigured(): Promise<void>;
  /** The paid product and its prices (the configured price first), cached briefly unless `fresh`. */
  products(options?: { fresh?: boolean }): Promise<PaymentProduct[]>;
  /** A new customer for an account (idempotent per account for a day). */
  createCustomer(input: { accountId: string; name: string; email: string }): Promise<string>;
  createCheckout(input: {
    customerId: string;
    accountId: string;
    priceId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ id: string; url: string }>;
  checkout(id: string): Promise<BillingCheckout | null>;
  portal(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  subscription(id: string): Promise<BillingSubscription | null>;
  /** Checks the signature on the raw body; throws 'Invalid webhook signature' when it does not hold. */
  verifyEvent(rawBody: string, signature: string | undefined): Promise<BillingEvent>;
}

export interface Ports {
  table: Table;
  mailer: Mailer;
  tokens: TokenService;
  passwords: PasswordHasher;
  vault: Vault;
  storage: Storage;
  /** The channel adapters (Telegram, WhatsApp), registered at the composition root. */
  channels: Channels;
  /** The channel worker's queue: what must run where a connection's session is (sends of some channels, logouts). */
  workerQueue: WorkerQueue;
  clock: () => Date;
  /** A new ULID; `at` (epoch ms) stamps it with another moment than now. */
  newId: (at?: number) => string;
  /** The payment provider. */
  billing: Billing;
  /** Posts webhook deliveries to customers' URLs, refusing any non-public destination (ADR-0231). */
  webhooks: WebhookSender;
  /** Where the web app lives, for links in e-mails. */
  appUrl: string;
}
