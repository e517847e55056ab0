/**
 * Screenshots of 'Conectar com a Meta' (ADR-0217): 'Nova conexão' for WhatsApp
 * (API oficial) where a Meta app is configured, the button and the coexistence option above the typed
 * credentials, and the same after Meta's window was left at a step (the pt-BR message), light and
 * dark, 1280 and 390 px wide, each with axe-core (0 serious or critical), into
 * docs/screenshots/whatsapp-cloud-embedded-signup-*.png. Meta's app is the Graph API double's; Meta's
 * SDK is a stand-in routed at its real URL, whose login answers a CANCEL at PHONE_NUMBER_SETUP.
 * Run: `npx tsx scripts/screenshots/take-embedded-signup-screenshots.ts`.
 */
import type { Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { embeddedSignupTexts } from '#contracts/embedded-signup.ts';
import { startFakeGraphApi } from '../../tests/support/fake-graph-api.ts';
import { spawnLocalRuntime } from '../../tests/support/local-runtime.ts';
import { runtimePorts } from '../../tests/support/runtime-ports.ts';
import { chromiumArgs, ensureWebBuild, expectAccessible } from '../../tests/e2e/browser.ts';
import { newTeam, type World } from '../../tests/e2e/world.ts';
import { screenshotVariants } from './screenshot-variants.ts';

const APP_SECRET = '0123456789abcdef0123456789abcdef';

/** Meta's SDK stand-in: its login opens a routed facebook.com frame that posts Meta's CANCEL (the app reads Meta's origin only), then answers without a code. */
const cancellingSdk = `window.FB = {
  init: function () {},
  login: function (callback) {
    var frame = document.createElement('iframe');
    frame.style.display = 'none';
    frame.src = 'https://www.facebook.com/x/embedded-signup-cancel';
    window.addEventListener('message', function once(event) {
      if (event.origin !== 'https://www.facebook.com' || String(event.data).indexOf('CANCEL') < 0) return;
      window.removeEventListener('message', once);
      setTimeout(function () { callback({ authResponse: null, status: 'unknown' }); }, 0);
    });
    document.body.appendChild(frame);
  },
};
if (window.fbAsyncInit) window.fbAsyncInit();`;

async function routeMeta(page: Page): Promise<void> {
  await page.route('https://connect.facebook.net/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', headers: { 'access-control-allow-origin': '*' }, body: cancellingSdk }),
  );
  const cancel = JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: 'CANCEL', data: { current_step: 'PHONE_NUMBER_SETUP' } });
  await page.route('https://www.facebook.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><script>parent.postMessage(${JSON.stringify(cancel)}, '*');</script>` }),
  );
}

async function openForm(page: Page): Promise<void> {
  await routeMeta(page);
  await page.getByLabel('Nome').fill('WhatsApp oficial');
  await page.getByLabel('Tipo').selectOption('whatsapp_cloud');
  await page.getByRole('button', { name: embeddedSignupTexts.connect }).waitFor();
}

ensureWebBuild();
const fake = await startFakeGraphApi({ appSecret: APP_SECRET });
const runtime = await spawnLocalRuntime({
  WHATSAPP_CLOUD_GRAPH_URL: fake.url,
  META_APP_ID: fake.appId,
  META_CONFIG_ID: '987654321012345',
  META_APP_SECRET: APP_SECRET,
});
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
const world = { runtime, browser, base: runtime.url, ports: runtimePorts(runtime), telegram: null, whatsapp: null } as unknown as World;
try {
  const { owner } = await newTeam(world, 'Doceria da Ana', 'Ana Lima');
  const shoot = screenshotVariants(world, process.argv[2]);
  await shoot('whatsapp-cloud-embedded-signup', owner, '/services/create', openForm, (page) => expectAccessible(page, 'Conectar com a Meta'));
  await shoot(
    'whatsapp-cloud-embedded-signup-cancelled',
    owner,
    '/services/create',
    async (page) => {
      await openForm(page);
      await page.getByRole('button', { name: embeddedSignupTexts.connect }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: embeddedSignupTexts.cancelled('PHONE_NUMBER_SETUP') })
        .waitFor();
    },
    (page) => expectAccessible(page, 'Conectar com a Meta, cancelled'),
  );
} finally {
  await browser.close();
  await runtime.stop();
  await fake.close();
}
