import { useSyncExternalStore } from 'react';

/** A minimal external store: enough for the session, theme, toasts and the error modal. */
export interface Store<T> {
  get(): T;
  set(next: T | ((prev: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      const value = typeof next === 'function' ? (next as (prev: T) => T)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The store's value. `serverValue` is what a prerendered page was rendered with (web/src/prerender.tsx)
 * when the browser's value can differ (the theme): hydration renders with it, then React re-renders
 * with the browser's.
 */
export function useStore<T>(store: Store<T>, serverValue?: () => T): T {
  return useSyncExternalStore(store.subscribe, store.get, serverValue ?? store.get);
}
