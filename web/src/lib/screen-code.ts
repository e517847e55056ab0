/**
 * Whether the signed-in screen at the current address has rendered. The app shell mounts, and
 * opens the realtime link, while the screen's own chunk may still be loading (its skeleton shows
 * meanwhile); the link's first ticket waits for that screen to render and ask its reads, so the
 * two leave one after the other rather than side by side (lib/realtime.ts, ADR-0209). Screens say
 * so from their query scope (app/query-scope.tsx), so none of this is in the landing's chunk.
 */
let shownPath: string | null = null;
let waiters: (() => void)[] = [];

/** A screen rendered at `path`, its effects (its first reads asked) run. */
export function screenShown(path: string): void {
  shownPath = path;
  for (const resolve of waiters) resolve();
  waiters = [];
}

/** Resolves once the screen at the current address has rendered (at once when it has), or after `capMs` at most. */
export function currentScreenShown(capMs = 3000): Promise<void> {
  return new Promise((resolve) => {
    if (shownPath === window.location.pathname) return resolve();
    waiters.push(resolve);
    setTimeout(resolve, capMs);
  });
}
