/**
 * Public pages load no signed-in code (ADR-0128): the network log of a first visit to the landing,
 * the sign-in page and an unknown path (the not-found page) holds no chunk of the signed-in app
 * (app shell and screens), and the marketing pages none of the query scope either (TanStack Query,
 * the API client, zod); nothing they run contains the realtime client. The chunk names come from
 * the build's own manifest, so the test follows the build as it changes. Then the same browser
 * signs in and finds those chunks loaded on /inbox, so the check cannot pass by looking at the
 * wrong names. Phone width (390 px), as the customers' phones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, newPage, root, startHarness, strongPassword, uniqueEmail, type Harness } from './browser.ts';

let h: Harness;
let manifest: Record<string, { file: string; imports?: string[] }>;

beforeAll(async () => {
  h = await startHarness();
  manifest = JSON.parse(readFileSync(join(root, 'web/dist/.vite/manifest.json'), 'utf8'));
});
afterAll(async () => {
  await h?.stop();
});

const fileOf = (key: string) => {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build's manifest`);
  return `/${chunk.file}`;
};
const appChunks = () => ['app-shell', 'inbox', 'contacts', 'services', 'users', 'my-account'].map((screen) => fileOf(`src/app/routes/app/${screen}.tsx`));
const queryScope = () => fileOf('src/app/query-scope.tsx');

/** The scripts a first visit to `path` fetches (and their text), once the page has settled. */
async function scriptsOf(path: string, session?: unknown) {
  const { page, context } = await newPage(h.browser, { width: 390, height: 844 });
  if (session) await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), session);
  const scripts = new Map<string, Promise<string>>();
  const sizes: Promise<number>[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.endsWith('.js')) return;
    scripts.set(url.pathname, response.text());
    // What crossed the wire, as Lighthouse counts a page's JavaScript: the (compressed) body and the headers.
    sizes.push(
      response
        .finished()
        .then(() => response.request().sizes())
        .then((s) => s.responseBodySize + s.responseHeadersSize),
    );
  });
  await page.goto(`${h.runtime.url}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  const texts = new Map<string, string>();
  for (const [name, text] of scripts) texts.set(name, await text);
  const transferred = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  await context.close();
  return Object.assign(texts, { transferred });
}

describe('public pages at phone width', () => {
  it('the landing and the not-found page fetch no app chunk, no query scope and no realtime client', async () => {
    for (const path of ['/', '/pricing']) {
      const scripts = await scriptsOf(path);
      expect(scripts.size, path).toBeGreaterThan(0);
      const names = [...scripts.keys()];
      for (const chunk of [...appChunks(), queryScope()]) expect(names, `${path} fetched ${chunk}`).not.toContain(chunk);
      for (const [name, text] of scripts) {
        expect(text.includes('/ws?ticket='), `${path}: ${name} holds the realtime client`).toBe(false);
        expect(text.includes('Bearer '), `${path}: ${name} holds the API client`).toBe(false);
      }
    }
  });

  it("the landing's JavaScript, as transferred (compressed bodies and headers), is under 100 kB", async () => {
    const scripts = await scriptsOf('/');
    // Its lower part included (fetched once hydrated): each file costs its headers too, so few files.
    expect([...scripts.keys()]).toContain(fileOf('src/features/marketing/components/landing-below-fold.tsx'));
    expect(scripts.transferred).toBeGreaterThan(50_000);
    expect(scripts.transferred).toBeLessThan(100_000);
  });

  it('the sign-in page fetches its form and the query scope, and no app chunk or realtime client', async () => {
    const scripts = await scriptsOf('/login');
    const names = [...scripts.keys()];
    expect(names).toContain(queryScope());
    expect(names).toContain(fileOf('src/app/routes/auth/login.tsx'));
    for (const chunk of appChunks()) expect(names).not.toContain(chunk);
    for (const [name, text] of scripts) expect(text.includes('/ws?ticket='), `${name} holds the realtime client`).toBe(false);
  });

  it('while the signed-in inbox does fetch the app shell, its screen and the realtime client', async () => {
    const reg = await callApi(h.runtime.url, 'POST', '/auth/register', { name: 'Divisão', email: uniqueEmail('split'), password: strongPassword });
    const acc = await callApi(h.runtime.url, 'POST', '/accounts', { name: 'Loja Divisão' }, reg.body.accessToken);
    const scripts = await scriptsOf('/inbox', { accessToken: acc.body.accessToken, user: acc.body.user });
    const names = [...scripts.keys()];
    expect(names).toContain(fileOf('src/app/routes/app/app-shell.tsx'));
    expect(names).toContain(fileOf('src/app/routes/app/inbox.tsx'));
    expect(names).toContain(queryScope());
    expect([...scripts.values()].some((text) => text.includes('/ws?ticket='))).toBe(true);
  });
});
