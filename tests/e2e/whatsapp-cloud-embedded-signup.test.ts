/**
 * 'Conectar com a Meta' in the browser (ADR-0217), over the local runtime with
 * the Graph API double as Meta and the double's app as the operator's Meta app. Meta's JavaScript SDK
 * is a stand-in served at its real URL (https://connect.facebook.net/en_US/sdk.js) through Playwright's
 * routing, under the site's real Content-Security-Policy (this page does not bypass it): its `FB.login`
 * records the options and opens Meta's window at https://www.facebook.com, also routed, which posts
 * the `WA_EMBEDDED_SIGNUP` message from that real origin to the opener, then tells the stand-in SDK
 * the code (as the real SDK's frames do), so the app's origin check runs on a real cross-origin
 * message. The SDK then posts a look-alike FINISH from the app's own origin naming other ids, which
 * must be ignored. The connection is made with the exchanged token, the number registered and the
 * WABA subscribed with an override to the connection's own URL (the double ran Meta's handshake on
 * it), and a customer's message reaches the inbox through it. A flow left at a step (CANCEL with
 * current_step) and a code Meta refuses show pt-BR messages. axe on the form.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { embeddedSignupTexts } from '#contracts/embedded-signup.ts';
import { cloudWebhookPath } from '#contracts/services.ts';
import type { FakeGraphApi } from '../support/fake-graph-api.ts';
import { callApi, expectAccessible, newPage } from './browser.ts';
import { fileWorld, newTeam, openAs, type Member, type World } from './world.ts';

const APP_SECRET = 'c0ffee00c0ffee00c0ffee00c0ffee00';
const CONFIG_ID = '987654321012345';
const live = { timeout: 20_000 };
const META = 'https://www.facebook.com';

let world: World;
let graph: FakeGraphApi;
fileWorld(
  (w) => {
    world = w;
    graph = w.graph!;
    graph.verifyOverrides = true;
  },
  { graphApi: { appSecret: APP_SECRET }, metaApp: { configId: CONFIG_ID } },
);

/** The SDK stand-in: FB.init and FB.login as the app calls them; the login's answer comes from Meta's window. */
const fakeSdk = `(function () {
  var pending = null;
  var LOOK_ALIKE = { type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data: { waba_id: '999999999999999', phone_number_id: '888888888888888' }, forged: true };
  var answer = null;
  window.addEventListener('message', function (event) {
    var data;
    try { data = typeof event.data === 'string' ? JSON.parse(event.data) : event.data; } catch (e) { return; }
    if (!data || !pending) return;
    if (event.origin === ${JSON.stringify(META)} && data.fakeSdk === 'login') {
      answer = data.code ? { authResponse: { code: data.code }, status: 'connected' } : { authResponse: null, status: 'unknown' };
      // Any page can post Meta's words: this one, from the app's own origin, must change nothing.
      window.postMessage(JSON.stringify(LOOK_ALIKE), '*');
      return;
    }
    if (event.origin === window.location.origin && data.forged && answer) {
      var callback = pending;
      pending = null;
      callback(answer);
    }
  });
  window.FB = {
    init: function (options) { window.__fbInit = options; },
    login: function (callback, options) {
      window.__fbLogin = options;
      pending = callback;
      window.open(${JSON.stringify(`${META}/v23.0/dialog/oauth`)} + '?config_id=' + encodeURIComponent(options.config_id), 'facebook-login', 'width=600,height=680');
    },
  };
  if (window.fbAsyncInit) window.fbAsyncInit();
})();`;

/** What Meta's window posts to the opener before telling the SDK the code (null: closed without one). */
let metaWindow: { messages: unknown[]; code: string | null } = { messages: [], code: null };
/** How many times Meta's window was served since the last run. */
let metaWindowsServed = 0;

