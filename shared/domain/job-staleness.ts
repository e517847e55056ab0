/**
 * When a background job (an account's purge, a contact's purge, an account's export) counts as
 * stalled: its chain of steps broke (a step's batch went to the dead-letter queue after its
 * retries, or a request died between storing the job and starting it) and nothing will move it on
 * unless a resume does. See ADR-0118.
 */

/**
 * How long a job may go without a step before the scheduled resume moves it on: twice the longest
 * step a consumer may run (the export's, 300 s), so a live step is never overtaken; and longer than
 * the minute an account's purge waits before taking over a request that died.
 */
export const stallAfterMs = 10 * 60_000;

export interface ResumeOptions {
  /** Only jobs whose last step is at least this old (ms); absent: every unfinished job (a restart). */
  stalledFor?: number;
}

/** Whether a job last moved on at `steppedAt` is one to resume at `now`. */
export function isStalled(steppedAt: string, now: Date, options: ResumeOptions): boolean {
  if (options.stalledFor === undefined) return true;
  const at = Date.parse(steppedAt);
  // A stamp that cannot be read is one no step has written: old enough.
  return Number.isNaN(at) || now.getTime() - at >= options.stalledFor;
}
