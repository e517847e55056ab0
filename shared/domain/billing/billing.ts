/**
 * Plans and subscriptions: the product, checkout, the billing portal, and keeping the account's
 * `subscription` and `plan` in step with the payment provider's events. The provider is the source
 * of truth: every event makes us read its subscription again, so events that arrive late or out of
 * order cannot move an account backwards (see ADR-0092).
 */
import type { Subscription } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { CheckoutSessionAnswer, PaymentProduct, RedirectAnswer } from '#contracts/payments.ts';
import { paidPlan, statusGrantsPlan } from '#contracts/plans.ts';
import { deleteBillingProducts, getBillingProducts, putBillingProducts } from '#db/billing-products.ts';
import { accountOfBillingCustomer, getAccountItem, setBillingCustomerSteps, writeBillingState, type AccountItem } from '#db/accounts.ts';
import { markEventHandled, wasEventHandled } from '#db/outside-events.ts';
import { refusedBy, writeTogether } from '#db/transaction.ts';
import { DomainError, fail } from '../errors.ts';
import type { BillingSubscription, Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

const eventSource = 'stripe';

/** The events that can change an account's plan; with `productEventTypes`, the others are acknowledged and ignored. */
export const billingEventTypes = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

/**
 * The product for sale, as the provider last answered it (ADR-0228): read from the table, so the
 * API's function answers without the provider's key. Nothing stored: payments are not configured
 * (or not yet refreshed, which `refreshProducts` does within minutes of a key being set).
 */
export async function listProducts(ports: Ports): Promise<PaymentProduct[]> {
  const stored = await getBillingProducts(ports.table);
  if (!stored) throw fail.unavailable(errorTexts.paymentsNotConfigured);
  return stored.products;
}

export type ProductsRefresh = 'written' | 'unchanged' | 'stale' | 'not-configured';

/** Stripe's events about the product for sale: each makes the stored copy be read again. */
export const productEventTypes = ['product.created', 'product.updated', 'product.deleted', 'price.created', 'price.updated', 'price.deleted'] as const;

/**
 * Reads the product from the provider (never its short cache) and stores it for `listProducts`;
 * removes the stored copy when payments are not configured, so nothing is offered that checkout
 * would refuse. A provider failure leaves the last copy in place and is thrown.
 */
export async function refreshProducts(ports: Ports): Promise<ProductsRefresh> {
  const readAt = ports.clock().toISOString();
  let products: PaymentProduct[];
  try {
    products = await ports.billing.products({ fresh: true });
  } catch (error) {
    if (!(error instanceof DomainError && error.kind === 'unavailable' && error.text === errorTexts.paymentsNotConfigured)) throw error;
    if (await getBillingProducts(ports.table)) await deleteBillingProducts(ports.table);
    return 'not-configured';
  }
  const stored = await getBillingProducts(ports.table);
  if (stored && JSON.stringify(stored.products) === JSON.stringify(products)) return 'unchanged';
  return (await putBillingProducts(ports.table, { products, refreshedAt: readAt })) ? 'written' : 'stale';
}

async function ownAccount(ports: Ports, session: AccountSession): Promise<AccountItem> {
  const account = await getAccountItem(ports.table, session.accountId);
  if (!account) throw fail.notFound();
  return account;
}

function hasLiveSubscription(account: AccountItem): boolean {
  return Boolean(account.subscription && statusGrantsPlan(account.subscription.status));
}

/** The account's customer at the provider, created on first use and remembered on the account. */
async function billingCustomer(ports: Ports, session: AccountSession, account: AccountItem): Promise<string> {
  if (account.stripeCustomerId) return account.stripeCustomerId;
  const customerId = await ports.billing.createCustomer({ accountId: account.id, name: account.name, email: session.user.email });
  try {
    await writeTogether(ports.table, setBillingCustomerSteps(account.id, customerId));
    return customerId;
  } catch (error) {
    // Someone else remembered a customer meanwhile: use theirs.
    if (!refusedBy(error, 'account')) throw error;
    const again = await ownAccount(ports, session);
    if (!again.stripeCustomerId) throw error;
    return again.stripeCustomerId;
  }
}

/** A subscription checkout of the paid product for the caller's account (admins only). */
export async function startCheckout(ports: Ports, session: AccountSession, priceId: string | undefined): Promise<RedirectAnswer> {
  if (!session.user.isAdmin) throw fail.forbidden();
  const [product] = await ports.billing.products();
  const price = priceId ? product?.prices.find((p) => p.id === priceId) : product?.prices[0];
  if (!price) throw fail.invalid(errorTexts.invalidParams, [{ path: 'priceId', message: 'Preço não encontrado' }]);
  const account = await ownAccount(ports, session);
  if (hasLiveSubscription(account)) throw fail.invalid(errorTexts.alreadySubscribed);
  const customerId = await billingCustomer(ports, session, account);
  const back = `${ports.appUrl}/my-account`;
  const { url } = await ports.billing.createCheckout({
    customerId,
    accountId: account.id,
    priceId: price.id,
    successUrl: `${back}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${back}?checkout=canceled`,
  });
  return { url };
}

/** A checkout session of the caller's account (any member; others' sessions are not found). */
export async function getCheckoutSession(ports: Ports, session: AccountSession, id: string): Promise<CheckoutSessionAnswer> {
  const account = await ownAccount(ports, session);
  const checkout = await ports.billing.checkout(id);
  if (!checkout || !account.stripeCustomerId || checkout.customerId !== account.stripeCustomerId) throw fail.notFound();
  return { id: checkout.id, status: checkout.status, payment_status: checkout.paymentStatus, subscriptionId: checkout.subscriptionId };
}

/** The provider's billing portal for the caller's account ('Gerenciar assinatura', admins only). */
export async function openBillingPortal(ports: Ports, session: AccountSession): Promise<RedirectAnswer> {
  if (!session.user.isAdmin) throw fail.forbidden();
  await ports.billing.assertConfigured();
  const account = await ownAccount(ports, session);
  if (!account.stripeCustomerId) throw fail.invalid(errorTexts.noSubscription);
  return ports.billing.portal({ customerId: account.stripeCustomerId, returnUrl: `${ports.appUrl}/my-account` });
}

export function toSubscription(sub: BillingSubscription): Subscription {
  return {
    status: sub.status,
    current_period_start: sub.currentPeriodStart,
    current_period_end: sub.currentPeriodEnd,
    cancel_at_period_end: sub.cancelAtPeriodEnd,
    plan: { amount: sub.amount, interval: sub.interval },
  };
}

/**
 * Whether a subscription read now may replace what the account shows. The same subscription
 * always may (it is the provider's current state). Another one may when the account's is no longer
 * live, or when it is live too and newer; an old, ended subscription never replaces a live one.
 */
export function replaces(account: AccountItem, sub: BillingSubscription): boolean {
  if (!account.stripeSubscriptionId || account.stripeSubscriptionId === sub.id) return true;
  if (!hasLiveSubscription(account)) return true;
  return statusGrantsPlan(sub.status) && sub.created >= (account.stripeSubscriptionCreated ?? 0);
}

export type SyncOutcome = 'written' | 'stale' | 'ignored';

/** Reads a subscription from the provider and writes it, and the plan it grants, onto its account. */
export async function syncSubscription(ports: Ports, subscriptionId: string, hint: { accountId?: string | null } = {}): Promise<SyncOutcome> {
  const readAt = ports.clock().toISOString();
  const sub = await ports.billing.subscription(subscriptionId);
  if (!sub) return 'ignored';
  const accountId = (await accountOfBillingCustomer(ports.table, sub.customerId)) ?? sub.accountId ?? hint.accountId ?? null;
  if (!accountId) {
    console.warn(`Stripe subscription ${sub.id} of customer ${sub.customerId} belongs to no account`);
    return 'ignored';
  }
  const account = await getAccountItem(ports.table, accountId);
  if (!account) return 'ignored';
  if (account.stripeCustomerId && account.stripeCustomerId !== sub.customerId) {
    console.warn(`Stripe subscription ${sub.id} names customer ${sub.customerId}, not the account's ${account.stripeCustomerId}`);
    return 'ignored';
  }
  if (!replaces(account, sub)) return 'stale';
  const written = await writeBillingState(ports.table, accountId, {
    plan: statusGrantsPlan(sub.status) ? paidPlan(sub.productName, sub.metadata) : null,
    subscription: toSubscription(sub),
    subscriptionId: sub.id,
    subscriptionCreated: sub.created,
    syncedAt: readAt,
    now: ports.clock().toISOString(),
  });
  return written ? 'written' : 'stale';
}

export interface WebhookAnswer {
  received: true;
  duplicate?: true;
}

/**
 * A webhook delivery: the signature is checked on the raw body, an event already handled is
 * acknowledged and skipped, and an event about a subscription brings the account in step with it.
 */
export async function receiveBillingEvent(ports: Ports, rawBody: string, signature: string | undefined): Promise<WebhookAnswer> {
  const event = await ports.billing.verifyEvent(rawBody, signature);
  if (await wasEventHandled(ports.table, eventSource, event.id)) return { received: true, duplicate: true };
  if ((billingEventTypes as readonly string[]).includes(event.type) && event.subscriptionId) {
    await syncSubscription(ports, event.subscriptionId, { accountId: event.accountId });
  }
  if ((productEventTypes as readonly string[]).includes(event.type)) await refreshProducts(ports);
  await markEventHandled(ports.table, eventSource, event.id, ports.clock());
  return { received: true };
}
