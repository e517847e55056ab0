/** A campaign as the API answers it: its definition and its counts summed from its lanes. */
import type { Campaign } from '#contracts/campaigns.ts';
import { type CampaignItem, countsOf, type LaneTallies } from '#db/campaigns.ts';

export function presentCampaign(item: CampaignItem, lanes: LaneTallies[]): Campaign {
  return {
    id: item.id,
    name: item.name,
    status: item.status,
    audience: item.audience,
    serviceIds: item.serviceIds,
    message: item.message,
    startAt: item.startAt,
    window: item.window,
    pace: item.pace,
    optOutHint: item.optOutHint,
    counts: countsOf(item, lanes),
    estimatedFinishAt: item.status === 'finished' || item.status === 'cancelled' ? null : item.estimatedFinishAt,
    createdBy: item.createdBy,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
