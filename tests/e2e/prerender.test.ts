/**
 * Prerendered public pages (ADR-0142, web/build/prerender.ts): the HTML the server sends for a
 * public path already holds the page, so its largest text paints before any JavaScript runs; the
 * signed-in app's paths get the empty shell. Once the JavaScript runs, React hydrates the page:
 * no console error (a hydration mismatch is one), nothing moves and the text stays the same, in
 * light and dark, at phone width. Then the page works (a link navigates on the client).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, startHarness, type Harness } from './browser.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const pages = [
  { path: '/', heading: 'WhatsApp e Telegram da sua empresa em uma só caixa de entrada' },
  { path: '/login', heading: 'Entrar na sua conta' },
  { path: '/about', heading: 'Atendimento bom não deveria ser privilégio de empresa grande' },
  { path: '/pricing', heading: 'Página não encontrada' },
];

/**
 * What a phone shows of `path` with its fonts loaded: the first heading's box and the text around it
 * (the landing's sections below the hero and the sign-in form render only in the browser), and the
 * console and page errors of its load (failed HTTP answers are expected noise, as in `newPage`).
 */
async function firstView(browser: Browser, path: string, options: { javaScript: boolean; dark: boolean }) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    colorScheme: options.dark ? 'dark' : 'light',
    locale: 'pt-BR',
    javaScriptEnabled: options.javaScript,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${h.runtime.url}${path}`);
  if (options.javaScript) await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const heading = page.getByRole('heading', { level: 1 }).first();
  const view = {
    heading: await heading.textContent(),
    box: await heading.boundingBox(),
    text: await page.evaluate(() => document.querySelector('h1')?.parentElement?.textContent),
    errors,
  };
  await context.close();
  return view;
}

describe('prerendered public pages', () => {
  it('are in the HTML the server sends; the signed-in app gets the empty shell', async () => {
    for (const { path, heading } of pages) {
      const html = await (await fetch(`${h.runtime.url}${path}`)).text();
      expect(html, path).toContain(heading.split(' em ')[0]);
      expect(html, path).not.toContain('<div id="root"></div>');
      expect(html, `${path}: a form before hydration`).not.toContain('<form');
    }
    for (const path of ['/inbox', '/contacts/01HZX', '/reset-password', '/register']) {
      const html = await (await fetch(`${h.runtime.url}${path}`)).text();
      expect(html, path).toContain('<div id="root"></div>');
    }
  });

  it('show their heading with JavaScript off', async () => {
    for (const { path, heading } of pages) {
      const view = await firstView(h.browser, path, { javaScript: false, dark: false });
      expect(view.heading?.replace(/\s+/g, ' '), path).toBe(heading);
    }
  });

  for (const dark of [false, true]) {
    it(`hydrate with no console error, the same text and nothing moved (${dark ? 'dark' : 'light'})`, async () => {
      for (const { path } of pages) {
        const before = await firstView(h.browser, path, { javaScript: false, dark });
        const after = await firstView(h.browser, path, { javaScript: true, dark });
        expect(after.heading, path).toBe(before.heading);
        expect(after.text, path).toBe(before.text);
        expect(Math.abs((after.box?.y ?? -1) - (before.box?.y ?? -2)), `${path}: heading moved`).toBeLessThanOrEqual(1);
        expect(Math.abs((after.box?.height ?? -1) - (before.box?.height ?? -2)), `${path}: heading resized`).toBeLessThanOrEqual(1);
        // The hydrated page's own load, at the same width and theme, under the site's CSP (no bypass).
        expect(after.errors, path).toEqual([]);
      }
    });
  }

  it('work once hydrated: the theme switch and a link run on the client', async () => {
    const { page, context, errors } = await newPage(h.browser, { width: 390, height: 844 });
    await page.goto(`${h.runtime.url}/login`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Ativar tema escuro' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.getByRole('button', { name: 'Ativar tema claro' }).waitFor();
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    await page.getByRole('link', { name: 'Novo cadastro' }).click();
    await page.getByRole('heading', { level: 1, name: 'Criar uma nova conta' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
