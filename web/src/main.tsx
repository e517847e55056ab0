import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { reportError } from './lib/errors.ts';
import { setErrorReporter } from './lib/query-client.ts';
import { initTheme } from './lib/theme.ts';
import './fonts.css';
import './index.css';

initTheme();
setErrorReporter(reportError);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
