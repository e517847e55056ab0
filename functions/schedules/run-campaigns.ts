/**
 * Scheduled (EventBridge, every minute; infra/constructs/timer-firer.ts): feeds the running
 * campaigns' lanes for the next 55 seconds, each send at its lane's own time, sleeping between them
 * (shared/domain/campaigns/run-campaigns.ts, ADR-0227). A run that dies leaves its lanes
 * due in the index for the next one; a run that overlaps another loses each lane's race once.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { type CampaignRun, runCampaigns } from '#domain/campaigns/run-campaigns.ts';
import { logger, observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';

/** How much of the minute one run covers: the next run starts at the next minute; the function may run 75 s. */
const stretchMs = 55_000;

export const handler = observed(async (_event: ScheduledEvent): Promise<CampaignRun> => {
  const run = await runCampaigns(defaultPorts(), {
    until: Date.now() + stretchMs,
    onError: (at, error) => logger.error('campaign step failed', { ...at, error }),
  });
  if (run.prepared + run.sent + run.skipped + run.finished + run.failed > 0) logger.info('campaigns', { ...run });
  return run;
});
