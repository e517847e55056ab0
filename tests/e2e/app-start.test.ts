/**
 * The signed-in app starts from the stored session (ADR-0160): opening /inbox or /contacts with a
 * session in localStorage, the screen's chunk and its first list request start before /auth/me has
 * answered, and the screen shows its heading meanwhile; the page then uses the list fetched early
 * rather than asking again (one list request). Held back here: /auth/me (answered only once the
 * screen is up) and the realtime socket (closed at once, so its first open does not refetch the
 * list). Before, the app showed a full-screen 'Carregando...' until /auth/me answered, and only
 * then fetched the route's code, which then asked for its list: three round trips in a row.
 * On an address without search the list is asked for by the shell's inline script, before any of
 * the app's JavaScript has loaded (web/index.html, src/lib/early-request.ts), and the app takes
 * that answer rather than asking again.
 * The screen's other first reads leave as one read batch (`POST /api/batch`, docs/api.md#read-batch),
 * which the list counts look into, and the realtime ticket waits for its answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, type Harness, newPage, pageSettled, root, startHarness, strongPassword, uniqueEmail } from './browser.ts';

let h: Harness;
let session: { accessToken: string; user: unknown };
let manifest: Record<string, { file: string }>;

beforeAll(async () => {
  h = await startHarness();
  manifest = JSON.parse(readFileSync(join(root, 'web/dist/.vite/manifest.json'), 'utf8'));
  const reg = await callApi(h.runtime.url, 'POST', '/auth/register', { name: 'Início', email: uniqueEmail('inicio'), password: strongPassword });
  const acc = await callApi(h.runtime.url, 'POST', '/accounts', { name: 'Loja Início' }, reg.body.accessToken);
  session = { accessToken: acc.body.accessToken, user: acc.body.user };
});
afterAll(async () => {
  await h?.stop();
});

/**
 * The `query` of each contact list a request asks for: its own (`GET /api/contacts?query=`), or
 * those of the reads it carries (`POST /api/batch`: the GETs the app asks for in the same tick
 * leave as one batch, docs/api.md#read-batch).
 */
function contactListQueries(request: Request): Record<string, unknown>[] {
  const url = new URL(request.url());
  if (url.pathname === '/api/contacts') {
    const query = url.searchParams.get('query');
    return query === null ? [] : [JSON.parse(query)];
  }
  if (url.pathname === '/api/batch' && request.method() === 'POST') {
    const { requests } = JSON.parse(request.postData() ?? '{}') as { requests: { path: string; query?: Record<string, string> }[] };
    return requests.flatMap((read) => (read.path === '/contacts' && read.query?.query !== undefined ? [JSON.parse(read.query.query)] : []));
  }
  return [];
}

/** Opens `path` at phone width with /auth/me held back; lists what was asked for before it was let through. */
async function openWithSessionCheckHeld(path: string, heading: string, isList: (query: Record<string, unknown>) => boolean) {
  const { page, context, errors } = await newPage(h.browser, { width: 390, height: 844 });
  await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), session);
  await page.routeWebSocket(/\/ws\?/, (ws) => ws.close());
  let held: Route | undefined;
  const meAsked = new Promise<void>((resolve) => {
    void page.route('**/api/auth/me', (route) => {
      held = route;
      resolve();
    });
  });
  const requested: string[] = [];
  let listRequests = 0;
  const lists = (request: Request) => contactListQueries(request).filter(isList).length;
  page.on('request', (request) => {
    requested.push(new URL(request.url()).pathname);
    listRequests += lists(request);
  });
  const listAnswered = page.waitForResponse((response) => lists(response.request()) > 0);

  await page.goto(`${h.runtime.url}${path}`);
  await meAsked;
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  // The screen itself, not the frame's skeleton (which has the heading too): its tabs or its button.
  await (heading === 'Chat' ? page.getByRole('tab', { name: /Todos/ }) : page.getByRole('link', { name: 'Novo contato' })).waitFor();
  await listAnswered;
  // Long enough for a page that did not find the early answer in the cache to ask for its own.
  await pageSettled(page);
  const beforeMe = { requested: [...requested], listRequests };
  await Promise.all([page.waitForResponse('**/api/auth/me'), held!.continue()]);
  await pageSettled(page);
  const after = { listRequests };
  await context.close();
  expect(errors).toEqual([]);
  return { beforeMe, after };
}

