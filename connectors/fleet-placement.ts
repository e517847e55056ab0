/**
 * Where the fleet puts things, from the workers' beats (`shared/db/worker-beats.ts`): the live
 * worker with the most room for a command whose connection nobody holds, and each worker's fair
 * share of the sessions wanted, and how many sessions a scan lets go or takes. Plain functions of
 * the beats and the clock (ADR-0203).
 */
import type { WorkerBeatItem } from '#db/worker-beats.ts';

export type FleetMember = Pick<WorkerBeatItem, 'workerId' | 'sessions' | 'capacity' | 'expiresAt'>;

/** Workers whose beat has not expired. */
export function liveMembers<T extends FleetMember>(beats: readonly T[], now: number): T[] {
  return beats.filter((beat) => beat.expiresAt >= now);
}

/** How full a worker is: sessions over capacity (an unlimited worker counts its sessions against a thousand). */
const loadOf = (member: FleetMember) => member.sessions / (member.capacity ?? 1000);

/** Loads this close to the least loaded worker's count as equal: a burst of placements between two beats spreads over them. */
const loadTie = 0.05;

/**
 * The worker a command for a connection nobody holds goes to: a live worker with room (sessions
 * under capacity), not in `exclude`, among the least loaded ones (at random between those within
 * `loadTie` of the least, so the placements of one beat period do not all land on one worker);
 * undefined when no live worker has room.
 */
export function placement(beats: readonly FleetMember[], now: number, exclude: ReadonlySet<string> = new Set(), random = Math.random): string | undefined {
  const open = liveMembers(beats, now).filter((m) => !exclude.has(m.workerId) && m.sessions < (m.capacity ?? Number.POSITIVE_INFINITY));
  if (!open.length) return undefined;
  const least = Math.min(...open.map(loadOf));
  const best = open.filter((m) => loadOf(m) <= least + loadTie).sort((a, b) => a.workerId.localeCompare(b.workerId));
  return best[Math.min(best.length - 1, Math.floor(random() * best.length))]!.workerId;
}

export interface FairShare {
  /** Sessions each live worker should hold: the sessions wanted over the live workers, rounded up (at most the capacity). */
  share: number;
  /** Past this many a worker lets sessions go (the share plus the slack), down to the share. */
  over: number;
}

/** The slack over the share before a worker lets sessions go: without it, a count one over would move a session at every scan. */
export const shareSlack = 1;

export function fairShare(wanted: number, live: number, capacity = Number.POSITIVE_INFINITY): FairShare {
  const share = Math.min(capacity, Math.ceil(wanted / Math.max(1, live)));
  return { share, over: share + shareSlack };
}

/** How fast a worker over its share lets sessions go, and how fast a worker takes sessions over (ADR-0203, amended 2026-11-27). */
export interface RebalanceOptions {
  /**
   * The part of its excess (sessions held over the share) a worker lets go at a scan, rounded up:
   * half, so a share misjudged for one scan (a beat read late, a worker that joins and dies at
   * once) moves at most half of what it should not, and the excess still halves at every scan.
   */
  letGoFraction: number;
  /** The most sessions a scan lets go (0: never lets go): bounds the sockets closed at once and the logins they cause elsewhere. */
  letGoPerScan: number;
  /**
   * The least time between two sessions a worker's scan takes over (ms): each is a new login
   * WhatsApp sees from the fleet's address. 0: no pacing.
   */
  startEveryMs: number;
}

/**
 * Half the excess, at most 10 per scan; takeovers 250 ms apart (4 logins a second per task). With
 * the cloud's 15 s scans a task takes up to 60 sessions in one scan period (its capacity is 33), so
 * the pacing does not add a scan; a new task among three holding 60 each is even after 3 to 4 scans
 * instead of 8 (bench/notes/worker-fleet.md).
 */
export const defaultRebalance: RebalanceOptions = { letGoFraction: 0.5, letGoPerScan: 10, startEveryMs: 250 };

/**
 * How many sessions a worker holding `held` lets go at a scan: none unless it holds more than the
 * share plus the slack, or more than the share while another live worker (`least`: the fewest
 * another holds) is more than the slack under it (one that just joined); then `letGoFraction` of
 * its excess, rounded up (all of it when what would be left is within the slack, so a worker that
 * lets go ends at its share, not stuck one over it), at most `letGoPerScan`, never below the share.
 * A worker that lets go takes none (it is at or over its share), so the counts only move towards
 * the share.
 */
export function sessionsToLetGo(
  held: number,
  fair: FairShare,
  least: number,
  options: Pick<RebalanceOptions, 'letGoFraction' | 'letGoPerScan'> = defaultRebalance,
): number {
  const tooMany = held > fair.over || (held > fair.share && least < fair.share - shareSlack);
  if (!tooMany || options.letGoPerScan <= 0) return 0;
  const excess = held - fair.share;
  const part = Math.max(1, Math.ceil(excess * options.letGoFraction));
  return Math.min(options.letGoPerScan, excess - part <= shareSlack ? excess : part);
}

/** How many free sessions a worker may take at a scan: up to its share (never past its capacity), counting those it is opening. */
export function sessionsToTake(held: number, opening: number, share: number, capacity = Number.POSITIVE_INFINITY): number {
  return Math.max(0, Math.min(share, capacity) - held - opening);
}
