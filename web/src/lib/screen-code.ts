/**
 * Whether a signed-in screen's code is still on its way. The app shell mounts, and opens the
 * realtime link, while the screen's own chunk may still be loading (its skeleton shows meanwhile,
 * app/router.tsx `Screen`); the link's first ticket waits for that screen to render and ask its
 * reads, so the two leave one after the other rather than side by side (lib/realtime.ts, ADR-0209).
 */
let loading = 0;
const waiters = new Set<() => void>();

/** A screen's skeleton is shown while its code loads; the returned function says it is gone. */
export function screenCodeLoading(): () => void {
  loading++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    loading--;
  };
}

/** A screen rendered, its effects (its reads asked) run: whoever waited for the screens may go on. */
export function screenShown(): void {
  if (loading > 0) return;
  for (const resolve of waiters) resolve();
  waiters.clear();
}

/** Resolves once no screen's code is loading, or after `capMs` at most; at once when none is. */
export function screensShown(capMs = 3000): Promise<void> {
  if (loading === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, capMs);
    function done() {
      clearTimeout(timer);
      waiters.delete(done);
      resolve();
    }
    waiters.add(done);
  });
}
