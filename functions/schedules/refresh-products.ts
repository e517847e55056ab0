/**
 * Scheduled (EventBridge, every 10 minutes; infra/stack.ts): reads the product for sale from
 * Stripe into the table, where `GET /payments/products` finds it (ADR-0228). Stripe's product and
 * price events refresh it sooner (POST /api/webhooks/stripe). A failed read keeps the last copy;
 * the next run is the retry.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { type ProductsRefresh, refreshProducts } from '#domain/billing/billing.ts';
import { logger, observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';

export const handler = observed(async (_event: ScheduledEvent): Promise<ProductsRefresh> => {
  const outcome = await refreshProducts(defaultPorts());
  if (outcome !== 'unchanged') logger.info('products refreshed', { outcome });
  return outcome;
});