describe('the signed-in app starts without waiting for /auth/me', () => {
  it('/inbox: the screen chunk and the conversation list are fetched, and the screen shown, before /auth/me answers', async () => {
    const { beforeMe, after } = await openWithSessionCheckHeld('/inbox', 'Chat', (q) => q.perPage === 50);
    expect(beforeMe.requested).toContain(`/${manifest['src/app/routes/app/inbox.tsx']!.file}`);
    expect(beforeMe.listRequests).toBe(1);
    expect(after.listRequests).toBe(1);
  });

  it('/contacts: the screen chunk and the first page are fetched, and the screen shown, before /auth/me answers', async () => {
    const { beforeMe, after } = await openWithSessionCheckHeld('/contacts', 'Contatos', (q) => Array.isArray(q.order));
    expect(beforeMe.requested).toContain(`/${manifest['src/app/routes/app/contacts.tsx']!.file}`);
    // The contact form (react-hook-form, libphonenumber) is not part of the list's first load.
    expect(beforeMe.requested).not.toContain(`/${manifest['src/features/contacts/components/contact-modal.tsx']!.file}`);
    expect(beforeMe.listRequests).toBe(1);
    expect(after.listRequests).toBe(1);
  });
});

describe("the screen's code is fetched beside the app chunk, not after it has run", () => {
  it.each([
    ['/inbox', 'src/app/routes/app/inbox.tsx'],
    ['/contacts', 'src/app/routes/app/contacts.tsx'],
  ])('%s: the frame and the screen are asked for while the app chunk is held back', async (path, screen) => {
    const { page, context, errors } = await newPage(h.browser, { width: 390, height: 844 });
    await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), session);
    await page.routeWebSocket(/\/ws\?/, (ws) => ws.close());
    const app = `/${manifest['src/boot.tsx']!.file}`;
    let appHeld: Route | undefined;
    void page.route(`**${app}`, (route) => {
      appHeld = route;
    });
    const wanted = [`/${manifest[screen]!.file}`, `/${manifest['src/app/routes/app/app-shell.tsx']!.file}`];
    const requested = new Set<string>();
    page.on('request', (request) => requested.add(new URL(request.url()).pathname));
    await page.goto(`${h.runtime.url}${path}`, { waitUntil: 'commit' });
    await expect.poll(() => wanted.filter((file) => requested.has(file)), { timeout: 10_000 }).toEqual(wanted);
    // The app chunk has not run: it is still held.
    expect(appHeld).toBeDefined();
    expect(await page.evaluate(() => '__conversaFirstRequest' in window)).toBe(true);
    await appHeld!.continue();
    await page.getByRole('heading', { level: 1, name: path === '/inbox' ? 'Chat' : 'Contatos' }).waitFor();
    await context.close();
    expect(errors).toEqual([]);
  });
});

