import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { AccountItem } from '#db/accounts.ts';
import { replaces } from '#domain/billing/billing.ts';
import type { BillingSubscription } from '#domain/ports.ts';
import { eventOf } from '#lib/stripe-billing.ts';

const sub = (fields: Partial<BillingSubscription>): BillingSubscription => ({
  id: 'sub_new',
  customerId: 'cus_1',
  accountId: null,
  status: 'active',
  created: 2000,
  currentPeriodStart: 2000,
  currentPeriodEnd: 3000,
  cancelAtPeriodEnd: false,
  amount: 9990,
  interval: 'month',
  productName: 'Pro',
  metadata: {},
  ...fields,
});

const account = (subscriptionId: string | null, status: string | null, created = 1000) =>
  ({
    stripeSubscriptionId: subscriptionId,
    stripeSubscriptionCreated: created,
    subscription: status
      ? { status, current_period_start: 0, current_period_end: 0, cancel_at_period_end: false, plan: { amount: 0, interval: 'month' } }
      : null,
  }) as unknown as AccountItem;

describe('which subscription an account follows', () => {
  it('takes the first subscription, and always the current state of its own', () => {
    expect(replaces(account(null, null), sub({}))).toBe(true);
    expect(replaces(account('sub_new', 'active'), sub({ status: 'canceled' }))).toBe(true);
  });

  it('never lets an ended subscription replace a live one', () => {
    expect(replaces(account('sub_live', 'active'), sub({ id: 'sub_old', status: 'canceled', created: 500 }))).toBe(false);
    expect(replaces(account('sub_live', 'past_due'), sub({ id: 'sub_old', status: 'canceled', created: 5000 }))).toBe(false);
  });

  it('lets a live subscription replace an ended one, and a newer live one an older', () => {
    expect(replaces(account('sub_old', 'canceled'), sub({}))).toBe(true);
    expect(replaces(account('sub_old', 'active', 1000), sub({ created: 2000 }))).toBe(true);
    expect(replaces(account('sub_newer', 'active', 3000), sub({ created: 2000 }))).toBe(false);
  });
});

describe('Stripe events as the billing port reads them', () => {
  const event = (object: Record<string, unknown>, type: string) =>
    ({ id: 'evt_1', object: 'event', type, created: 1, data: { object } }) as unknown as Stripe.Event;

  it('finds the subscription of a checkout, with the account it was started for', () => {
    expect(
      eventOf(event({ object: 'checkout.session', subscription: 'sub_1', customer: 'cus_1', client_reference_id: 'ACC' }, 'checkout.session.completed')),
    ).toEqual({
      id: 'evt_1',
      type: 'checkout.session.completed',
      subscriptionId: 'sub_1',
      customerId: 'cus_1',
      accountId: 'ACC',
    });
  });

  it('finds the subscription of an invoice under parent.subscription_details (API 2025-03-31 and later)', () => {
    const invoice = { object: 'invoice', customer: 'cus_1', parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_2' } } };
    expect(eventOf(event(invoice, 'invoice.paid'))).toMatchObject({ subscriptionId: 'sub_2', customerId: 'cus_1' });
  });

  it('reads a subscription event’s own id, and nothing from other objects', () => {
    expect(eventOf(event({ object: 'subscription', id: 'sub_3', customer: { id: 'cus_9' }, metadata: {} }, 'customer.subscription.updated'))).toMatchObject({
      subscriptionId: 'sub_3',
      customerId: 'cus_9',
      accountId: null,
    });
    expect(eventOf(event({ object: 'customer', id: 'cus_1' }, 'customer.created'))).toMatchObject({ subscriptionId: null });
  });

  it('are verified with the SDK against the raw body: one changed byte fails', async () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid', data: { object: { object: 'invoice' } } });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_x' });
    await expect(Stripe.webhooks.constructEventAsync(payload, header, 'whsec_x')).resolves.toMatchObject({ id: 'evt_1' });
    await expect(Stripe.webhooks.constructEventAsync(payload.replace('evt_1', 'evt_2'), header, 'whsec_x')).rejects.toThrow(/signature/i);
  });
});
