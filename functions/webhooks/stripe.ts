/**
 * POST /api/webhooks/stripe: Stripe delivers billing events here. Public; the signature header is
 * checked against the raw body with the endpoint's secret (400 when it does not hold). A 2xx tells
 * Stripe the event is handled (also for one handled before); a failure makes it redeliver. A refused
 * delivery counts as `WebhookRejected` (source `stripe`).
 */
import { receiveBillingEvent } from '#domain/billing/billing.ts';
import { DomainError } from '#domain/errors.ts';
import { api } from '#lib/api.ts';
import { count } from '#lib/observability.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'public' }).handler(async ({ ports, event }) => {
  // The signature covers the bytes Stripe sent: verify the body as received, never a re-serialisation.
  const raw = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : (event.body ?? '');
  try {
    return ok(await receiveBillingEvent(ports, raw, event.headers?.['stripe-signature']));
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'invalid') count('WebhookRejected', { source: 'stripe' });
    throw error;
  }
});
