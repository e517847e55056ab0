import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/**
 * The measuring scripts' MEASURE_DIST: serves another build's assets, and its index.html for the
 * app's pages, in place of the runtime's (a build made with `--minify false` names the functions).
 */
export async function serveMeasuredBuild(page: Page, isAppPage: (url: URL) => boolean): Promise<void> {
  const dist = process.env.MEASURE_DIST;
  if (!dist) return;
  await page.route(/\/assets\//, (route) => {
    const file = join(dist, new URL(route.request().url()).pathname);
    const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'font/woff2';
    return route.fulfill({ body: readFileSync(file), contentType: type });
  });
  await page.route(isAppPage, (route) => route.fulfill({ body: readFileSync(join(dist, 'index.html')), contentType: 'text/html' }));
}
