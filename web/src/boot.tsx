/**
 * The app's start, loaded by main.tsx once the page has painted: the theme and the root (a
 * prerendered public page hydrated, else rendered).
 */
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { sessionStore } from './lib/auth.ts';
import { initTheme } from './lib/theme.ts';

initTheme();

const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A prerendered public page (web/build/prerender.ts) is hydrated as it stands, for a signed-out
// visitor as it was rendered; a signed-in one is sent on (the guards), so it is rendered afresh.
// Hydration as a transition: React yields to the browser every few milliseconds instead of holding
// the main thread for the whole page (no long task while the visitor starts to read or tap).
if (container.firstElementChild && !sessionStore.get().accessToken) {
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  container.replaceChildren();
  createRoot(container).render(app);
}
