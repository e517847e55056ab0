/**
 * Scheduled (EventBridge, every minute; infra/constructs/timer-firer.ts): fires the conversation
 * lifecycle's due timers (menu timeout, 'no one answered', waiting too long, inactivity), each in
 * the write that moves its conversation (shared/domain/automations/fire-timers.ts). A run that
 * fails leaves its timers due for the next one.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { type FiredTimers, fireDueTimers } from '#domain/automations/fire-timers.ts';
import { logger, observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';

export const handler = observed(async (_event: ScheduledEvent): Promise<FiredTimers> => {
  const fired = await fireDueTimers(defaultPorts());
  if (fired.fired + fired.stale + fired.dropped > 0) logger.info('lifecycle timers', { ...fired });
  return fired;
});
