/**
 * The entry: a few bytes. The app itself (boot.tsx and its imports) is a chunk of its own. On a
 * prerendered public page it is fetched and evaluated once the page has painted its content (the
 * first-contentful-paint entry), so the page shows before any of the app's JavaScript competes
 * with it; on a signed-in screen it is evaluated once the frame's skeleton has painted (the shell
 * has it fetched meanwhile: modulepreload, web/build/preload-boot.ts). Elsewhere on the shell
 * (nothing to paint before the app runs) it starts at once; so it does in a hidden tab, which never
 * paints, or in a browser without paint timing. The stylesheets are imported here, so
 * every page links them (render-blocking).
 */
import './fonts.css';
import './index.css';

/**
 * On a signed-in screen's skeleton, the files its start fetches after the boot chunk (the frame,
 * the screen, their imports: web/build/screen-preloads.ts, listed in the shell's data block) are
 * preloaded as the boot chunk starts, so they download while it runs rather than a level at a time
 * after it. Not before the first paint: on a phone they would share the bandwidth with the
 * stylesheet and the font the skeleton waits for.
 */
function preloadScreen() {
  const screen = document.documentElement.getAttribute('data-shell');
  const data = document.getElementById('first-requests')?.textContent;
  if (!screen || !data) return;
  const files = (JSON.parse(data) as { preloads?: Record<string, string[]> }).preloads?.[screen] ?? [];
  for (const file of files) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = `/${file}`;
    document.head.append(link);
  }
}

let started = false;
const start = () => {
  if (started) return;
  started = true;
  try {
    preloadScreen();
  } catch {
    // Only a head start: the app loads what it needs without it.
  }
  void import('./boot.tsx');
};

// Something to paint before the app runs: a prerendered page, or the signed-in frame's skeleton
// (web/index.html sets `data-shell`; its first list request has left already).
const paintsFirst = Boolean(document.getElementById('root')?.firstElementChild) || document.documentElement.hasAttribute('data-shell');
if (paintsFirst && document.visibilityState === 'visible' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  // Should the page not paint (a background tab that became visible in between), start anyway.
  setTimeout(start, 3000);
} else {
  start();
}
