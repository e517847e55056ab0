/**
 * Stream consumer: when an account's plan changes its limits (a downgrade, a cancellation, an
 * upgrade), archives or stops what is beyond the new limits, or brings back what fits again
 * (shared/domain/billing/plan-limits.ts). It reconciles with the plan stored now, so a retried or
 * late record only finishes what is left.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { PlanLimits } from '#contracts/plans.ts';
import { applyPlanLimits, limitsChanged } from '#domain/billing/plan-limits.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

type AccountImage = { id?: string; plan?: PlanLimits | null };

export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const ports = defaultPorts();
  const accounts = new Set<string>();
  for (const record of event.Records) {
    const { next, previous } = imagesOf(record) as { next?: AccountImage; previous?: AccountImage };
    if (next?.id && previous && limitsChanged(previous.plan, next.plan)) accounts.add(next.id);
  }
  for (const accountId of accounts) {
    const outcome = await applyPlanLimits(ports, accountId);
    console.info(`Plan limits applied to account ${accountId}`, outcome);
  }
}
