/**
 * The entry: a few bytes. The app itself (boot.tsx and its imports) is a chunk of its own. On a
 * prerendered public page it is fetched and evaluated once the page has painted its content (the
 * first-contentful-paint entry), so the page shows before any of the app's JavaScript competes
 * with it. On the app shell (the signed-in app, nothing to paint before the app runs) it starts at
 * once, and the shell links it as modulepreload (web/build/preload-boot.ts); so does a hidden tab,
 * which never paints, or a browser without paint timing. The stylesheets are imported here, so
 * every page links them (render-blocking).
 */
import './fonts.css';
import './index.css';

let started = false;
const start = () => {
  if (started) return;
  started = true;
  void import('./boot.tsx');
};

const prerendered = document.getElementById('root')?.firstElementChild;
if (prerendered && document.visibilityState === 'visible' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
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
