/**
 * Scheduled (EventBridge, every 10 minutes; infra/constructs/job-resumer.ts): moves on the
 * background jobs whose chain of stream-driven steps broke, account purges, contact purges and
 * account exports and contact imports whose last step is older than a few minutes (shared/domain/stalled-jobs.ts).
 * The jobs' own consumers then run their next steps. A failure here is retried by the next run.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { resumeStalledJobs, type ResumedJobs } from '#domain/stalled-jobs.ts';
import { logger, observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';

export const handler = observed(async (_event: ScheduledEvent): Promise<ResumedJobs> => {
  const resumed = await resumeStalledJobs(defaultPorts());
  if (resumed.accountDeletions + resumed.contactPurges + resumed.accountExports + resumed.contactImports > 0)
    logger.warn('stalled jobs resumed', { ...resumed });
  return resumed;
});
