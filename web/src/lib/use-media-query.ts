import { useSyncExternalStore } from 'react';

/**
 * One MediaQueryList per query for the app's lifetime. React reads a store's snapshot on every
 * render and again after each commit; calling `matchMedia` there built a new list and evaluated the
 * query each time (54 ms of a burst of 250 messages at a 4x CPU slowdown, in the conversation's
 * header), where an existing list's `matches` is kept current by the browser.
 */
const lists = new Map<string, MediaQueryList | null>();
let madeBy: typeof globalThis.matchMedia | undefined;
function listFor(query: string): MediaQueryList | null {
  // A replaced matchMedia (the tests stub one) starts afresh.
  if (globalThis.matchMedia !== madeBy) {
    lists.clear();
    madeBy = globalThis.matchMedia;
  }
  let list = lists.get(query);
  if (list === undefined) {
    list = globalThis.matchMedia?.(query) ?? null;
    lists.set(query, list);
  }
  return list;
}

/** Whether a CSS media query matches now, kept current (false where matchMedia is missing, as in jsdom). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = listFor(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    () => listFor(query)?.matches ?? false,
    () => false,
  );
}
