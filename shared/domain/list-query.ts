/**
 * The list query mechanism every list route uses: parse the `query` URL parameter (docs/product.md#lists-and-calls)
 * against what a route allows, then filter, order and page the candidate items.
 */
import type { ListQuery, Where, WhereOperator, WhereValue } from '#contracts/list-query.ts';
import { listQuerySchema } from '#contracts/list-query-schema.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import { z } from 'zod';
import { fail } from './errors.ts';

export interface ListRules {
  /** Field paths that may appear in `where` and `order`. */
  fields: readonly string[];
  /** Relations that may be named in `include`. */
  includes?: readonly string[];
  /** Order used when the query gives none. */
  defaultOrder?: ListQuery['order'];
  /** Whether the route pages by cursor (`after`); elsewhere `after` is refused. */
  cursor?: boolean;
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
    throw fail.invalid(
      undefined,
      parsed.error.issues.map((i) => ({ path: ['query', ...i.path].join('.'), message: i.message })),
    );
  }
  const q = parsed.data;
  const unknownFields = [...fieldsOf(q.where), ...q.order.map(([f]) => f)].filter((f) => !rules.fields.includes(f));
  const unknownIncludes = q.include.filter((i) => !(rules.includes ?? []).includes(i));
  if (unknownFields.length || unknownIncludes.length) {
    throw fail.invalid(undefined, [
      ...unknownFields.map((f) => ({ path: `query.where.${f}`, message: `Campo desconhecido: ${f}` })),
      ...unknownIncludes.map((i) => ({ path: 'query.include', message: `Relação desconhecida: ${i}` })),
    ]);
  }
  if (q.after !== undefined && !rules.cursor) throw fail.invalid(undefined, [{ path: 'query.after', message: 'Esta lista pagina só por número de página' }]);
  if (q.after !== undefined && q.page !== 0) throw fail.invalid(undefined, [{ path: 'query.page', message: 'Uma página por cursor (after) é a página 0' }]);
  if (!q.order.length && rules.defaultOrder) q.order = rules.defaultOrder;
  return q;
}

/** Lower-cased, accent-free text for case- and accent-insensitive matching. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/**
 * A tester for a LIKE pattern over folded text: plain string search for the common shapes
 * (`%text%`, `text%`, `%text`, `text`), a wildcard matcher otherwise.
 */
export function likeMatcher(pattern: string): { test(text: string): boolean } {
  const folded = fold(pattern);
  const literal = /^(%?)([^%_\\]*)(%?)$/.exec(folded);
  if (literal) {
    const [, lead, text, trail] = literal as unknown as [string, string, string, string];
    if (lead && trail) return { test: (t) => t.includes(text) };
    if (trail) return { test: (t) => t.startsWith(text) };
    if (lead) return { test: (t) => t.endsWith(text) };
    return { test: (t) => t === text };
  }
  return likeToMatcher(pattern);
}

/** A pattern's parts: a literal character, `_` (any one character) or `%` (any run). */
type LikeToken = { literal: string } | 'one' | 'run';

const likeCache = new Map<string, LikeToken[]>();

/**
 * SQL LIKE over folded text (`%` any run, `_` one character, `\` escapes), matched in time
 * proportional to text length × pattern length at worst. Never a regular expression: a
 * backtracking engine takes exponential time on patterns like `%a%a%a…%b` against a long run of
 * `a`s, and any member can send one in a list query.
 */
export function likeToMatcher(pattern: string): { test(text: string): boolean } {
  let tokens = likeCache.get(pattern);
  if (!tokens) {
    tokens = [];
    const folded = fold(pattern);
    for (let i = 0; i < folded.length; i++) {
      const c = folded[i]!;
      if (c === '\\' && i + 1 < folded.length) tokens.push({ literal: folded[++i]! });
      else if (c === '%') {
        if (tokens[tokens.length - 1] !== 'run') tokens.push('run');
      } else if (c === '_') tokens.push('one');
      else tokens.push({ literal: c });
    }
    if (likeCache.size > 1000) likeCache.clear();
    likeCache.set(pattern, tokens);
  }
  const parts = tokens;
  return {
    test(text: string): boolean {
      // Greedy matching that, on a mismatch, lets the last `%` take one more character.
      let t = 0;
      let p = 0;
      let runAt = -1;
      let runFrom = 0;
      while (t < text.length) {
        const part = parts[p];
        if (part === 'run') {
          runAt = p++;
          runFrom = t;
        } else if (part !== undefined && (part === 'one' || part.literal === text[t])) {
          t++;
          p++;
        } else if (runAt >= 0) {
          p = runAt + 1;
          t = ++runFrom;
        } else return false;
      }
      while (parts[p] === 'run') p++;
      return p === parts.length;
    },
  };
}

