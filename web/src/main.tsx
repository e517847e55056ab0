/**
 * The entry: a few bytes. The app itself (boot.tsx and its imports) is a chunk of its own. On a
 * prerendered public page it is fetched and evaluated only after the first paint, so the page shows
 * before any of the app's JavaScript competes with it. On the app shell (the signed-in app, nothing
 * to paint before the app runs) it starts at once, and the shell links it as modulepreload
 * (web/build/preload-boot.ts); so does a hidden tab, which never paints. The stylesheets are
 * imported here, so every page links them (render-blocking).
 */
import './fonts.css';
import './index.css';

const boot = () => void import('./boot.tsx');

if (document.getElementById('root')?.firstElementChild && document.visibilityState === 'visible') {
  requestAnimationFrame(() => setTimeout(boot, 0));
} else {
  boot();
}
