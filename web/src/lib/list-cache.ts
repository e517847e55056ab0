/**
 * Keeping cached answers in step with realtime events (docs/realtime.md): an item replaces the
 * cached one with the same id unless the cached one is newer (`updatedAt`). Works on the three
 * shapes the app caches: one entity, a `{ data, totalCount }` page and an infinite list of pages.
 */
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
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
