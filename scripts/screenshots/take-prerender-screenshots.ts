/**
 * The landing page and the sign-in page at phone width (390 px), light and dark, as the prerendered
 * HTML paints them (the app's scripts refused; the shell's inline theme script still runs, as it does
 * before the first paint) and once the app has hydrated them: the two of each pair should
 * look the same (ADR-0142); the script says whether the two
 * PNGs are byte for byte identical. Serves a build with the local static server.
 * Run: `npx tsx scripts/screenshots/take-prerender-screenshots.ts [dist] [out-dir]`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serveStatic } from '../../infra/local/runtime/static-site.ts';
import { launchBrowser, root } from '../../tests/e2e/browser.ts';

const dist = process.argv[2] ?? join(root, 'web/dist');
const outDir = process.argv[3] ?? join(root, 'docs/screenshots');
const server = createServer((req, res) => void serveStatic(dist, req, res));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await launchBrowser();
try {
  for (const [name, path] of [
    ['landing', '/'],
    ['login', '/login'],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      const shots: Buffer[] = [];
      for (const javaScript of [false, true]) {
        const context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          locale: 'pt-BR',
          colorScheme: scheme,
        });
        const page = await context.newPage();
        if (!javaScript) await page.route('**/assets/*.js', (route) => route.abort());
        await page.goto(`${base}${path}`);
        if (javaScript) await page.waitForLoadState('networkidle');
        await page.evaluate(() => document.fonts.ready.then(() => undefined));
        await page.waitForTimeout(300);
        const file = join(outDir, `${name}-${scheme}-390-${javaScript ? 'hydrated' : 'prerendered'}.png`);
        shots.push(await page.screenshot({ path: file }));
        await context.close();
      }
      const same = shots[0]!.equals(shots[1]!);
      console.log(`${name} ${scheme}: prerendered and hydrated screenshots ${same ? 'identical' : 'differ (look at them)'}`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
