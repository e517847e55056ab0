/**
 * Scheduled (EventBridge, every minute; infra/constructs/timer-firer.ts): fires the conversation
 * lifecycle's due timers (menu timeout, 'no one answered', waiting too long, inactivity), each in
 * the write that moves its conversation (shared/domain/automations/fire-timers.ts), and sends the
 * scheduled messages that came due, each once (shared/domain/scheduled-messages/fire-scheduled-messages.ts,
 * ADR-0224). A run that fails leaves what it did not do due for the next one.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { type FiredTimers, fireDueTimers } from '#domain/automations/fire-timers.ts';
import { type FiredSchedules, fireDueScheduledMessages } from '#domain/scheduled-messages/fire-scheduled-messages.ts';
import { logger, observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';

export const handler = observed(async (_event: ScheduledEvent): Promise<FiredTimers & { scheduled: FiredSchedules }> => {
  const ports = defaultPorts();
  const [fired, scheduled] = await Promise.all([fireDueTimers(ports), fireDueScheduledMessages(ports)]);
  if (fired.fired + fired.stale + fired.dropped > 0) logger.info('lifecycle timers', { ...fired });
  if (scheduled.sent + scheduled.failed + scheduled.stale + scheduled.dropped > 0) logger.info('scheduled messages', { ...scheduled });
  return { ...fired, scheduled };
});
