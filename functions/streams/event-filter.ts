/**
 * Lambda event filtering, the part of it our consumers use: a record passes when it matches any
 * one of the patterns; a pattern matches when every field it names matches; a list of values
 * matches when the field equals one of them (or, for a list field, one of its elements does).
 * Values may also be `{ exists: true | false }` (on leaves, as in Lambda), `{ prefix: '...' }` and
 * `{ 'anything-but': [...] }`.
 * Anything else in a pattern is refused, so a filter that works only in the cloud fails here first.
 *
 * One matcher for every place a consumer's filters are applied: the stream routers (in Lambda and in
 * the local runtime, stream-router.ts) and the local stream emulator's readers.
 */
import type { EventPattern, PatternValue } from './consumers.ts';

type Json = unknown;

function isPlainObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function matchesValue(rule: PatternValue, value: Json): boolean {
  if (rule === null || typeof rule !== 'object') return value === rule;
  if ('exists' in rule) return rule.exists === (value !== undefined);
  if (value === undefined) return false;
  if ('prefix' in rule) return typeof value === 'string' && value.startsWith(rule.prefix);
  if ('anything-but' in rule) return !rule['anything-but'].some((excluded) => excluded === value);
  throw new Error(`Unsupported filter rule ${JSON.stringify(rule)}`);
}

function matchesRules(rules: readonly PatternValue[], value: Json): boolean {
  if (isPlainObject(value)) return false;
  const values = Array.isArray(value) ? value : [value];
  return rules.some((rule) => {
    if (rule !== null && typeof rule === 'object' && 'exists' in rule) return matchesValue(rule, value);
    return values.some((v) => matchesValue(rule, v));
  });
}

/** Whether a record (an event's JSON) matches one pattern. */
export function matchesPattern(pattern: EventPattern, record: Json): boolean {
  return Object.entries(pattern).every(([field, rule]) => {
    const value = isPlainObject(record) ? record[field] : undefined;
    if (Array.isArray(rule)) return matchesRules(rule as readonly PatternValue[], value);
    if (!isPlainObject(rule)) throw new Error(`Unsupported filter rule for ${field}: ${JSON.stringify(rule)}`);
    // A nested pattern over a field that is not an object matches only where it asks for absence.
    return matchesPattern(rule as EventPattern, isPlainObject(value) ? value : undefined);
  });
}

/** Whether a record passes a consumer's filters: any pattern matches, or there are none. */
export function passesFilters(filters: readonly EventPattern[] | undefined, record: Json): boolean {
  return !filters || filters.length === 0 || filters.some((pattern) => matchesPattern(pattern, record));
}
