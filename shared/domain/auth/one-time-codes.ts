/**
 * Six-digit one-time codes: generated at random, stored hashed, expiring, five tries at most. A code
 * is bound to its purpose, its subject (the user for 'verify', the e-mail for 'reset') and the
 * address it was mailed to: it proves that address and nothing else (docs/security.md, "Who owns an
 * address").
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { getCode, putCode, spendCodeStep, takeAttempt, type CodePurpose } from '#db/codes.ts';
import type { DeleteStep } from '#db/transaction.ts';
import { errorTexts } from '#contracts/errors.ts';
import { fail } from '../errors.ts';
import { limits, withinFailureBudget } from './rate-limits.ts';
import type { Ports } from '../ports.ts';

export const maxCodeAttempts = 5;
export const verifyCodeLifetimeSeconds = 24 * 60 * 60;
export const resetCodeLifetimeSeconds = 30 * 60;

function hashCode(purpose: CodePurpose, subject: string, address: string, code: string): string {
  return createHash('sha256').update(`${purpose}:${subject}:${address}:${code}`).digest('hex');
}

/** A fresh code for a subject, mailed to `address` (the caller sends it), replacing any earlier one. */
export async function issueCode(ports: Ports, purpose: CodePurpose, subject: string, address: string, lifetimeSeconds: number): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = Math.floor(ports.clock().getTime() / 1000) + lifetimeSeconds;
  await putCode(ports.table, purpose, { codeHash: hashCode(purpose, subject, address, code), expiresAt, subject, address });
  return code;
}

/** A code that matched: the address it proves, and the member of a transaction that uses it up. */
export interface CheckedCode {
  address: string;
  spend: DeleteStep;
}

/**
 * Checks a code without using it up. Every try takes one of the code's attempts first, right or
 * wrong (parallel guesses get five comparisons in all); an expired or exhausted code is refused
 * whatever is typed.
 */
export async function checkCode(ports: Ports, purpose: CodePurpose, subject: string, code: string): Promise<CheckedCode> {
  const stored = await getCode(ports.table, purpose, subject);
  const now = Math.floor(ports.clock().getTime() / 1000);
  if (!stored?.address || stored.subject !== subject || stored.expiresAt <= now) throw fail.invalid(errorTexts.invalidCode);
  if (!(await takeAttempt(ports.table, purpose, subject, maxCodeAttempts))) throw fail.invalid(errorTexts.invalidCode);
  const given = Buffer.from(hashCode(purpose, subject, stored.address, code), 'hex');
  const expected = Buffer.from(stored.codeHash, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw fail.invalid(errorTexts.invalidCode);
  return { address: stored.address, spend: spendCodeStep(purpose, subject, stored.codeHash) };
}

/** Checks a code within the caller's budget of failed tries (per address, taken before the check). */
export function checkCodeWithinBudget(ports: Ports, purpose: CodePurpose, subject: string, code: string, address: string): Promise<CheckedCode> {
  return withinFailureBudget(ports, [[limits.codePerAddress, address]], () => checkCode(ports, purpose, subject, code));
}
