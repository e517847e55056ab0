/**
 * Keeping cached answers in step with realtime events (docs/realtime.md): an item replaces the
 * cached one with the same id unless the cached one is newer (`updatedAt`). Works on the three
 * shapes the app caches: one entity, a `{ data, totalCount }` page and an infinite list of pages.
 */
import { replaceEqualDeep, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { ListAnswer } from '#contracts/entities.ts';

export interface Identified {
  id: string;
  updatedAt?: string;
}

/** The later of two versions of an item (ties go to the incoming one). */
export function newer<T extends Identified>(current: T, incoming: T): T {
  if (current.updatedAt && incoming.updatedAt && incoming.updatedAt < current.updatedAt) return current;
  return incoming;
}

/**
 * A query's structural sharing that keeps the cached item when it is newer (`updatedAt`) than a
 * refetch's answer: a refetch read before a realtime event or a mutation's answer, and answered
 * after it, would put the older state back, and no later event comes to correct it.
 */
export function keepNewerItem(cached: unknown, fetched: unknown): unknown {
  if (!cached || !fetched) return fetched;
  const kept = newer(cached as Identified, fetched as Identified);
  return kept === cached ? cached : replaceEqualDeep(cached, fetched);
}

export function isListAnswer(value: unknown): value is ListAnswer<Identified> {
  return !!value && typeof value === 'object' && Array.isArray((value as ListAnswer<unknown>).data);
}

export function isInfinite(value: unknown): value is InfiniteData<ListAnswer<Identified>> {
  return !!value && typeof value === 'object' && Array.isArray((value as InfiniteData<unknown>).pages);
}

/** Replaces the item in a list page; answers the same page when it is not there. */
export function replaceInList<T extends Identified>(list: ListAnswer<T>, item: T, merge: (a: T, b: T) => T = newer): ListAnswer<T> {
  const index = list.data.findIndex((x) => x.id === item.id);
  if (index < 0) return list;
  const merged = merge(list.data[index]!, item);
  if (merged === list.data[index]) return list;
  const data = list.data.slice();
  data[index] = merged;
  return { ...list, data };
}

/**
 * Replaces an item wherever it is cached under `prefix`. Answers the keys of the list queries that
 * do not hold it (the caller decides whether to refetch them, i.e. to "add").
 */
export function replaceEverywhere<T extends Identified>(client: QueryClient, prefix: QueryKey, item: T, merge: (a: T, b: T) => T = newer): QueryKey[] {
  const missing: QueryKey[] = [];
  for (const query of client.getQueryCache().findAll({ queryKey: prefix })) {
    const data = query.state.data;
    if (isInfinite(data)) {
      let found = false;
      const pages = data.pages.map((page) => {
        const next = replaceInList(page as ListAnswer<T>, item, merge);
        if (page.data.some((x) => x.id === item.id)) found = true;
        return next;
      });
      if (found) client.setQueryData(query.queryKey, { ...data, pages });
      else missing.push(query.queryKey);
    } else if (isListAnswer(data)) {
      if (data.data.some((x) => x.id === item.id)) client.setQueryData(query.queryKey, replaceInList(data as ListAnswer<T>, item, merge));
      else missing.push(query.queryKey);
    } else if (data && typeof data === 'object' && (data as Identified).id === item.id) {
      client.setQueryData(query.queryKey, merge(data as T, item));
    }
  }
  return missing;
}

/**
 * Structural sharing for an infinite list, by item id rather than by position (TanStack Query's
 * default, `replaceEqualDeep`, pairs items by index: when one contact moves to the top, or a new
 * message is added before the others, every item after it compares unequal with its neighbour and
 * comes back as a new object, and every memoised row re-renders). Here an item equal to the cached
 * one with its id keeps the cached object, wherever it now sits; a changed item is shared deeply.
 * For the `structuralSharing` option of list queries whose rows are memoised on their item.
 */
export function shareItemsById(previous: unknown, next: unknown): unknown {
  if (!isInfinite(previous) || !isInfinite(next)) return replaceEqualDeep(previous, next);
  const cached = new Map<string, Identified>();
  for (const page of previous.pages) for (const item of page.data) cached.set(item.id, item);
  let same = previous.pages.length === next.pages.length;
  const pages = next.pages.map((page, p) => {
    let pageSame = previous.pages[p]?.data.length === page.data.length;
    const data = page.data.map((item, i) => {
      const before = cached.get(item.id);
      const shared = before ? (replaceEqualDeep(before, item) as Identified) : item;
      if (shared !== previous.pages[p]?.data[i]) pageSame = false;
      return shared;
    });
    const old = previous.pages[p];
    if (pageSame && old && old.totalCount === page.totalCount) return old;
    same = false;
    return { ...page, data };
  });
  const pageParams = replaceEqualDeep(previous.pageParams, next.pageParams);
  if (same && pageParams === previous.pageParams) return previous;
  return { ...next, pages, pageParams };
}
