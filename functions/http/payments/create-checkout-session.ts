/** POST /api/payments/create-checkout-session {priceId}: the Stripe Checkout URL of a Pro subscription (admins). */
import { checkoutPayload } from '#contracts/payments.ts';
import { startCheckout } from '#domain/billing/billing.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', body: checkoutPayload }).handler(async ({ ports, session, body }) =>
  ok(await startCheckout(ports, session, body.priceId)),
);
