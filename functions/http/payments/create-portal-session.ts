/** POST /api/payments/portal-session: the Stripe billing portal URL behind 'Gerenciar assinatura' (admins). */
import { openBillingPortal } from '#domain/billing/billing.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member' }).handler(async ({ ports, session }) => ok(await openBillingPortal(ports, session)));
