/** GET /api/payments/checkout-session?sessionId=: one of the account's checkout sessions. */
import { checkoutSessionQuery } from '#contracts/payments.ts';
import { getCheckoutSession } from '#domain/billing/billing.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', query: checkoutSessionQuery }).handler(async ({ ports, session, query }) =>
  ok(await getCheckoutSession(ports, session, query.sessionId)),
);
