/**
 * Scheduled (EventBridge, every minute; infra/constructs/timer-firer.ts): the webhook deliveries
 * whose retry came due (shared/domain/webhooks/deliver-webhooks.ts, ADR-0233).
 * A run takes no new delivery after 45 s; what it leaves, and what a run that dies held, is due for
 * the next one.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { deliverDueWebhooks, type WebhookRun } from '#domain/webhooks/deliver-webhooks.ts';
import { logger, observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';

const stretchMs = 45_000;

export const handler = observed(async (_event: ScheduledEvent): Promise<WebhookRun> => {
  const run = await deliverDueWebhooks(defaultPorts(), Date.now() + stretchMs);
  if (run.delivered + run.retry + run.failed + run.cancelled > 0) logger.info('webhook retries', { ...run });
  return run;
});
