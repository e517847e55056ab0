/**
 * What `zod` resolves to in the browser build (web/vite.config.ts aliases it here): zod itself,
 * configured `jitless` before any module that imports it runs. Zod decides at the construction of
 * each object schema whether to probe `new Function` (its fast path), and the site's CSP has no
 * 'unsafe-eval': a probe is reported as a violation even though zod catches the throw. The shared
 * contracts build their schemas when their modules load, which may be before any setup module the
 * app imports, so the setting must come with zod itself (tests/e2e/site-headers.test.ts).
 */
import { z } from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { z };
export default z;
