/**
 * Where the fleet puts things, from the workers' beats (`shared/db/worker-beats.ts`): the live
 * worker with the most room for a command whose connection nobody holds, and each worker's fair
 * share of the sessions wanted. Plain functions of the beats and the clock
 * (ADR-0203).
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