describe("the shell asks for the screen's first list before the app's code", () => {
  it.each([
    ['/inbox', 'Chat', (q: Record<string, unknown>) => q.perPage === 50],
    ['/contacts', 'Contatos', (q: Record<string, unknown>) => Array.isArray(q.order)],
  ])('%s: the list request leaves while the app chunk is held back, and the screen uses its answer', async (path, heading, isList) => {
    const { page, context, errors } = await newPage(h.browser, { width: 390, height: 844 });
    await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), session);
    await page.routeWebSocket(/\/ws\?/, (ws) => ws.close());
    const app = `/${manifest['src/boot.tsx']!.file}`;
    let appHeld: Route | undefined;
    const appAsked = new Promise<void>((resolve) => {
      void page.route(`**${app}`, (route) => {
        appHeld = route;
        resolve();
      });
    });
    const lists: string[] = [];
    page.on('request', (request) => {
      lists.push(
        ...contactListQueries(request)
          .filter(isList)
          .map(() => request.url()),
      );
    });
    const listAnswered = page.waitForResponse((response) => lists.includes(response.url()));

    await page.goto(`${h.runtime.url}${path}`, { waitUntil: 'commit' });
    await appAsked;
    await listAnswered;
    expect(lists).toHaveLength(1);
    await appHeld!.continue();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await (heading === 'Chat' ? page.getByRole('tab', { name: /Todos/ }) : page.getByRole('link', { name: 'Novo contato' })).waitFor();
    await pageSettled(page);
    expect(lists).toHaveLength(1);
    expect(await page.evaluate(() => '__conversaFirstRequest' in window)).toBe(false);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('an address with filters is left to the app (one list request, with its filters)', async () => {
    const { page, context, errors } = await newPage(h.browser, { width: 390, height: 844 });
    await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), session);
    await page.routeWebSocket(/\/ws\?/, (ws) => ws.close());
    const lists: Record<string, unknown>[] = [];
    const inboxLists = (request: Request) => contactListQueries(request).filter((query) => query.perPage === 50);
    page.on('request', (request) => lists.push(...inboxLists(request)));
    // The list request may leave after the heading shows: waited for, then the page given time to send a second one.
    const firstList = page.waitForRequest((request) => inboxLists(request).length > 0);
    await page.goto(`${h.runtime.url}/inbox?status=pending`);
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    await firstList;
    await pageSettled(page);
    expect(lists).toHaveLength(1);
    expect(lists[0]!.where).toMatchObject({ status: 'pending' });
    await context.close();
    expect(errors).toEqual([]);
  });
});

describe("the first paint's reads leave as one request", () => {
  it.each([
    ['as the code comes', false],
    ["with the screen's code arriving after the shell's (a slow phone, a cold cache)", true],
  ])(
    '/inbox with filters, %s: the counts and catalogues go in one POST /api/batch beside the prefetched list; the realtime ticket after its answer',
    async (_, screenLate) => {
      const { page, context, errors } = await newPage(h.browser, { width: 1280, height: 900 });
      await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), session);
      await page.routeWebSocket(/\/ws\?/, (ws) => ws.close());
      if (screenLate) {
        // The shell mounts, and opens the realtime link, with the screen's skeleton still in its place.
        const shellLoaded = page.waitForResponse((response) => response.url().endsWith(`/${manifest['src/app/routes/app/app-shell.tsx']!.file}`));
        await page.route(`**/${manifest['src/app/routes/app/inbox.tsx']!.file}`, async (route) => {
          await shellLoaded;
          await new Promise((resolve) => setTimeout(resolve, 500));
          await route.continue();
        });
      }
      const api: { at: number; what: string; reads?: string[] }[] = [];
      const answered = new Map<string, number>();
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (!url.pathname.startsWith('/api/') || url.pathname === '/api/auth/me') return;
        const reads =
          url.pathname === '/api/batch' ? (JSON.parse(request.postData() ?? '{}') as { requests: { path: string }[] }).requests.map((r) => r.path) : undefined;
        api.push({ at: Date.now(), what: `${request.method()} ${url.pathname}`, reads });
      });
      page.on('response', (response) => answered.set(`${response.request().method()} ${new URL(response.url()).pathname}`, Date.now()));
      await page.goto(`${h.runtime.url}/inbox?status=pending`);
      await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
      await expect.poll(() => api.some((r) => r.what === 'POST /api/ws-ticket'), { timeout: 10_000 }).toBe(true);
      await pageSettled(page);
      // The list was asked before React rendered (boot.tsx's prefetch, ADR-0160); the screen's other reads in one batch.
      const batch = api.find((r) => r.what === 'POST /api/batch');
      expect(batch?.reads, JSON.stringify(api)).toEqual(expect.arrayContaining(['/inbox/counts', '/tags', '/departments', '/services']));
      const ticket = api.findIndex((r) => r.what === 'POST /api/ws-ticket');
      const alone = api.slice(0, ticket).filter((r) => r.what.startsWith('GET '));
      expect(
        alone.map((r) => r.what),
        JSON.stringify(api),
      ).toEqual(['GET /api/contacts']);
      expect(api.slice(0, ticket).filter((r) => r.what === 'POST /api/batch')).toHaveLength(1);
      // The realtime ticket waited for the batch's answer rather than needing a second container beside it.
      expect(api[ticket]!.at).toBeGreaterThanOrEqual(answered.get('POST /api/batch') ?? Number.POSITIVE_INFINITY);
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
