/**
 * Brute-force limits for the sign-in and code endpoints. Failures (or, for e-mails and sign-ups,
 * uses) are counted per subject (e-mail or user) and per caller address in a sliding window: a hit
 * counts for exactly one window length after it, so no interval of that length ever holds more than
 * `max` hits, at a window's edge or anywhere else (fixed windows allowed twice the budget across an
 * edge). Once a budget is spent the endpoint answers 'Too many attempts' until its oldest hit leaves
 * the window, whether the next try is right or not.
 */
import { readCounter, recordHit } from '#db/rate-counters.ts';
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

/** Refuses when any of the budgets is already spent. */
export async function ensureBudget(ports: Ports, checks: [Limit, string][]): Promise<void> {
  const now = ports.clock().getTime();
  const counts = await Promise.all(checks.map(([l, subject]) => readCounter(ports.table, l.scope, subject, l.windowSeconds, now)));
  if (counts.some((count, i) => count >= checks[i]![0].max)) throw fail.tooMany();
}

/** Spends one unit of each budget (a failure that happened counts even past the budget). */
export async function spend(ports: Ports, checks: [Limit, string][]): Promise<void> {
  const now = ports.clock().getTime();
  await Promise.all(checks.map(([l, subject]) => recordHit(ports.table, l.scope, subject, l, now, false)));
}

/**
 * Checks and spends in one go: for actions limited by count, not by failure (sending e-mails,
 * sign-ups). Each unit is taken only while the budget has room, so concurrent callers cannot
 * overdraw it.
 */
export async function consume(ports: Ports, checks: [Limit, string][]): Promise<void> {
  await ensureBudget(ports, checks);
  const now = ports.clock().getTime();
  const taken = await Promise.all(checks.map(([l, subject]) => recordHit(ports.table, l.scope, subject, l, now, true)));
  if (taken.includes(false)) throw fail.tooMany();
}
