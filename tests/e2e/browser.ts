/**
 * Shared pieces of the browser tests: a fresh web build when the sources changed, the local
 * runtime (as `npm start` runs it), Debian's chromium driven by playwright-core, axe-core checks
 * and the local e-mail outbox.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { ensureWebBuild } from '../../scripts/ensure-deps.mjs';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';

export { ensureWebBuild };

export const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core/axe.min.js');

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
}

/**
 * The runtime and Chromium started side by side (each takes about a second and neither needs the
 * other); if one fails, the other is stopped before the failure is thrown.
 */
export async function runtimeAndBrowser(runtime: Promise<RunningRuntime>, browser: Promise<Browser>): Promise<[RunningRuntime, Browser]> {
  const [r, b] = await Promise.allSettled([runtime, browser]);
  if (r.status === 'fulfilled' && b.status === 'fulfilled') return [r.value, b.value];
  await Promise.all([r.status === 'fulfilled' ? r.value.stop() : null, b.status === 'fulfilled' ? b.value.close() : null]);
  throw r.status === 'rejected' ? r.reason : (b as PromiseRejectedResult).reason;
}

export interface Harness {
  runtime: RunningRuntime;
  browser: Browser;
  stop(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  ensureWebBuild();
  const [runtime, browser] = await runtimeAndBrowser(spawnLocalRuntime(), launchBrowser());
  return {
    runtime,
    browser,
    async stop() {
      await Promise.all([browser.close(), runtime.stop()]);
    },
  };
}

/** A page that records console errors and page errors (failed HTTP answers are expected noise). */
export async function newPage(
  browser: Browser,
  options: { width?: number; height?: number; dark?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.dark ? 'dark' : 'light',
    locale: 'pt-BR',
    // The local runtime sends the cloud's CSP on every answer (docs/security.md); the tests inject
    // axe-core, which that CSP rightly refuses. The CSP itself is proven by site-headers.test.ts.
    bypassCSP: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

/**
 * Resolves once the page has painted twice and its main thread has gone idle: every effect of what
 * is on screen has run, so a request the screen makes on mount has been sent (and Playwright's
 * `request` event, delivered in order, has fired). For "it asked only once" checks, instead of a
 * fixed wait.
 */
export async function pageSettled(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(() => resolve(), { timeout: 2000 })))),
  );
}

/**
 * Waits until `read` answers the same value three times 100 ms apart (a scroll position, a box):
 * for measuring something the page may still be moving by timers and frames of its own.
 */
export async function resting(read: () => Promise<number>, timeoutMs = 5000): Promise<number> {
  const seen: number[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    seen.push(await read());
    if (seen.length >= 3 && seen.slice(-3).every((v) => v === seen.at(-1))) return seen.at(-1)!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`still moving after ${timeoutMs} ms: ${seen.slice(-5).join(', ')}`);
}

/**
 * Closes the toasts on screen with their 'Fechar notificação' button, as a person does when one
 * covers what they click next (the toast region sits over the header's actions; a toast otherwise
 * stays 5 s, and Playwright's click waits for it to go). A programmatic click: focus stays where it
 * was. Nothing happens when no toast is open.
 */
export async function closeToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const button of document.querySelectorAll<HTMLButtonElement>('section[aria-label="Notificações"] button[aria-label="Fechar notificação"]'))
      button.click();
  });
}

/** Runs axe-core on the page and fails on any serious or critical violation. */
export async function expectAccessible(page: Page, label = page.url()): Promise<void> {
  // Let entrance animations end first: half-faded text would read as low contrast.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  const serious = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `axe violations on ${label}: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  code: string;
}

/** The newest e-mail sent to an address, waiting for it to land in the local outbox. */
export async function readMail(outboxDir: string, to: string, timeoutMs = 10_000): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(outboxDir)) {
      const mails = readdirSync(outboxDir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => JSON.parse(readFileSync(join(outboxDir, f), 'utf8')) as OutboxMail)
        .filter((m) => m.to === to);
      const last = mails[mails.length - 1];
      if (last) return last;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no e-mail to ${to} in ${outboxDir}`);
}

let counter = 0;
export function uniqueEmail(prefix = 'pessoa'): string {
  return `${prefix}.${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;
}

export const strongPassword = 'Conversa@2025';

/** Calls the API directly (to arrange data that has no screen yet). */
export async function callApi<T = any>(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
