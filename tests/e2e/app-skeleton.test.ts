/**
 * The signed-in frame paints from the shell's HTML (ADR-0163): opening /contacts or /inbox with a
 * stored session, the top bar and the screen's heading are on screen while the app's code is still
 * held back (web/index.html, src/app/app-skeleton.tsx), accessible, in light and dark; once the app
 * runs, the real screen takes their place with the heading where it was and no layout shift. Other
 * paths keep the shell's 'Carregando...', and the prerendered public pages carry none of it.
 * Screenshots of the skeleton at 390 px go to docs/screenshots/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectAccessible, newPage, root, startHarness, strongPassword, uniqueEmail, type Harness } from './browser.ts';

let h: Harness;
let session: { accessToken: string; user: unknown };
let manifest: Record<string, { file: string }>;

beforeAll(async () => {
  h = await startHarness();
  manifest = JSON.parse(readFileSync(join(root, 'web/dist/.vite/manifest.json'), 'utf8'));
  const reg = await callApi(h.runtime.url, 'POST', '/auth/register', { name: 'Esqueleto', email: uniqueEmail('esqueleto'), password: strongPassword });
  const acc = await callApi(h.runtime.url, 'POST', '/accounts', { name: 'Loja Esqueleto' }, reg.body.accessToken);
  session = { accessToken: acc.body.accessToken, user: acc.body.user };
});
afterAll(async () => {
  await h?.stop();
});

/** Opens `path` signed in with the app's code held back; `release` lets it through. */
async function openHeld(path: string, options: { width: number; dark?: boolean; signedIn?: boolean }) {
  const { page, context, errors } = await newPage(h.browser, { width: options.width, height: 844, dark: options.dark });
  if (options.signedIn !== false) await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), session);
  await context.addInitScript(() => {
    (window as unknown as { __shifts: number }).__shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) (window as unknown as { __shifts: number }).__shifts += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.routeWebSocket(/\/ws\?/, (ws) => ws.close());
  let held: Route | undefined;
  const asked = new Promise<void>((resolve) => {
    void page.route(`**/${manifest['src/boot.tsx']!.file}`, (route) => {
      held = route;
      resolve();
    });
  });
  await page.goto(`${h.runtime.url}${path}`, { waitUntil: 'domcontentloaded' });
  await asked;
  return { page, context, errors, release: () => held!.continue() };
}

const box = async (page: import('playwright-core').Page, name: string) => {
  const b = await page.getByRole('heading', { level: 1, name }).boundingBox();
  if (!b) throw new Error(`no heading ${name}`);
  return { x: Math.round(b.x), y: Math.round(b.y), height: Math.round(b.height) };
};

describe("the signed-in frame's skeleton", () => {
  for (const [path, heading] of [
    ['/contacts', 'Contatos'],
    ['/inbox', 'Chat'],
  ] as const) {
    for (const dark of [false, true]) {
      it(`${path} at 390 px${dark ? ', dark' : ''}: painted before the app's code, accessible, replaced without moving`, async () => {
        const { page, context, errors, release } = await openHeld(path, { width: 390, dark });
        const heldHeading = page.getByRole('heading', { level: 1, name: heading });
        await heldHeading.waitFor();
        expect(await page.locator('header').first().isVisible()).toBe(true);
        expect(await page.getByRole('status').filter({ hasText: 'Carregando...' }).count()).toBe(1);
        await expectAccessible(page, `${path} skeleton`);
        await page.screenshot({ path: join(root, `docs/screenshots/app-skeleton${path.replace('/', '-')}-390${dark ? '-dark' : ''}.png`) });
        const before = await box(page, heading);
        await release();
        // The real screen: its header's buttons (contacts) or tabs (inbox) are there.
        await page.getByRole(path === '/contacts' ? 'link' : 'tab', { name: path === '/contacts' ? 'Novo contato' : /Todos/ }).waitFor();
        expect(await page.locator('#shell-loader').count()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.hasAttribute('data-shell'))).toBe(false);
        expect(await box(page, heading)).toEqual(before);
        expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)).toBeLessThan(0.05);
        await context.close();
        expect(errors).toEqual([]);
      });
    }
  }

  it('/contacts at 1280 px: the sidebar has its place before the app runs, and the heading stays put', async () => {
    const { page, context, errors, release } = await openHeld('/contacts', { width: 1280 });
    await page.getByRole('heading', { level: 1, name: 'Contatos' }).waitFor();
    await expectAccessible(page, '/contacts skeleton, wide');
    await page.screenshot({ path: join(root, 'docs/screenshots/app-skeleton-contacts-1280.png') });
    const before = await box(page, 'Contatos');
    await release();
    await page.getByRole('link', { name: 'Novo contato' }).waitFor();
    expect(await box(page, 'Contatos')).toEqual(before);
    expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)).toBeLessThan(0.05);
    await context.close();
    expect(errors).toEqual([]);
  });

  it("another signed-in screen shows 'Carregando...' in the frame; a signed-out visitor of a shell path only 'Carregando...'", async () => {
    const app = await openHeld('/tags', { width: 390 });
    await app.page.getByRole('status').filter({ hasText: 'Carregando...' }).waitFor();
    expect(await app.page.locator('header').first().isVisible()).toBe(true);
    expect(await app.page.getByRole('heading', { level: 1 }).count()).toBe(0);
    await app.context.close();
    const guest = await openHeld('/register', { width: 390, signedIn: false });
    await guest.page.getByRole('status').filter({ hasText: 'Carregando...' }).waitFor();
    expect(await guest.page.locator('header').first().isVisible()).toBe(false);
    await guest.context.close();
  });

  it("paints the skeleton before the app's first render, even when the app's code is at hand at once", async () => {
    const { page, context, errors } = await newPage(h.browser, { width: 390, height: 844 });
    await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), session);
    await context.addInitScript(() => {
      const w = window as unknown as { __shellGone?: number };
      new MutationObserver((_records, observer) => {
        if (document.readyState !== 'loading' && !document.getElementById('shell-loader')) {
          w.__shellGone = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.routeWebSocket(/\/ws\?/, (ws) => ws.close());
    await page.goto(`${h.runtime.url}/contacts`);
    await page.getByRole('link', { name: 'Novo contato' }).waitFor();
    const times = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      gone: (window as unknown as { __shellGone?: number }).__shellGone ?? Number.NaN,
    }));
    expect(times.paint).toBeLessThan(times.gone);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('the prerendered public pages carry no skeleton nor early request', async () => {
    const landing = await (await fetch(`${h.runtime.url}/`)).text();
    expect(landing).not.toContain('shell-loader');
    expect(landing).not.toContain('data-shell');
    expect(landing).not.toContain('__conversaFirstRequest');
  });
});
