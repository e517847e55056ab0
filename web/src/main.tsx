import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/app.tsx';
import { reportError } from './lib/errors.ts';
import { setErrorReporter } from './lib/query-client.ts';
import { initTheme } from './lib/theme.ts';
import './fonts.css';
import './index.css';

// No `new Function` fast path: the site's CSP has no 'unsafe-eval', and zod's probe for it would be
// reported as a violation on every page that validates a form (infra/site-headers.ts).
z.config({ jitless: true });
initTheme();
setErrorReporter(reportError);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
