/**
 * The list query mechanism every list route uses: parse the `query` URL parameter (SPEC section 7)
 * against what a route allows, then filter, order and page the candidate items.
 */
import { z } from 'zod';
import { listQuerySchema, type ListQuery, type Where, type WhereOperator, type WhereValue } from '#contracts/list-query.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { fail } from './errors.ts';

export interface ListRules {
  /** Field paths that may appear in `where` and `order`. */
  fields: readonly string[];
  /** Relations that may be named in `include`. */
  includes?: readonly string[];
  /** Order used when the query gives none. */
  defaultOrder?: ListQuery['order'];
}

function fieldsOf(where: Where): string[] {
  return Object.entries(where).flatMap(([k, v]) => (k === 'or' ? (v as Where[]).flatMap(fieldsOf) : [k]));
}

/** Parses the raw `query` parameter; anything malformed or not allowed is 'Invalid params'. */
export function parseListQuery(raw: string | undefined, rules: ListRules): ListQuery {
  let json: unknown = {};
  if (raw !== undefined && raw !== '') {
    try {
      json = JSON.parse(raw);
    } catch {
      throw fail.invalid(undefined, [{ path: 'query', message: 'query must be JSON' }]);
    }
  }
  const parsed = listQuerySchema.safeParse(json);
  if (!parsed.success) {
    throw fail.invalid(undefined, parsed.error.issues.map((i) => ({ path: ['query', ...i.path].join('.'), message: i.message })));
  }
  const q = parsed.data;
  const unknownFields = [...fieldsOf(q.where), ...q.order.map(([f]) => f)].filter((f) => !rules.fields.includes(f));
  const unknownIncludes = q.include.filter((i) => !(rules.includes ?? []).includes(i));
  if (unknownFields.length || unknownIncludes.length) {
    throw fail.invalid(undefined, [
      ...unknownFields.map((f) => ({ path: `query.where.${f}`, message: `Unknown field ${f}` })),
      ...unknownIncludes.map((i) => ({ path: 'query.include', message: `Unknown relation ${i}` })),
    ]);
  }
  if (!q.order.length && rules.defaultOrder) q.order = rules.defaultOrder;
  return q;
}

/** Lower-cased, accent-free text for case- and accent-insensitive matching. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}

const likeCache = new Map<string, RegExp>();
/** SQL LIKE as a regular expression: `%` any run, `_` one character, `\` escapes. */
export function likeToRegExp(pattern: string): RegExp {
  let re = likeCache.get(pattern);
  if (!re) {
    let source = '';
    const folded = fold(pattern);
    for (let i = 0; i < folded.length; i++) {
      const c = folded[i]!;
      if (c === '\\' && i + 1 < folded.length) source += folded[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      else if (c === '%') source += '.*';
      else if (c === '_') source += '.';
      else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
    re = new RegExp(`^${source}$`, 's');
    if (likeCache.size > 1000) likeCache.clear();
    likeCache.set(pattern, re);
  }
  return re;
}

export function valueAt(item: unknown, path: string): unknown {
  let value: unknown = item;
  for (const part of path.split('.')) {
    if (value === null || value === undefined || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

function compare(a: unknown, b: unknown, raw = false): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (!raw && typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
  return (a as number) < (b as number) ? -1 : 1;
}

const isOperator = (v: WhereValue): v is WhereOperator => v !== null && typeof v === 'object';

/**
 * How a big collection exposes its fields to the query cheaply: `valueAt` reads a field, `foldedAt`
 * answers a text field already folded (for `like`), `sortValueAt` answers a value that orders with
 * plain comparison (pre-folded text, ISO dates, numbers).
 */
export interface FieldAccess<T> {
  valueAt?: (item: T, path: string) => unknown;
  foldedAt?: (item: T, path: string) => string | null | undefined;
  sortValueAt?: (item: T, path: string) => unknown;
}

function matchesValue(actual: unknown, condition: WhereValue, folded: () => string | null | undefined): boolean {
  const normal = actual === undefined ? null : actual;
  if (!isOperator(condition)) return normal === condition;
  const op = condition;
  if ('eq' in op && normal !== op.eq) return false;
  if ('ne' in op && normal === op.ne) return false;
  if (op.in && !op.in.includes(normal as never)) return false;
  if (op.like !== undefined) {
    const text = typeof normal === 'string' ? folded() : null;
    if (typeof text !== 'string' || !likeToRegExp(op.like).test(text)) return false;
  }
  if (op.gt !== undefined && !(compare(normal, op.gt) > 0 && normal !== null)) return false;
  if (op.gte !== undefined && !(compare(normal, op.gte) >= 0 && normal !== null)) return false;
  if (op.lt !== undefined && !(compare(normal, op.lt) < 0)) return false;
  if (op.lte !== undefined && !(compare(normal, op.lte) <= 0)) return false;
  return true;
}

export function matchesWhere<T>(item: T, where: Where, access: FieldAccess<T> = {}): boolean {
  const read = access.valueAt ?? valueAt;
  for (const [field, condition] of Object.entries(where)) {
    if (condition === undefined) continue;
    if (field === 'or') {
      const options = condition as Where[];
      if (options.length && !options.some((o) => matchesWhere(item, o, access))) return false;
    } else {
      const actual = read(item, field);
      const folded = () => (access.foldedAt ? access.foldedAt(item, field) : typeof actual === 'string' ? fold(actual) : null);
      if (!matchesValue(actual, condition as WhereValue, folded)) return false;
    }
  }
  return true;
}

/** Filters, orders and pages items already loaded for one account. */
export function applyListQuery<T>(items: T[], q: ListQuery, access: FieldAccess<T> = {}): ListAnswer<T> {
  const matched = Object.keys(q.where).length ? items.filter((item) => matchesWhere(item, q.where, access)) : [...items];
  if (q.order.length) {
    const sortValue = access.sortValueAt;
    const read = sortValue ?? access.valueAt ?? valueAt;
    matched.sort((a, b) => {
      for (const [field, direction] of q.order) {
        const c = compare(read(a, field), read(b, field), Boolean(sortValue));
        if (c !== 0) return direction.toUpperCase() === 'DESC' ? -c : c;
      }
      return 0;
    });
  }
  const start = q.page * q.perPage;
  return { data: matched.slice(start, start + q.perPage), totalCount: matched.length };
}

export const listQueryParam = z.object({ query: z.string().max(8000).optional() });