const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

function compare(a: unknown, b: unknown, raw = false): number {
  // A missing value and null are one value (both sort first), so the order is total.
  if (a === b || (a == null && b == null)) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (!raw && typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
  return (a as number) < (b as number) ? -1 : 1;
}

const isOperator = (v: WhereValue): v is WhereOperator => v !== null && typeof v === 'object';

/**
 * How a big collection exposes its fields to the query cheaply. Each function answers, once per
 * query, a reader for one field path: `reader` reads a value, `foldedReader` reads text already
 * folded (for `like`), `sortReader` reads a value that orders with plain comparison (pre-folded
 * text, ISO dates, numbers).
 */
export interface FieldAccess<T> {
  reader?: (path: string) => (item: T) => unknown;
  foldedReader?: (path: string) => ((item: T) => string | null | undefined) | undefined;
  sortReader?: (path: string) => (item: T) => unknown;
}

/** A reader for a dotted path, split once. */
export function pathReader(path: string): (item: unknown) => unknown {
  const parts = path.split('.');
  if (parts.length === 1) {
    const [key] = parts as [string];
    return (item) => (item === null || item === undefined ? undefined : (item as Record<string, unknown>)[key]);
  }
  return (item) => {
    let value: unknown = item;
    for (const part of parts) {
      if (value === null || value === undefined || typeof value !== 'object') return undefined;
      value = (value as Record<string, unknown>)[part];
    }
    return value;
  };
}

type Predicate<T> = (item: T) => boolean;

/**
 * A condition on one field. A field holding a list (a contact's `tags`) matches when one of its
 * values does (`ne`: when none is equal), so `{ tags: 'T1' }` reads "tagged T1".
 */
function compileCondition<T>(path: string, condition: WhereValue, access: FieldAccess<T>): Predicate<T> {
  const read = (access.reader?.(path) ?? pathReader(path)) as (item: T) => unknown;
  const folded = isOperator(condition) && condition.like !== undefined ? access.foldedReader?.(path) : undefined;
  const test = compileValueTest(condition);
  const onlyNe = isOperator(condition) && Object.keys(condition).length === 1 && 'ne' in condition;
  return (item) => {
    const v = read(item);
    if (Array.isArray(v)) return onlyNe ? v.every((e) => test(e ?? null, undefined)) : v.some((e) => test(e ?? null, undefined));
    return test(v === undefined ? null : v, folded ? folded(item) : undefined);
  };
}

/** A test of one value; `foldedText` is the value already folded, when the field has a folded reader. */
function compileValueTest(condition: WhereValue): (value: unknown, foldedText: string | null | undefined) => boolean {
  if (!isOperator(condition)) return (value) => value === condition;
  const op = condition;
  const checks: ((value: unknown, foldedText: string | null | undefined) => boolean)[] = [];
  if ('eq' in op) checks.push((value) => value === op.eq);
  if ('ne' in op) checks.push((value) => value !== op.ne);
  if (op.in) {
    const set = new Set(op.in);
    checks.push((value) => set.has(value as never));
  }
  if (op.like !== undefined) {
    const re = likeMatcher(op.like);
    checks.push((value, foldedText) => {
      if (foldedText !== undefined) return typeof foldedText === 'string' && re.test(foldedText);
      return typeof value === 'string' && re.test(fold(value));
    });
  }
  if (op.gt !== undefined) checks.push((value) => value !== null && compare(value, op.gt) > 0);
  if (op.gte !== undefined) checks.push((value) => value !== null && compare(value, op.gte) >= 0);
  if (op.lt !== undefined) checks.push((value) => compare(value, op.lt) < 0);
  if (op.lte !== undefined) checks.push((value) => compare(value, op.lte) <= 0);
  return checks.length === 1 ? checks[0]! : (value, foldedText) => checks.every((check) => check(value, foldedText));
}

/** Compiles a `where` into one predicate, splitting paths and building patterns once. */
export function compileWhere<T>(where: Where, access: FieldAccess<T> = {}): Predicate<T> {
  const checks: Predicate<T>[] = [];
  for (const [field, condition] of Object.entries(where)) {
    if (condition === undefined) continue;
    if (field === 'or') {
      const options = (condition as Where[]).map((o) => compileWhere(o, access));
      if (options.length) checks.push((item) => options.some((o) => o(item)));
    } else {
      checks.push(compileCondition(field, condition as WhereValue, access));
    }
  }
  if (checks.length === 0) return () => true;
  if (checks.length === 1) return checks[0]!;
  return (item) => checks.every((check) => check(item));
}

export function matchesWhere<T>(item: T, where: Where, access: FieldAccess<T> = {}): boolean {
  return compileWhere(where, access)(item);
}

/** Compares two items by a query's order (0 when every ordered field is equal), reading each field once per query. */
export function orderComparator<T>(order: ListQuery['order'], access: FieldAccess<T> = {}): (a: T, b: T) => number {
  const raw = Boolean(access.sortReader);
  const readers = order.map(([field, direction]) => ({
    read: (access.sortReader?.(field) ?? access.reader?.(field) ?? pathReader(field)) as (item: T) => unknown,
    sign: direction.toUpperCase() === 'DESC' ? -1 : 1,
  }));
  return (a, b) => {
    for (const { read, sign } of readers) {
      const c = compare(read(a), read(b), raw);
      if (c !== 0) return sign * c;
    }
    return 0;
  };
}

/** Filters, orders and pages items already loaded for one account. */
export function applyListQuery<T>(items: T[], q: ListQuery, access: FieldAccess<T> = {}): ListAnswer<T> {
  const matched = Object.keys(q.where).length ? items.filter(compileWhere(q.where, access)) : [...items];
  if (q.order.length) matched.sort(orderComparator(q.order, access));
  const start = q.page * q.perPage;
  return { data: matched.slice(start, start + q.perPage), totalCount: matched.length };
}

/** An order made total: the id breaks ties, so rows with equal values keep one order between pages. */
export function withIdTieBreak(order: ListQuery['order']): ListQuery['order'] {
  return order.some(([field]) => field === 'id') ? order : [...order, ['id', 'ASC']];
}

/** A row's place in a total order (withIdTieBreak): its values of the order's fields. */
export type SortKey = unknown[];

/** Reads a row's sort key, as the sort compares it (the access's sort readers). */
export function sortKeyReader<T>(order: ListQuery['order'], access: FieldAccess<T>): (item: T) => SortKey {
  const readers = order.map(([field]) => (access.sortReader?.(field) ?? access.reader?.(field) ?? pathReader(field)) as (item: T) => unknown);
  return (item) => readers.map((read) => read(item) ?? null);
}

/** Compares two sort keys of an order; `raw` as applyListQuery with sort readers (values that order by plain comparison). */
export function compareSortKeys(order: ListQuery['order'], a: SortKey, b: SortKey, raw: boolean): number {
  for (let i = 0; i < order.length; i++) {
    const c = compare(a[i], b[i], raw);
    if (c !== 0) return order[i]![1].toUpperCase() === 'DESC' ? -c : c;
  }
  return 0;
}

/** The cursor of a list after a row: the order it was made for and the row's sort key, URL-safe. */
export function encodeCursor(order: ListQuery['order'], key: SortKey): string {
  return Buffer.from(JSON.stringify({ o: order, k: key })).toString('base64url');
}

const cursorSchema = z.object({
  o: z.array(z.tuple([z.string(), z.string()])),
  k: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

/** The sort key a cursor holds, checked to be one of this order's; anything else is 'Invalid params'. */
export function decodeCursor(cursor: string, order: ListQuery['order']): SortKey {
  const refused = () => fail.invalid(errorTexts.invalidParams, [{ path: 'query.after', message: 'Cursor de outra lista ou de outra ordem' }]);
  let parsed: z.infer<typeof cursorSchema>;
  try {
    parsed = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw refused();
  }
  const sameOrder = parsed.o.length === order.length && parsed.o.every(([f, d], i) => f === order[i]![0] && d.toUpperCase() === order[i]![1].toUpperCase());
  if (!sameOrder || parsed.k.length !== order.length) throw refused();
  return parsed.k;
}
