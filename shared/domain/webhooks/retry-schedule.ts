/**
 * When a failed delivery is tried again (ADR-0233): after 1 minute, 5, 30,
 * 2 hours, 5, 8 and 8 (eight attempts over about 24 hours), each wait moved by up to 10% either way
 * so receivers that fell over together are not hit together when they come back.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The wait after the nth failed attempt (index 0: after the first). */
const waits = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 8 * HOUR, 8 * HOUR] as const;

/** Attempts a delivery gets before it fails for good. */
export const maxWebhookAttempts = waits.length + 1;

/**
 * The time of the next attempt after `attempt` (1-based) failed at `at` (epoch ms), or null when
 * none is left. `random` in [0, 1) places the jitter.
 */
export function nextAttemptAt(attempt: number, at: number, random: () => number = Math.random): number | null {
  const wait = waits[attempt - 1];
  if (wait === undefined) return null;
  return at + Math.round(wait * (0.9 + 0.2 * random()));
}
