/**
 * The app's start, loaded by main.tsx once the page has painted: the theme and the root (a
 * prerendered public page hydrated, else rendered). With a stored session the page's code, its
 * first data and the token's check start here, together, before React renders anything: nothing
 * waits for /auth/me (the stored user is used meanwhile) nor for React to reach the page's route.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadRoute } from './app/router.tsx';
import { sessionStore } from './lib/auth.ts';
import { discardEarlyRequest } from './lib/early-request.ts';
import { initTheme } from './lib/theme.ts';

/** Checks a stored token: a valid one refreshes the user, a 401 signs out (the API client does that). */
async function checkSession(): Promise<void> {
  const [{ refreshSessionUser }, { ApiError }] = await Promise.all([import('#web/features/auth/api/get-me.ts'), import('#web/lib/api-client.ts')]);
  try {
    // The app runs meanwhile, on the stored user (refreshSessionUser keeps a session changed since).
    await refreshSessionUser();
  } catch (error) {
    // 401: the API client has already signed out. Offline or 5xx: keep the stored session.
    if (!(error instanceof ApiError)) console.warn('Could not check the session', error);
  }
}

initTheme();
const { pathname, search } = window.location;
preloadRoute(pathname);
const signedIn = Boolean(sessionStore.get().accessToken);
if (signedIn) {
  void import('./app/route-data.ts').then((m) => {
    m.prefetchRouteData(pathname, search);
    // The shell's early request (web/index.html) has been taken by now if it was this screen's.
    discardEarlyRequest();
  });
  void checkSession();
}

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
if (container.firstElementChild && !signedIn) {
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  container.replaceChildren();
  // Rendered as a transition too: the signed-in screen's first render (the frame, the screen and,
  // when the shell's early request has answered, the list) is time-sliced rather than one long task
  // (the skeleton is on screen meanwhile, app/app-skeleton.tsx).
  const root = createRoot(container);
  startTransition(() => {
    root.render(app);
  });
}
