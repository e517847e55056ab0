/**
 * Reading a campaign and moving it: pause, resume, cancel (ADR-0227). The status write is
 * what stops sends at once: every send's transaction checks that its campaign still runs. The
 * lanes then leave (or rejoin) the poller's index. Admins act; everyone in the account reads.
 */
import type { Campaign, CampaignStatus } from '#contracts/campaigns.ts';
import { errorTexts } from '#contracts/errors.ts';
import {
  campaignStatusStep,
  campaignsOf,
  getCampaignItem,
  type CampaignItem,
  laneItem,
  laneStep,
  lanesOf,
  setCampaignEstimate,
  unlistLane,
} from '#db/campaigns.ts';
import { refusedBy, writeTogether } from '#db/transaction.ts';
import { accountBusinessHours } from '../business-hours/settings.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { campaignSchedule, estimateLaneFinish } from './lane-clock.ts';
import { presentCampaign } from './present-campaign.ts';

export async function listCampaigns(ports: Ports, session: AccountSession): Promise<Campaign[]> {
  const items = await campaignsOf(ports.table, session.accountId);
  return Promise.all(items.map(async (item) => presentCampaign(item, await lanesOf(ports.table, item.accountId, item.id))));
}

export async function getCampaign(ports: Ports, session: AccountSession, campaignId: string): Promise<Campaign> {
  const item = await getCampaignItem(ports.table, session.accountId, campaignId, true);
  if (!item) throw fail.notFound();
  return presentCampaign(item, await lanesOf(ports.table, item.accountId, item.id));
}

export type CampaignAction = 'pause' | 'resume' | 'cancel';

const moves: Record<CampaignAction, { from: CampaignStatus[]; to: CampaignStatus }> = {
  pause: { from: ['scheduled', 'running'], to: 'paused' },
  resume: { from: ['paused'], to: 'running' },
  cancel: { from: ['preparing', 'scheduled', 'running', 'paused'], to: 'cancelled' },
};

const conflictTexts: Record<CampaignAction, string> = {
  pause: 'Só uma campanha agendada ou em envio pode ser pausada',
  resume: 'Só uma campanha pausada pode ser retomada',
  cancel: 'Esta campanha já terminou',
};

export async function moveCampaign(ports: Ports, session: AccountSession, campaignId: string, action: CampaignAction): Promise<Campaign> {
  if (!session.user.isAdmin) throw fail.forbidden();
  const item = await getCampaignItem(ports.table, session.accountId, campaignId, true);
  if (!item) throw fail.notFound();
  const { from, to } = moves[action];
  const at = ports.clock().toISOString();
  try {
    await writeTogether(ports.table, { campaign: campaignStatusStep(item, from, to, at) });
  } catch (error) {
    if (refusedBy(error, 'campaign')) throw fail.invalid(errorTexts.invalidParams, [{ path: 'status', message: conflictTexts[action] }]);
    throw error;
  }
  const lanes = await lanesOf(ports.table, item.accountId, item.id);
  if (action === 'resume') await relist(ports, { ...item, status: to }, lanes);
  else await Promise.all(lanes.filter((lane) => !lane.finished).map((lane) => unlistLane(ports.table, lane)));
  return getCampaign(ports, session, campaignId);
}

/** A resumed campaign's lanes rejoin the index, due now, and its estimate is made again from what is left. */
async function relist(ports: Ports, campaign: CampaignItem, lanes: Awaited<ReturnType<typeof lanesOf>>): Promise<void> {
  const now = ports.clock().getTime();
  const { hours } = await accountBusinessHours(ports, campaign.accountId);
  const schedule = campaignSchedule(campaign.window, hours);
  let finish: number | null = now;
  for (const lane of lanes.filter((l) => !l.finished)) {
    const next = laneItem({ ...lane, round: lane.round + 1, nextAt: new Date(now).toISOString(), waiting: null });
    await writeTogether(ports.table, { lane: laneStep(next, lane.round) }).catch((error) => {
      // A poller moved it meanwhile: it is running again anyway.
      if (!refusedBy(error)) throw error;
    });
    const left = Math.max(0, lane.recipients - lane.sent - lane.skipped);
    const end = estimateLaneFinish(schedule, campaign.pace, { known: left, fresh: 0 }, now);
    finish = end === null || finish === null ? null : Math.max(finish, end);
  }
  await setCampaignEstimate(ports.table, campaign, finish === null ? null : new Date(finish).toISOString(), new Date(now).toISOString());
}
