import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { sessionStore } from './lib/auth.ts';
import { initTheme } from './lib/theme.ts';
import './fonts.css';
import './index.css';

initTheme();

const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A prerendered public page (web/build/prerender.ts) is hydrated as it stands, for a signed-out
// visitor as it was rendered; a signed-in one is sent on (the guards), so it is rendered afresh.
if (container.firstElementChild && !sessionStore.get().accessToken) {
  hydrateRoot(container, app);
} else {
  container.replaceChildren();
  createRoot(container).render(app);
}
