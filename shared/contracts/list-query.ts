/**
 * The list query of docs/product.md#lists-and-calls: a JSON object sent URL-encoded in the `query` parameter.
 *
 *   { where, include, order, page, perPage, withCount, after }
 *
 * `where` maps a field path (dots for nesting, e.g. `data.email`) to a value (equality, `null`
 * included) or an operator object ({ like, eq, ne, in, gt, gte, lt, lte }); `or` holds a list of
 * such objects of which one must match. `like` is SQL-like (`%` any run, `_` one character),
 * case- and accent-insensitive. `order` is a list of [field, 'ASC' | 'DESC'].
 *
 * `after` pages by cursor where a route allows it (the contacts): the `nextCursor` of the previous
 * answer, which names the last row shown by its order values and id, so the next page starts just
 * after it whatever was added or removed meanwhile (page stays 0).
 */
import type { ListQueryInput, WhereOperator, WhereScalar } from './list-query-schema.ts';

export type { ListQuery, ListQueryInput, WhereOperator } from './list-query-schema.ts';

export const maxPerPage = 500;
export const defaultPerPage = 10;

export type WhereValue = WhereScalar | WhereOperator;
export interface Where {
  [field: string]: WhereValue | Where[] | undefined;
  or?: Where[];
}

/** Builds the URL search string for a list call: `?query=<url-encoded JSON>`. */
export function listQueryString(query: ListQueryInput): string {
  return `?query=${encodeURIComponent(JSON.stringify(query))}`;
}

/** `%text%` for a case-insensitive "contains" search, escaping the wildcards typed by the user. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
