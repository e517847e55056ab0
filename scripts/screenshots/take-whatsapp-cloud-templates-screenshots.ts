/**
 * Screenshots of a WhatsApp (API oficial) connection's 'Modelos de mensagem' screen: the list with
 * status badges (approved, in review, rejected with its reason), the empty state, the create form
 * for a marketing template (with Meta's billing note) and the form's errors, light and dark, 1280
 * and 390 px wide, each with axe-core (0 serious or critical), into
 * docs/screenshots/whatsapp-cloud-templates-*.png. Meta is the Graph API double
 * (tests/support/fake-graph-api.ts) through WHATSAPP_CLOUD_GRAPH_URL; the templates are made there
 * and synced through the API, as an admin would.
 * Run: `npx tsx scripts/screenshots/take-whatsapp-cloud-templates-screenshots.ts [name filter]`.
 */
import { chromium } from 'playwright-core';
import { startFakeGraphApi } from '../../tests/support/fake-graph-api.ts';
import { spawnLocalRuntime } from '../../tests/support/local-runtime.ts';
import { runtimePorts } from '../../tests/support/runtime-ports.ts';
import { callApi, chromiumArgs, ensureWebBuild, expectAccessible } from '../../tests/e2e/browser.ts';
import { newTeam, type World } from '../../tests/e2e/world.ts';
import { screenshotVariants } from './screenshot-variants.ts';

const APP_SECRET = '0123456789abcdef0123456789abcdef';

ensureWebBuild();
const fake = await startFakeGraphApi({ appSecret: APP_SECRET });
const runtime = await spawnLocalRuntime({ WHATSAPP_CLOUD_GRAPH_URL: fake.url });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
const world = { runtime, browser, base: runtime.url, ports: runtimePorts(runtime), telegram: null, whatsapp: null } as unknown as World;
try {
  const { owner } = await newTeam(world, 'Doceria da Ana', 'Ana Lima');
  const cloudNumber = async (name: string, displayPhoneNumber: string) => {
    const accessToken = `EAAGsystemuser${name.replace(/\W/g, '')}${Date.now()}`;
    fake.addToken(accessToken);
    const number = fake.addNumber({ displayPhoneNumber, verifiedName: 'Doceria da Ana' });
    const created = await callApi(
      world.base,
      'POST',
      '/services',
      { name, type: 'whatsapp_cloud', phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken, appSecret: APP_SECRET },
      owner.token,
    );
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    return { id: created.body.id as string, wabaId: number.wabaId };
  };
  const official = await cloudNumber('WhatsApp oficial', '+55 11 3000-1000');
  const empty = await cloudNumber('Encomendas', '+55 11 3000-2000');
  const body = (text: string, examples?: string[]) => ({ type: 'BODY' as const, text, ...(examples ? { example: { body_text: [examples] } } : {}) });
  fake.addTemplate(official.wabaId, {
    name: 'pedido_enviado',
    language: 'pt_BR',
    category: 'UTILITY',
    components: [body('Olá {{1}}, seu pedido {{2}} saiu para entrega e chega hoje até as 18h.', ['Joana', '1234']), { type: 'FOOTER', text: 'Doceria da Ana' }],
  });
  fake.addTemplate(official.wabaId, {
    name: 'lembrete_retirada',
    language: 'pt_BR',
    category: 'UTILITY',
    status: 'PENDING',
    components: [body('Oi {{1}}! Sua encomenda já pode ser retirada na loja.', ['Joana'])],
  });
  fake.addTemplate(official.wabaId, {
    name: 'promocao_natal',
    language: 'pt_BR',
    category: 'MARKETING',
    status: 'REJECTED',
    rejected_reason: 'INVALID_FORMAT',
    components: [body('{{1}}, o Natal chegou: 20% de desconto em todas as tortas!', ['Joana'])],
  });
  const synced = await callApi(world.base, 'POST', `/services/${official.id}/templates/sync`, undefined, owner.token);
  if (synced.status !== 200) throw new Error(JSON.stringify(synced.body));

  const shoot = screenshotVariants(world, process.argv[2]);
  await shoot(
    'whatsapp-cloud-templates-list',
    owner,
    `/services/${official.id}/templates`,
    (page) => page.getByText('pedido_enviado').waitFor(),
    (page) => expectAccessible(page, 'message templates list'),
  );
  await shoot(
    'whatsapp-cloud-templates-empty',
    owner,
    `/services/${empty.id}/templates`,
    (page) => page.getByText('Nenhum modelo de mensagem ainda').waitFor(),
    (page) => expectAccessible(page, 'message templates, none yet'),
  );
  await shoot(
    'whatsapp-cloud-templates-form',
    owner,
    `/services/${official.id}/templates`,
    async (page) => {
      await page.getByRole('button', { name: 'Novo modelo' }).click();
      await page.getByLabel('Nome').fill('oferta_pascoa');
      await page.getByLabel('Categoria').selectOption('MARKETING');
      await page.getByLabel('Corpo').fill('Oi {{1}}! Os ovos de Páscoa da Doceria chegaram. Encomende até {{2}}.');
      await page.getByLabel('Exemplo de {{1}}').fill('Joana');
      await page.getByLabel('Exemplo de {{2}}').fill('28/03');
    },
    (page) => expectAccessible(page, 'message template form'),
  );
  await shoot(
    'whatsapp-cloud-templates-form-errors',
    owner,
    `/services/${official.id}/templates`,
    async (page) => {
      await page.getByRole('button', { name: 'Novo modelo' }).click();
      await page.getByLabel('Nome').fill('Oferta Páscoa');
      await page.getByLabel('Corpo').fill('{{1}}, chegou a Páscoa!');
      await page.getByRole('button', { name: 'Criar' }).click();
      await page.getByText('Use só letras minúsculas, números e _ (sem espaços nem acentos)').waitFor();
      // The body's own rules come once the fields above are right.
      await page.getByLabel('Categoria').selectOption('UTILITY');
      await page.getByLabel('Nome').fill('oferta_pascoa');
      await page.getByRole('button', { name: 'Criar' }).click();
      await page.getByText('O texto não pode começar nem terminar com uma variável').waitFor();
    },
    (page) => expectAccessible(page, 'message template form with errors'),
  );
} finally {
  await browser.close();
  await runtime.stop();
  await fake.close();
}