async function routeMeta(context: BrowserContext): Promise<void> {
  await context.route('https://connect.facebook.net/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', headers: { 'access-control-allow-origin': '*' }, body: fakeSdk }),
  );
  await context.route(`${META}/**`, (route) => {
    metaWindowsServed++;
    const posts = [...metaWindow.messages.map((m) => JSON.stringify(m)), JSON.stringify({ fakeSdk: 'login', code: metaWindow.code })];
    const script = `${posts.map((p) => `window.opener.postMessage(${JSON.stringify(p)}, '*');`).join('\n')}\nwindow.close();`;
    return route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><title>Facebook</title><script>${script}</script>` });
  });
}

/** A page honouring the site's CSP (the shared helper bypasses it for axe), recording what it refuses. */
async function cspPage(): Promise<{ context: BrowserContext; page: Page; refused: string[] }> {
  const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
  await routeMeta(context);
  const page = await context.newPage();
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/.test(m.text())) refused.push(m.text());
  });
  return { context, page, refused };
}

async function openForm(page: Page, owner: Member, name: string) {
  await openAs(page, world, owner, '/services');
  await page.getByRole('link', { name: 'Nova conexão' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova conexão' });
  await dialog.getByLabel('Nome').fill(name);
  await dialog.getByLabel('Tipo').selectOption({ label: 'WhatsApp (API oficial)' });
  await dialog.getByRole('button', { name: embeddedSignupTexts.connect }).waitFor(live);
  return dialog;
}

/** Clicks 'Conectar com a Meta' and waits for Meta's window to open and close. */
async function runMeta(page: Page, dialog: ReturnType<Page['getByRole']>) {
  const popup = page.waitForEvent('popup');
  await dialog.getByRole('button', { name: embeddedSignupTexts.connect }).click();
  const opened = await popup;
  if (!opened.isClosed()) await opened.waitForEvent('close', live);
  expect(metaWindowsServed).toBeGreaterThan(0);
  metaWindowsServed = 0;
}

describe('WhatsApp (API oficial) by Embedded Signup, in the browser', () => {
  it('connects the number Meta’s window names with the exchanged token, its WABA subscribed to the connection’s own URL', async () => {
    const team = await newTeam(world, 'Pastelaria Bom Bocado', 'Helena Prado');
    const number = graph.addNumber({ displayPhoneNumber: '+55 41 3222-1000', verifiedName: 'Pastelaria Bom Bocado', registered: false });
    const { code, token } = graph.issueSignupCode({ wabaIds: [number.wabaId] });
    metaWindow = {
      messages: [
        {
          type: 'WA_EMBEDDED_SIGNUP',
          event: 'FINISH',
          data: { phone_number_id: number.phoneNumberId, waba_id: number.wabaId, business_id: '2729063490586005' },
        },
      ],
      code,
    };

    // axe on the form with the button (a page of the shared helper, which lets axe in).
    const shared = await newPage(world.browser);
    await routeMeta(shared.context);
    await openForm(shared.page, team.owner, 'WhatsApp oficial');
    await expectAccessible(shared.page, '/services/create, Conectar com a Meta');
    await shared.context.close();

    const { context, page, refused } = await cspPage();
    const dialog = await openForm(page, team.owner, 'WhatsApp oficial');
    await runMeta(page, dialog);
    await dialog.waitFor({ state: 'detached', ...live });
    const row = page.getByTestId('service-row').filter({ hasText: 'WhatsApp oficial' });
    await row.getByText('Conectado', { exact: true }).waitFor(live);
    await row.getByText('Pastelaria Bom Bocado · +55 41 3222-1000').waitFor(live);

    // FB.init and FB.login as Meta documents them; nothing the CSP refused on the way.
    expect(await page.evaluate(() => (window as unknown as { __fbInit: unknown }).__fbInit)).toEqual({
      appId: graph.appId,
      autoLogAppEvents: true,
      xfbml: true,
      version: 'v23.0',
    });
    expect(await page.evaluate(() => (window as unknown as { __fbLogin: unknown }).__fbLogin)).toEqual({
      config_id: CONFIG_ID,
      response_type: 'code',
      override_default_response_type: true,
      extras: { setup: {}, sessionInfoVersion: '3' },
    });
    expect(refused).toEqual([]);

    // Meta's side: the code exchanged once, the number registered and read with the business token, the WABA's override on this connection.
    expect(graph.calls.filter((c) => c.path.endsWith('/oauth/access_token')).map((c) => c.status)).toEqual([200]);
    expect(graph.calls.some((c) => c.method === 'POST' && c.path.endsWith(`/${number.phoneNumberId}/register`) && c.token === token)).toBe(true);
    expect(graph.calls.some((c) => c.method === 'GET' && c.path.endsWith(`/${number.phoneNumberId}`) && c.token === token)).toBe(true);
    const waba = graph.wabas.get(number.wabaId)!;
    expect(waba.subscribed).toBe(true);
    const services = await callApi(world.base, 'GET', '/services', undefined, team.owner.token);
    const override = new URL(waba.overrideCallbackUri!);
    expect(override.pathname).toBe(cloudWebhookPath(services.body.data[0].id));
    expect(override.port).toBe(new URL(world.base).port);
    // Not the look-alike's ids.
    expect(graph.numbers.has('888888888888888')).toBe(false);

    // A customer's message goes to the override, and the inbox shows it.
    const [delivery] = await graph.deliver(
      graph.inbound(number.phoneNumberId, { waId: '5541999990000', name: 'Otávio Reis' }, { type: 'text', body: 'Tem pastel de palmito?' }).payload,
    );
    expect(delivery!.status).toBe(204);
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await page.getByTestId('inbox-contact').filter({ hasText: 'Otávio Reis' }).click(live);
    await page.getByTestId('message').filter({ hasText: 'Tem pastel de palmito?' }).waitFor(live);
    await context.close();
  });

  it('tells the admin where Meta’s window was left, and that Meta refused a used code, connecting nothing', async () => {
    const team = await newTeam(world, 'Sorveteria Polo Norte', 'Iara Campos');
    const { context, page } = await cspPage();

    metaWindow = { messages: [{ type: 'WA_EMBEDDED_SIGNUP', event: 'CANCEL', data: { current_step: 'PHONE_NUMBER_SETUP' } }], code: null };
    const dialog = await openForm(page, team.owner, 'Sorveteria');
    await runMeta(page, dialog);
    await dialog
      .getByRole('alert')
      .filter({ hasText: embeddedSignupTexts.cancelled('PHONE_NUMBER_SETUP') })
      .waitFor(live);

    const number = graph.addNumber({ displayPhoneNumber: '+55 41 3222-2000', verifiedName: 'Sorveteria Polo Norte', registered: true, coexistence: true });
    const { code } = graph.issueSignupCode({ wabaIds: [number.wabaId] });
    // The code is used already (another tab, a double click): Meta refuses it the second time.
    const first = await fetch(`${graph.url}/v23.0/oauth/access_token?client_id=${graph.appId}&client_secret=${APP_SECRET}&code=${encodeURIComponent(code)}`);
    expect(first.status).toBe(200);
    metaWindow = {
      messages: [{ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING', data: { waba_id: number.wabaId }, version: 3 }],
      code,
    };
    await dialog.getByRole('checkbox', { name: embeddedSignupTexts.coexistence }).check();
    await runMeta(page, dialog);
    await dialog.getByRole('alert').filter({ hasText: embeddedSignupTexts.codeRefused }).waitFor(live);
    expect(await page.evaluate(() => (window as unknown as { __fbLogin: { extras: unknown } }).__fbLogin.extras)).toEqual({
      setup: {},
      sessionInfoVersion: '3',
      featureType: 'whatsapp_business_app_onboarding',
    });
    await page.keyboard.press('Escape');
    await page.getByText('Nenhum registro encontrado').waitFor(live);
    await context.close();
  });
});
