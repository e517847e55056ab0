/**
 * Records a user's first minute as a trace of API requests: the real web app in headless Chromium
 * against the local runtime (as the browser tests start it), through sign-in, the inbox, opening a
 * conversation, sending a reply, the contacts screen and a settings screen ('Minha Conta').
 * Every `/api` request is kept with its method, its route pattern from `functions/http/routes.ts`
 * and its start and end (ms from the first request). `npm run bench:layout` replays it.
 *
 * Run by hand: `npx tsx scripts/record-first-minute.ts` (writes bench/traces/first-minute.json).
 * Not part of `npm test`: it starts the runtime and a browser, about half a minute.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Request } from 'playwright-core';
import { httpRoutes } from '#functions/http/routes.ts';
import { callApi, newPage, strongPassword } from '../tests/e2e/browser.ts';
import { eventually, newTeam, startWorld } from '../tests/e2e/world.ts';
import { routeOf, type TraceRequest, type FirstMinuteTrace } from './first-minute-trace.ts';

const out = new URL('../bench/traces/first-minute.json', import.meta.url);

const world = await startWorld();
try {
  // Arranged through the API: a Pro account whose Telegram bot is polling and a customer who wrote.
  const team = await newTeam(world, 'Floricultura Ipê', 'Helena Prado');
  const token = `${700_000 + (Date.now() % 100_000)}:AAH-traco`;
  const bot = world.telegram.addBot(token, 'Floricultura');
  const service = await callApi(world.base, 'POST', '/services', { name: 'Bot da Floricultura', type: 'telegram', token }, team.owner.token);
  if (service.status !== 201) throw new Error(`POST /services: ${JSON.stringify(service.body)}`);
  await callApi(world.base, 'POST', `/services/${service.body.id}/start`, undefined, team.owner.token);
  await eventually(async () => bot.polling);
  bot.receive({ id: 555_001, first_name: 'Marta', last_name: 'Souza' }, { text: 'Bom dia! Vocês entregam hoje?' });
  await eventually(async () => (await callApi(world.base, 'GET', '/contacts', undefined, team.owner.token)).body.data?.[0]?.id as string | undefined);

  // The first minute, from a browser that has never signed in.
  const { page, context } = await newPage(world.browser);
  const requests: TraceRequest[] = [];
  const started = new Map<Request, number>();
  let t0: number | undefined;
  const now = () => {
    t0 ??= Date.now();
    return Date.now() - t0;
  };
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) started.set(request, now());
  });
  const finish = (request: Request, failed: boolean) => {
    const start = started.get(request);
    if (start === undefined) return;
    started.delete(request);
    const path = new URL(request.url()).pathname.slice('/api'.length);
    requests.push({
      method: request.method(),
      route: routeOf(httpRoutes, request.method(), path),
      path,
      start,
      end: now(),
      ...(failed ? { failed: true } : {}),
    });
  };
  context.on('requestfinished', (request) => finish(request, false));
  context.on('requestfailed', (request) => finish(request, true));

  const steps: { name: string; at: number }[] = [];
  const step = (name: string) => steps.push({ name, at: t0 === undefined ? 0 : now() });

  await page.goto(`${world.base}/login`);
  step('sign-in');
  await page.getByLabel('E-mail').fill(team.owner.email);
  await page.getByLabel('Senha', { exact: true }).fill(strongPassword);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await page.waitForURL(/\/inbox/);
  step('inbox');
  const row = page.getByTestId('inbox-contact').filter({ hasText: 'Marta Souza' });
  await row.waitFor({ timeout: 20_000 });
  await page.locator('html[data-realtime="open"]').waitFor({ state: 'attached', timeout: 20_000 });
  step('open conversation');
  await row.click();
  await page.getByTestId('message').filter({ hasText: 'Bom dia! Vocês entregam hoje?' }).waitFor();
  step('send a reply');
  const box = page.getByLabel('Mensagem', { exact: true });
  await box.fill('Entregamos sim, até as 18h.');
  await box.press('Enter');
  await page.getByTestId('message').filter({ hasText: 'Entregamos sim, até as 18h.' }).locator('[data-ack="1"]').waitFor({ timeout: 20_000 });
  step('contacts');
  await page.getByRole('link', { name: 'Contatos', exact: true }).first().click();
  await page.waitForURL(/\/contacts/);
  await page.getByText('Marta Souza').first().waitFor();
  step('settings');
  await page.getByRole('link', { name: 'Minha Conta', exact: true }).first().click();
  await page.waitForURL(/\/my-account/);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  // Whatever the last screen asked for has answered.
  await eventually(async () => started.size === 0, 10_000);
  await page.waitForTimeout(500);
  await eventually(async () => started.size === 0, 10_000);

  requests.sort((a, b) => a.start - b.start);
  const trace: FirstMinuteTrace = {
    recordedAt: new Date().toISOString(),
    how: 'scripts/record-first-minute.ts: the web build in headless Chromium against the local runtime (tests/e2e/world.ts), driven as fast as the screens answer',
    steps,
    requests,
  };
  mkdirSync(dirname(out.pathname), { recursive: true });
  writeFileSync(out, `${JSON.stringify(trace, null, 2)}\n`);
  console.log(`${requests.length} requests in ${requests.at(-1)?.end ?? 0} ms → ${out.pathname}`);
  for (const r of requests)
    console.log(`${String(r.start).padStart(6)} ${String(r.end).padStart(6)}  ${r.method.padEnd(6)} ${r.route ?? `(no route) ${r.path}`}`);
} finally {
  await world.stop();
}
