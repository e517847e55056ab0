/**
 * The landing page at phone width (390 px) before the web font arrives (font requests refused, so
 * the metric-matched fallback shows) and after, with where the hero's blocks sit in each: the two
 * should line up (ADR-0129). Serves a build with the local static server.
 * Run: `npx tsx scripts/screenshots/take-landing-font-screenshots.ts [dist] [out-prefix]`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serveStatic } from '../../infra/local/runtime/static-site.ts';
import { launchBrowser, root } from '../../tests/e2e/browser.ts';

const dist = process.argv[2] ?? join(root, 'web/dist');
const out = process.argv[3] ?? join(root, '.data/landing-390');
const server = createServer((req, res) => void serveStatic(dist, req, res));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await launchBrowser();
try {
  for (const mode of ['fallback', 'inter'] as const) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR' });
    // tsx keeps function names with a __name helper that the page does not have.
    await context.addInitScript('window.__name = (f) => f');
    const page = await context.newPage();
    if (mode === 'fallback') await page.route('**/*.woff2', (route) => route.abort());
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(500);
    const boxes = await page.evaluate(() => {
      const box = (selector: string) => {
        const r = document.querySelector(selector)?.getBoundingClientRect();
        return r ? `${Math.round(r.top)}+${Math.round(r.height)}` : 'missing';
      };
      return {
        title: box('#hero-title'),
        lead: box('#hero-title + p'),
        preview: box('section[aria-labelledby="hero-title"] [role="img"]'),
        figures: box('section[aria-labelledby="hero-title"] dl'),
        interLoaded: [...document.fonts].some((f) => f.family.includes('Inter Variable') && f.status === 'loaded'),
      };
    });
    await page.screenshot({ path: `${out}-${mode}.png` });
    console.log(mode, JSON.stringify(boxes));
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
