/**
 * A background job run a bounded step at a time (an account's purge, an export of an account's
 * data, a deleted contact's purge): its stream consumer calls `runJobStep` for every change of the
 * job's item, and every step ends by changing the item again (`shared/db/stepped-jobs.ts`:
 * conditionally on the round it read), which brings the next step. A step that finds another one
 * moved the job meanwhile leaves it to that one's chain; `resumeJobs` moves on jobs whose chain
 * broke. Each job says only what is its own: which item, and what a step does.
 */
import type { Table } from '#db/client.ts';
import { isStalled, type ResumeOptions } from './job-staleness.ts';
import type { Ports } from './ports.ts';

/**
 * What a step did: progress to record (the job goes on, after `pauseMs` when it is waiting on
 * something outside the table), `done` (the job's last work is done), or null (no step now: the job
 * waits for something else to move it).
 */
export type StepResult<Progress> = { progress: Progress; pauseMs?: number } | { done: true } | null;

export interface SteppedJob<Ref, Job, Progress> {
  /** The job a changed item (its new image) is, if any. */
  refOf(image: Record<string, unknown>): Ref | undefined;
  /** The job's item as it is now. */
  get(table: Table, ref: Ref): Promise<Job | undefined>;
  /** Whether the job still has steps to run. */
  isRunning(job: Job): boolean;
  /** One bounded step of the job's work. */
  step(ports: Ports, job: Job): Promise<StepResult<Progress>>;
  /** Records progress and asks for the next step, only at the round `job` was read at. */
  advance(table: Table, job: Job, progress: Progress, now: string): Promise<boolean>;
  /** What a resume records: no step's work, the change alone runs the next step. */
  nudge(job: Job): Progress;
  /** Ends the job after a step answered `done`; a job without it ends by its last progress (an export stays, done). */
  finish?(table: Table, job: Job): Promise<void>;
  /** Jobs that have not finished (gsi1). */
  pending(table: Table): Promise<Job[]>;
  /** When the job last moved on. */
  steppedAt(job: Job): string;
}

/**
 * One step of a job, for a change of its item. Does nothing once the job is gone or done, nor when
 * another step moved it meanwhile (the conditional advance fails: that step's change runs the next).
 */
export async function runJobStep<Ref, Job, Progress>(ports: Ports, job: SteppedJob<Ref, Job, Progress>, ref: Ref): Promise<void> {
  const current = await job.get(ports.table, ref);
  if (!current || !job.isRunning(current)) return;
  const result = await job.step(ports, current);
  if (!result) return;
  if ('done' in result) return job.finish?.(ports.table, current);
  if (result.pauseMs) await new Promise((r) => setTimeout(r, result.pauseMs));
  await job.advance(ports.table, current, result.progress, ports.clock().toISOString());
}

/**
 * Moves unfinished jobs on: every one (a restarted runtime lost the stream records that would have
 * run their next steps), or those stalled (`options.stalledFor`: the scheduled resume). Each move
 * is conditional on the round seen, so a step or another resume that moved a job meanwhile wins and
 * this one leaves it. Answers how many it moved.
 */
export async function resumeJobs<Ref, Job, Progress>(
  ports: Pick<Ports, 'table' | 'clock'>,
  job: SteppedJob<Ref, Job, Progress>,
  options: ResumeOptions = {},
): Promise<number> {
  const now = ports.clock();
  let moved = 0;
  for (const pending of await job.pending(ports.table)) {
    if (!job.isRunning(pending) || !isStalled(job.steppedAt(pending), now, options)) continue;
    if (await job.advance(ports.table, pending, job.nudge(pending), now.toISOString())) moved++;
  }
  return moved;
}
