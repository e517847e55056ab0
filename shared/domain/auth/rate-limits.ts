/**
 * Brute-force limits for the sign-in and code endpoints. Failures (or, for e-mails and sign-ups,
 * uses) are counted per subject (e-mail or user) and per caller address in a sliding window: a hit
 * counts for exactly one window length after it, so no interval of that length ever holds more than
 * `max` hits, at a window's edge or anywhere else (fixed windows allowed twice the budget across an
 * edge). Each attempt takes its unit before it is checked (docs/security.md, "Rate limits"); once a
 * budget is spent the endpoint answers 'Too many attempts' until its oldest hit leaves the window,
 * whether the next try is right or not.
 */
import { releaseHit, takeHit } from '#db/rate-counters.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';

export interface Limit {
  scope: string;
  max: number;
  windowSeconds: number;
}

export const limits = {
  loginPerEmail: { scope: 'login-email', max: 10, windowSeconds: 15 * 60 },
  loginPerAddress: { scope: 'login-ip', max: 50, windowSeconds: 15 * 60 },
  codePerAddress: { scope: 'code-ip', max: 30, windowSeconds: 15 * 60 },
  mailPerEmail: { scope: 'mail-email', max: 5, windowSeconds: 60 * 60 },
  mailPerAddress: { scope: 'mail-ip', max: 60, windowSeconds: 60 * 60 },
  registerPerAddress: { scope: 'register-ip', max: 200, windowSeconds: 60 * 60 },
} satisfies Record<string, Limit>;

/** Units taken from budgets, to give back when the action they paid for turned out not to count. */
export interface TakenUnits {
  giveBack(): Promise<void>;
}

/**
 * Takes one unit of each budget, atomically per budget and before the action it pays for, so
 * concurrent callers can never take more than the budget, nor act past it. When any budget is
 * spent, the units taken from the others are given back and the answer is 'Too many attempts'.
 */
export async function take(ports: Ports, checks: [Limit, string][]): Promise<TakenUnits> {
  const now = ports.clock().getTime();
  const moments = await Promise.all(checks.map(([l, subject]) => takeHit(ports.table, l.scope, subject, l, now)));
  const taken = { giveBack: () => giveBack(ports, checks, moments) };
  if (moments.includes(undefined)) {
    await taken.giveBack();
    throw fail.tooMany();
  }
  return taken;
}

async function giveBack(ports: Ports, checks: [Limit, string][], moments: (number | undefined)[]): Promise<void> {
  await Promise.all(checks.map(([l, subject], i) => (moments[i] === undefined ? undefined : releaseHit(ports.table, l.scope, subject, moments[i]!))));
}

/**
 * For actions limited by count (sending e-mails, sign-ups): one unit of each budget per action,
 * kept whatever happens next.
 */
export async function consume(ports: Ports, checks: [Limit, string][]): Promise<void> {
  await take(ports, checks);
}

/**
 * For actions limited by failures (passwords, one-time codes): a unit is taken before the check,
 * kept when the check fails (or fails in any other way) and given back when it succeeds. Attempts
 * in flight count, so a crowd of parallel guesses gets no more checks than the budget.
 */
export async function withinFailureBudget<T>(
  ports: Ports,
  checks: [Limit, string][],
  attempt: () => Promise<T>,
  succeeded: (answer: T) => boolean = () => true,
): Promise<T> {
  const taken = await take(ports, checks);
  const answer = await attempt();
  if (succeeded(answer)) await taken.giveBack();
  return answer;
}
