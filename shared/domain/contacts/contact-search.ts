/**
 * Which contacts a list query's `where` can possibly match, found through the directory's trigram
 * index instead of a scan: the plan names, per alternative, the literal runs a `like` on the name
 * or e-mail requires. A `where` with no such `like` (or only runs under three characters) has no
 * plan, and the directory scans.
 */
import type { Where, WhereValue } from '#contracts/list-query.ts';
import { fold } from '../list-query.ts';

/** The fields the directory indexes. */
export const indexedTextFields = ['name', 'data.email'] as const;

/** The literal runs of a LIKE pattern (folded, escapes resolved), split at `%` and `_`. */
export function likeLiterals(pattern: string): string[] {
  const folded = fold(pattern);
  const runs: string[] = [];
  let run = '';
  for (let i = 0; i < folded.length; i++) {
    const c = folded[i]!;
    if (c === '\\' && i + 1 < folded.length) run += folded[++i]!;
    else if (c === '%' || c === '_') {
      if (run) runs.push(run);
      run = '';
    } else run += c;
  }
  if (run) runs.push(run);
  return runs;
}

const narrows = (literals: string[]) => literals.some((l) => l.length >= 3);

function conditionPlan(field: string, condition: WhereValue | undefined): string[][] | undefined {
  if (!(indexedTextFields as readonly string[]).includes(field)) return undefined;
  if (condition === null || typeof condition !== 'object' || condition.like === undefined) return undefined;
  const literals = likeLiterals(condition.like);
  return narrows(literals) ? [literals] : undefined;
}

/**
 * Alternatives of literal runs, one of which every match of `where` holds in its indexed text; or
 * undefined when the index cannot narrow `where`.
 */
export function searchPlan(where: Where): string[][] | undefined {
  for (const [field, condition] of Object.entries(where)) {
    if (field === 'or') {
      const options = (condition as Where[]).map(searchPlan);
      if (options.length && options.every((o) => o !== undefined)) return options.flat();
      continue;
    }
    const plan = conditionPlan(field, condition as WhereValue | undefined);
    if (plan) return plan;
  }
  return undefined;
}
