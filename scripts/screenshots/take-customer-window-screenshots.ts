/**
 * Screenshots of the WhatsApp (API oficial) 24-hour window in the conversation: the composer of a
 * customer who last wrote 25 hours ago (the closed-window notice, internal notes only) and of one who
 * wrote 23 hours ago (the usual composer with 'Janela aberta até …'), light and dark, 1280 and 390 px
 * wide, each with axe-core (0 serious or critical), into docs/screenshots/customer-window-*.png. Meta
 * is the Graph API double (tests/support/fake-graph-api.ts), its clock set back so its deliveries
 * carry those times, posted to the connection's webhook as in tests/integration/whatsapp-cloud-webhook.test.ts.
 * Run: `npx tsx scripts/screenshots/take-customer-window-screenshots.ts [name filter]`.
 */
import { chromium } from 'playwright-core';
import { startFakeGraphApi } from '../../tests/support/fake-graph-api.ts';
import { spawnLocalRuntime } from '../../tests/support/local-runtime.ts';
import { runtimePorts } from '../../tests/support/runtime-ports.ts';
import { callApi, chromiumArgs, ensureWebBuild, expectAccessible } from '../../tests/e2e/browser.ts';
import { newTeam, type World } from '../../tests/e2e/world.ts';
import { screenshotVariants } from './screenshot-variants.ts';

const APP_SECRET = '0123456789abcdef0123456789abcdef';
const HOUR = 3_600_000;

ensureWebBuild();
const fake = await startFakeGraphApi({ appSecret: APP_SECRET });
const runtime = await spawnLocalRuntime({ WHATSAPP_CLOUD_GRAPH_URL: fake.url });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
// The screenshot helpers' world, without the Telegram and WhatsApp doubles these views do not use.
const world = { runtime, browser, base: runtime.url, ports: runtimePorts(runtime), telegram: null, whatsapp: null } as unknown as World;
try {
  const { owner } = await newTeam(world, 'Ótica Visão', 'Rita Lima');
  const accessToken = `EAAGsystemuserwindow${Date.now()}`;
  fake.addToken(accessToken);
  const number = fake.addNumber({ displayPhoneNumber: '+55 11 3555-0000', verifiedName: 'Ótica Visão' });
  const created = await callApi(
    world.base,
    'POST',
    '/services',
    { name: 'WhatsApp oficial', type: 'whatsapp_cloud', phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken, appSecret: APP_SECRET },
    owner.token,
  );
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const started = await callApi(world.base, 'POST', `/services/${created.body.id}/start`, undefined, owner.token);
  if (started.body.status !== 'connected') throw new Error(JSON.stringify(started.body));
  const url = `${world.base}${created.body.webhook.path}`;

  /** A customer's message as Meta would have delivered it `hoursAgo`; answers the contact's id. */
  const customerWrote = async (hoursAgo: number, customer: { waId: string; name: string }, body: string) => {
    fake.setNow(Date.now() - hoursAgo * HOUR);
    const [delivery] = await fake.deliver(fake.inbound(number.phoneNumberId, customer, { type: 'text', body }).payload, { url });
    if (delivery?.status !== 204) throw new Error(`delivery: ${delivery?.status} ${delivery?.responseBody}`);
    const contacts = await callApi(world.base, 'GET', '/contacts', undefined, owner.token);
    const contact = (contacts.body.data as { id: string; name: string }[]).find((c) => c.name === customer.name);
    if (!contact) throw new Error(`no contact ${customer.name}`);
    return contact.id;
  };
  const closed = await customerWrote(25, { waId: '5511955554444', name: 'Carla Dias' }, 'Meus óculos já ficaram prontos? Posso buscar amanhã?');
  const open = await customerWrote(23, { waId: '5511966665555', name: 'Bruno Costa' }, 'Vocês abrem no sábado?');

  const shoot = screenshotVariants(world, process.argv[2]);
  await shoot(
    'customer-window-closed',
    owner,
    `/inbox/${closed}`,
    (page) => page.getByText('Janela de 24 horas fechada').waitFor(),
    (page) => expectAccessible(page, 'closed 24-hour window composer'),
  );
  await shoot(
    'customer-window-closing',
    owner,
    `/inbox/${open}`,
    (page) => page.getByText(/^Janela aberta até/).waitFor(),
    (page) => expectAccessible(page, 'composer in the last hours of the window'),
  );
} finally {
  await browser.close();
  await runtime.stop();
  await fake.close();
}
