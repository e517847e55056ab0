/**
 * The campaigns' poller (ADR-0227): one run covers a stretch of time (the cloud's
 * one-minute rule: about 55 s; the local runtime: its interval). It first prepares the segment
 * campaigns waiting for their recipients, then reads the running lanes due
 * within the stretch and feeds each at its own times, sleeping between its sends, all lanes side by
 * side; a lane whose next send falls after the stretch is left to the next run, which finds it in
 * the index. Two runs that overlap race on each lane's round, and one of them leaves it.
 */
import { dueLanesOf, laneShards } from '#db/campaigns.ts';
import type { Ports } from '../ports.ts';
import { type FeedOptions, feedLane, type LaneRef, type LaneStep } from './feed-lane.ts';
import { prepareCampaigns } from './plan-campaign.ts';

export interface CampaignRun {
  /** Segment campaigns whose recipients this run wrote and started. */
  prepared: number;
  sent: number;
  skipped: number;
  waiting: number;
  finished: number;
  failed: number;
}

export interface RunOptions extends FeedOptions {
  /** The end of the stretch this run covers (epoch ms). */
  until: number;
  /** @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
  /** A campaign's preparation or a lane's step that threw (logged; left to the next run). */
  onError?: (at: { campaignId: string; serviceId?: string }, error: unknown) => void;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runCampaigns(ports: Ports, options: RunOptions): Promise<CampaignRun> {
  const sleep = options.sleep ?? realSleep;
  const run: CampaignRun = { prepared: 0, sent: 0, skipped: 0, waiting: 0, finished: 0, failed: 0 };
  run.prepared = await prepareCampaigns(ports, (campaignId, error) => {
    run.failed++;
    options.onError?.({ campaignId }, error);
  });
  const until = new Date(options.until).toISOString();
  const due = (await Promise.all(Array.from({ length: laneShards }, (_, shard) => dueLanesOf(ports.table, shard, until)))).flat();

  const feed = async (lane: LaneRef, firstAt: number) => {
    for (let at = firstAt; at <= options.until; ) {
      const wait = at - ports.clock().getTime();
      if (wait > 0) await sleep(wait);
      let step: LaneStep;
      try {
        step = await feedLane(ports, lane, options);
      } catch (error) {
        run.failed++;
        options.onError?.(lane, error);
        return;
      }
      if (step.kind !== 'left') run[step.kind]++;
      if (step.nextAt === null) return;
      at = step.nextAt;
    }
  };
  await Promise.all(due.map((lane) => feed(lane, Date.parse(lane.nextAt!))));
  return run;
}
