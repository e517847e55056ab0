import { z } from 'zod';

// No `new Function` fast path: the site's CSP has no 'unsafe-eval', and zod's probe for it would be
// reported as a violation on every page that validates a form (infra/site-headers.ts). Imported for
// its effect by what parses with zod in the browser (forms, the query scope), before any parse.
z.config({ jitless: true });
