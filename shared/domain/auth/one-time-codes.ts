/** Six-digit one-time codes: generated at random, stored hashed, expiring, five tries at most. */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { countAttempt, deleteCode, getCode, putCode, type CodePurpose } from '#db/codes.ts';
import { errorTexts } from '#contracts/errors.ts';
import { DomainError, fail } from '../errors.ts';
import { ensureBudget, limits, spend, type Limit } from './rate-limits.ts';
import type { Ports } from '../ports.ts';

export const maxCodeAttempts = 5;
export const verifyCodeLifetimeSeconds = 24 * 60 * 60;
export const resetCodeLifetimeSeconds = 30 * 60;

function hashCode(subject: string, code: string): string {
  return createHash('sha256').update(`${subject}:${code}`).digest('hex');
}

/** A code for a subject: the user id for 'verify', the e-mail for 'reset'. */
export async function issueCode(ports: Ports, purpose: CodePurpose, subject: string, lifetimeSeconds: number): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = Math.floor(ports.clock().getTime() / 1000) + lifetimeSeconds;
  await putCode(ports.table, purpose, { codeHash: hashCode(subject, code), expiresAt, subject });
  return code;
}

/**
 * Checks a code without using it up. A wrong code costs one attempt; an expired or exhausted code
 * is refused whatever is typed.
 */
export async function checkCode(ports: Ports, purpose: CodePurpose, subject: string, code: string): Promise<void> {
  const stored = await getCode(ports.table, purpose, subject);
  const now = Math.floor(ports.clock().getTime() / 1000);
  if (!stored || stored.subject !== subject || stored.expiresAt <= now || stored.attempts >= maxCodeAttempts) {
    throw fail.invalid(errorTexts.invalidCode);
  }
  const given = Buffer.from(hashCode(subject, code), 'hex');
  const expected = Buffer.from(stored.codeHash, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    const attempts = await countAttempt(ports.table, purpose, subject);
    if (attempts >= maxCodeAttempts) await deleteCode(ports.table, purpose, subject);
    throw fail.invalid(errorTexts.invalidCode);
  }
}

/** Checks a code within the caller's budget of failed tries (rate limit per address). */
export async function checkCodeWithinBudget(ports: Ports, purpose: CodePurpose, subject: string, code: string, address: string): Promise<void> {
  const budget: [Limit, string][] = [[limits.codePerAddress, address]];
  await ensureBudget(ports, budget);
  try {
    await checkCode(ports, purpose, subject, code);
  } catch (error) {
    if (error instanceof DomainError) await spend(ports, budget);
    throw error;
  }
}

export function spendCode(ports: Ports, purpose: CodePurpose, subject: string): Promise<void> {
  return deleteCode(ports.table, purpose, subject);
}
