/**
 * The channel workers' health as the public health route shows it (`GET /health`): how many
 * workers beat within their lease period, and how old the freshest beat is. Nothing else: no
 * worker id, no connection, no account (ADR-0195).
 */
import { listWorkerBeats } from '#db/worker-beats.ts';
import type { Ports } from '../ports.ts';

export interface WorkerHealth {
  /** Workers whose last beat is within their lease period. */
  live: number;
  /** Seconds since the freshest beat of any worker still remembered; null when none is. */
  freshestBeatSeconds: number | null;
}

export async function workerHealth(ports: Pick<Ports, 'table'>, now = Date.now()): Promise<WorkerHealth> {
  const beats = await listWorkerBeats(ports.table);
  const live = beats.filter((beat) => beat.expiresAt >= now).length;
  const freshest = beats.reduce<number | null>((latest, beat) => (latest === null || beat.beatAt > latest ? beat.beatAt : latest), null);
  return { live, freshestBeatSeconds: freshest === null ? null : Math.max(0, Math.round((now - freshest) / 100) / 10) };
}
