/** A campaign as the API answers it: its definition and its counts summed from its lanes. */
import type { Campaign } from '#contracts/campaigns.ts';
import { type CampaignItem, countsOf, type LaneItem, type LaneTallies } from '#db/campaigns.ts';

/** A lane as the answer reads it: its tallies, and once stored, why it waits. */
type PresentedLane = LaneTallies & Partial<Pick<LaneItem, 'serviceId' | 'waiting' | 'finished'>>;

export function presentCampaign(item: CampaignItem, lanes: PresentedLane[]): Campaign {
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
    waiting:
      item.status === 'running'
        ? lanes.flatMap((lane) => (lane.serviceId && lane.waiting && !lane.finished ? [{ serviceId: lane.serviceId, reason: lane.waiting }] : []))
        : [],
    createdBy: item.createdBy,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
