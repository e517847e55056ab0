/**
 * Screenshots of every public and sign-in page, and the app shell, in light and dark at 1280 and
 * 390 px wide, into docs/screenshots/. Run: `npx tsx scripts/screenshots/take-screenshots.ts`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { callApi, newPage, root, startHarness, strongPassword, uniqueEmail } from '../../tests/e2e/browser.ts';

const out = join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });

const h = await startHarness();
const base = h.runtime.url;
try {
  const email = uniqueEmail('fotos');
  const registered = await callApi(base, 'POST', '/auth/register', { name: 'Carla Souza', email, password: strongPassword });
  const account = await callApi(base, 'POST', '/accounts', { name: 'Doceria da Carla' }, registered.body.accessToken);
  const withAccount = { accessToken: account.body.accessToken, user: account.body.user };
  const newcomer = (await callApi(base, 'POST', '/auth/register', { name: 'Davi Rocha', email: uniqueEmail('fotos'), password: strongPassword })).body;

  const pages: { name: string; path: string; full?: boolean; session?: unknown }[] = [
    { name: 'landing', path: '/', full: true },
    { name: 'about', path: '/about' },
    { name: 'contact', path: '/contact' },
    { name: 'terms', path: '/terms' },
    { name: 'privacy', path: '/privacy' },
    { name: 'cookies', path: '/cookies' },
    { name: 'demo', path: '/demo' },
    { name: 'not-found', path: '/pagina-que-nao-existe' },
    { name: 'login', path: '/login' },
    { name: 'register', path: '/register' },
    { name: 'forgot-password', path: '/forgot-password' },
    { name: 'reset-password', path: `/reset-password?verifyCode=123456&email=${encodeURIComponent('carla@doceria.com.br')}` },
    { name: 'verify-email', path: '/verify-email?userId=01JZEXEMPLO' },
    { name: 'accounts', path: '/accounts', session: { accessToken: newcomer.accessToken, user: newcomer.user } },
    { name: 'app-inbox-empty', path: '/inbox', session: withAccount },
  ];

  for (const p of pages) {
    for (const width of [1280, 390]) {
      for (const dark of [false, true]) {
        const { page, context } = await newPage(h.browser, { width, height: width === 390 ? 844 : 800, dark });
        if (p.session) await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), p.session);
        await page.goto(`${base}${p.path}`, { waitUntil: 'networkidle' });
        await page.locator('h1').first().waitFor();
        await page.evaluate(() => document.fonts.ready);
        const file = join(out, `${p.name}-${dark ? 'dark' : 'light'}-${width}.png`);
        await page.screenshot({ path: file, fullPage: Boolean(p.full) });
        console.log('wrote', file);
        await context.close();
      }
    }
  }
} finally {
  await h.stop();
}
