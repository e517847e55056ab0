/**
 * Screenshots of WhatsApp (API oficial) in the connection screens: the form with the type selected,
 * an edited connection with its secrets masked, and the list with Cloud API numbers (verified name,
 * display number, quality) beside a QR one, light and dark, 1280 and 390 px wide, each with
 * axe-core (0 serious or critical), into docs/screenshots/whatsapp-cloud-*.png. Meta is the Graph
 * API double (tests/support/fake-graph-api.ts) through WHATSAPP_CLOUD_GRAPH_URL, as in
 * tests/integration/whatsapp-cloud.test.ts. The form offers the type only when `connectionFormTypes`
 * (shared/contracts/service-labels.ts) lists it: until the webhook lands, the form shots need that
 * line changed locally.
 * Run: `npx tsx scripts/screenshots/take-whatsapp-cloud-screenshots.ts`.
 */
import { chromium } from 'playwright-core';
import { connectionFormTypes } from '#contracts/service-labels.ts';
import { startFakeGraphApi } from '../../tests/support/fake-graph-api.ts';
import { spawnLocalRuntime } from '../../tests/support/local-runtime.ts';
import { runtimePorts } from '../../tests/support/runtime-ports.ts';
import { callApi, chromiumArgs, ensureWebBuild, expectAccessible } from '../../tests/e2e/browser.ts';
import { newTeam, type World } from '../../tests/e2e/world.ts';
import { screenshotVariants } from './screenshot-variants.ts';

const APP_SECRET = '0123456789abcdef0123456789abcdef';
const formOffersCloud = (connectionFormTypes as readonly string[]).includes('whatsapp_cloud');

ensureWebBuild();
const fake = await startFakeGraphApi({ appSecret: APP_SECRET });
const runtime = await spawnLocalRuntime({ WHATSAPP_CLOUD_GRAPH_URL: fake.url });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
// The screenshot helpers' world, without the Telegram and WhatsApp doubles these views do not use.
const world = { runtime, browser, base: runtime.url, ports: runtimePorts(runtime), telegram: null, whatsapp: null } as unknown as World;
try {
  const { owner } = await newTeam(world, 'Doceria da Ana', 'Ana Lima');
  const cloudNumber = async (name: string, displayPhoneNumber: string, verifiedName: string, qualityRating: 'GREEN' | 'YELLOW') => {
    const accessToken = `EAAGsystemuser${name.replace(/\W/g, '')}${Date.now()}`;
    fake.addToken(accessToken);
    const number = fake.addNumber({ displayPhoneNumber, verifiedName, qualityRating });
    const created = await callApi(
      world.base,
      'POST',
      '/services',
      { name, type: 'whatsapp_cloud', phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken, appSecret: APP_SECRET },
      owner.token,
    );
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    return created.body as { id: string };
  };
  await callApi(world.base, 'POST', '/services', { name: 'WhatsApp da loja (QR)', type: 'whatsapp' }, owner.token);
  const official = await cloudNumber('WhatsApp oficial', '+55 11 3000-1000', 'Doceria da Ana', 'GREEN');
  await cloudNumber('Encomendas', '+55 11 3000-2000', 'Doceria da Ana Encomendas', 'YELLOW');
  const started = await callApi(world.base, 'POST', `/services/${official.id}/start`, undefined, owner.token);
  if (started.body.status !== 'connected') throw new Error(JSON.stringify(started.body));

  const shoot = screenshotVariants(world, process.argv[2]);
  await shoot(
    'whatsapp-cloud-list',
    owner,
    '/services',
    (page) => page.getByText('Qualidade: Alta').waitFor(),
    (page) => expectAccessible(page, 'connections list with Cloud API numbers'),
  );
  if (formOffersCloud) {
    await shoot(
      'whatsapp-cloud-form',
      owner,
      '/services/create',
      async (page) => {
        await page.getByLabel('Nome').fill('WhatsApp oficial');
        await page.getByLabel('Tipo').selectOption('whatsapp_cloud');
        await page.getByLabel('ID do número de telefone').waitFor();
      },
      (page) => expectAccessible(page, 'Cloud API form'),
    );
    await shoot(
      'whatsapp-cloud-form-errors',
      owner,
      '/services/create',
      async (page) => {
        await page.getByLabel('Tipo').selectOption('whatsapp_cloud');
        await page.getByLabel('ID do número de telefone').fill('+55 11 3000-1000');
        await page.getByRole('button', { name: 'Criar' }).click();
        await page.getByText('Chave secreta do app é obrigatória').waitFor();
      },
      (page) => expectAccessible(page, 'Cloud API form with errors'),
    );
  } else console.log('connectionFormTypes leaves whatsapp_cloud out: the create form is not shot');
  await shoot(
    'whatsapp-cloud-edit',
    owner,
    `/services/${official.id}/edit`,
    (page) => page.getByLabel('Chave secreta do app').waitFor(),
    async (page) => {
      await expectAccessible(page, 'Cloud API edit form');
      // The masked secrets and, below them, the webhook for the Meta app (when the API answers it).
      const webhook = page.getByLabel('Token de verificação', { exact: true });
      await ((await webhook.count()) ? webhook : page.getByLabel('Chave secreta do app')).scrollIntoViewIfNeeded();
    },
  );
} finally {
  await browser.close();
  await runtime.stop();
  await fake.close();
}
