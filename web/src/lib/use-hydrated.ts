import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while a prerendered page is rendered at build time or hydrated, true from the render that
 * follows (and at once on a page rendered in the browser): what only the browser shows renders
 * then, without a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
