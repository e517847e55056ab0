/**
 * The subscription in a real browser: the upgrade page, Checkout and the wait on the way back, and
 * the subscription panel in each status, driven by the fake Stripe server and signed webhooks
 * through the local runtime (started here with STRIPE_* settings, as the billing integration tests
 * do). Every state is checked with axe at 1280 px light and 390 px dark; with
 * BILLING_SCREENSHOTS=1 each is also written to docs/screenshots/billing-<state>-<theme>-<width>.png
 * at both widths in both themes.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { callApi, ensureWebBuild, expectAccessible, launchBrowser, newPage, root, runtimeAndBrowser, strongPassword, uniqueEmail } from './browser.ts';

const day = 24 * 60 * 60;
const screenshots = process.env.BILLING_SCREENSHOTS === '1';
const out = join(root, 'docs/screenshots');

let stripe: FakeStripe;
let runtime: RunningRuntime;
let browser: Browser;

beforeAll(async () => {
  ensureWebBuild();
  stripe = await startFakeStripe();
  [runtime, browser] = await runtimeAndBrowser(
    spawnLocalRuntime({
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_PRICE_ID: stripe.price.id,
      STRIPE_API_URL: stripe.url,
    }),
    launchBrowser(),
  );
  if (screenshots) mkdirSync(out, { recursive: true });
});

afterAll(async () => {
  await Promise.all([browser?.close(), runtime?.stop()]);
  await stripe?.close();
});

interface Owner {
  token: string;
  user: unknown;
  accountId: string;
}

async function newOwner(accountName: string): Promise<Owner> {
  const registered = await callApi(runtime.url, 'POST', '/auth/register', { name: 'Ana Souza', email: uniqueEmail('ana'), password: strongPassword });
  const created = await callApi(runtime.url, 'POST', '/accounts', { name: accountName }, registered.body.accessToken);
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return { token: created.body.accessToken, user: created.body.user, accountId: created.body.id };
}

async function signIn(page: Page, owner: Owner, path: string): Promise<void> {
  await page.goto(`${runtime.url}/robots.txt`);
  await page.evaluate(([token, user]) => localStorage.setItem('conversa-auth', JSON.stringify({ accessToken: token, user })), [
    owner.token,
    owner.user,
  ] as const);
  await page.goto(`${runtime.url}${path}`);
}

const deliver = (type: string, object: Record<string, unknown>) => stripe.deliver(`${runtime.url}/api/webhooks/stripe`, stripe.event(type, object));

/** Opens /my-account in each mode, waits for `ready`, checks it with axe, and takes the screenshots when asked. */
async function checkState(owner: Owner, state: string, ready: (page: Page) => Promise<unknown>, path = '/my-account'): Promise<void> {
  const modes: [number, boolean][] = screenshots
    ? [
        [1280, false],
        [1280, true],
        [390, false],
        [390, true],
      ]
    : [
        [1280, false],
        [390, true],
      ];
  for (const [width, dark] of modes) {
    const { page, context, errors } = await newPage(browser, { width, height: width === 390 ? 844 : 800, dark });
    try {
      await signIn(page, owner, path);
      await ready(page);
      await expectAccessible(page, `${state} ${width} ${dark ? 'dark' : 'light'}`);
      // Nothing wider than the screen (the 390 px phone in particular).
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${state} fits ${width} px`).toBe(true);
      if (screenshots) await page.screenshot({ path: join(out, `billing-${state}-${dark ? 'dark' : 'light'}-${width}.png`), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }
}

describe('the subscription in the browser', () => {
  it('upgrade page, checkout and the wait on the way back, then the panel in every status until the cancellation', async () => {
    const owner = await newOwner('Doceria da Carla');

    // Free: the upgrade page with the provider's price.
    await checkState(owner, 'upgrade', async (page) => {
      await page.getByRole('button', { name: 'Fazer Upgrade Agora' }).waitFor();
      await page.getByText('Recomendado').waitFor();
      await page.getByRole('heading', { name: 'Por que escolher o Plano Pro?' }).waitFor();
      await page.getByText('R$ 99,90').first().waitFor();
    });

    // 'Fazer Upgrade Agora' goes to Checkout; the customer pays and comes back before the webhook.
    const { page, context, errors } = await newPage(browser);
    let sessionId = '';
    await page.route('https://checkout.stripe.test/**', async (route) => {
      sessionId = /\/pay\/(cs_test_\w+)$/.exec(route.request().url())![1]!;
      // Started 25 days ago, so the next charge is 5 days away.
      stripe.completeCheckout(sessionId, Math.floor(Date.now() / 1000) - 25 * day);
      await route.fulfill({ status: 302, headers: { location: `${runtime.url}/my-account?checkout=success&session_id=${sessionId}` } });
    });
    await signIn(page, owner, '/my-account');
    await page.getByRole('button', { name: 'Fazer Upgrade Agora' }).click();
    await page.waitForURL(/checkout=success/);
    const waiting = page.getByRole('status').filter({ hasText: 'Confirmando o seu pagamento...' });
    await waiting.waitFor();
    await expectAccessible(page, 'waiting for the confirmation');
    if (screenshots) await page.screenshot({ path: join(out, 'billing-waiting-light-1280.png'), fullPage: true });
    expect(await page.getByRole('button', { name: 'Fazer Upgrade Agora' }).count()).toBe(0);

    // The webhook lands: account.UPDATED brings the plan to the open page.
    const session = stripe.checkoutSessions.get(sessionId)!;
    const { subscription_data: _, ...shown } = session;
    expect((await deliver('checkout.session.completed', shown)).status).toBe(200);
    await page.getByRole('heading', { name: 'Plano Pro Ativo' }).waitFor();
    await page.getByText('Pagamento confirmado').waitFor();
    expect(await waiting.count()).toBe(0);

    // 'Gerenciar assinatura' opens the billing portal.
    let portalUrl = '';
    await page.route('https://billing.stripe.test/**', async (route) => {
      portalUrl = route.request().url();
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html lang="pt-BR"><title>Portal</title><h1>Portal</h1></html>' });
    });
    await page.getByRole('button', { name: 'Gerenciar assinatura' }).click();
    await page.waitForURL(/billing\.stripe\.test/);
    expect(portalUrl).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    expect(errors).toEqual([]);
    await context.close();

    const subscriptionId = session.subscription as string;
    const periodEnd = () => stripe.subscriptions.get(subscriptionId)!.items.data[0].current_period_end as number;
    const dateOf = (epoch: number) => new Date(epoch * 1000).toLocaleDateString('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric' });

    // Active, renewing in 5 days.
    await checkState(owner, 'active-renewal-soon', async (p) => {
      await p.getByRole('heading', { name: 'Plano Pro Ativo' }).waitFor();
      await p.getByText('Ativa', { exact: true }).waitFor();
      await p.getByText('Renovação em breve').waitFor();
      await p.getByText('Faltam 5 dias para a cobrança de R$ 99,90.').waitFor();
      await p.getByText(dateOf(periodEnd())).first().waitFor();
      await p.getByText('1 / 10', { exact: true }).waitFor();
      expect(await p.getByRole('progressbar', { name: 'Usuários' }).getAttribute('aria-valuenow')).toBe('10');
    });

    // Renewed: a new period, no warning.
    stripe.renew(subscriptionId);
    await deliver('invoice.paid', stripe.invoice(subscriptionId, true));
    await checkState(owner, 'active', async (p) => {
      await p.getByText('Ativa', { exact: true }).waitFor();
      await p.getByText('Próxima cobrança').waitFor();
      expect(await p.getByText('Renovação em breve').count()).toBe(0);
    });

    // Trialing.
    await deliver('customer.subscription.updated', stripe.update(subscriptionId, { status: 'trialing' }));
    await checkState(owner, 'trialing', (p) => p.getByText('Período de teste').waitFor());

    // Past due: Pro stays while Stripe retries.
    stripe.update(subscriptionId, { status: 'past_due' });
    await deliver('invoice.payment_failed', stripe.invoice(subscriptionId, false));
    await checkState(owner, 'past-due', async (p) => {
      await p.getByRole('heading', { name: 'Plano Pro Ativo' }).waitFor();
      await p.getByText(/Atualize a forma de pagamento/).waitFor();
    });

    // Scheduled cancellation.
    stripe.update(subscriptionId, { status: 'active' });
    await deliver('customer.subscription.updated', stripe.update(subscriptionId, { cancel_at_period_end: true }));
    await checkState(owner, 'scheduled-cancellation', async (p) => {
      await p.getByText('Cancelamento programado').waitFor();
      await p.getByText(`A assinatura termina em ${dateOf(periodEnd())}`, { exact: false }).waitFor();
      await p.getByText('Termina em', { exact: true }).waitFor();
    });

    // Canceled: back to Free, the upgrade page with the red status.
    await deliver('customer.subscription.deleted', stripe.cancel(subscriptionId));
    await checkState(owner, 'canceled', async (p) => {
      await p.getByRole('button', { name: 'Fazer Upgrade Agora' }).waitFor();
      await p.getByText('Cancelada', { exact: true }).waitFor();
    });
  }, 240_000);

  it('without payments configured the upgrade page says so and offers no checkout', async () => {
    const owner = await newOwner('Oficina do Beto');
    const { page, context, errors } = await newPage(browser, { width: 390, height: 844, dark: true });
    const notConfigured = { statusCode: 503, error: 'Service Unavailable', message: 'Payments are not configured' };
    await page.route('**/api/payments/products', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify(notConfigured) }),
    );
    // The product is the api function's (ADR-0228), so the page may ask it inside POST /batch: its answer there too.
    await page.route('**/api/batch', async (route) => {
      const requests = (JSON.parse(route.request().postData() ?? '{}').requests ?? []) as { path: string }[];
      const response = await route.fetch();
      const answer = (await response.json()) as { responses?: { status: number; body: unknown }[] };
      requests.forEach((request, i) => {
        if (request.path === '/payments/products' && answer.responses?.[i]) answer.responses[i] = { status: 503, body: notConfigured };
      });
      await route.fulfill({ status: response.status(), contentType: 'application/json', body: JSON.stringify(answer) });
    });
    await signIn(page, owner, '/my-account');
    await page.getByText('Pagamentos não configurados neste servidor. Fale com o administrador do sistema.').first().waitFor();
    // The same words may first show in the error's toast, a render before the plan's card takes them.
    await expect.poll(() => page.getByRole('button', { name: 'Fazer Upgrade Agora' }).isDisabled()).toBe(true);
    await page.getByText('R$ 99,90').first().waitFor();
    await expectAccessible(page, 'not configured');
    if (screenshots) await page.screenshot({ path: join(out, 'billing-not-configured-dark-390.png'), fullPage: true });
    expect(errors.filter((e) => !e.includes('503'))).toEqual([]);
    // A batch still in flight (the realtime link's refetch) must not outlive the page in the route handler.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
});
