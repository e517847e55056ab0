/** GET /api/payments/products: the Pro product and its price, as the table holds them (copied from Stripe every 10 minutes, ADR-0228). */
import { listProducts } from '#domain/billing/billing.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member' }).handler(async ({ ports }) => ok(await listProducts(ports)));
