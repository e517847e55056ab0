/**
 * Screenshots of the signed-in app with realistic data (inbox, contacts, connections, users, my
 * account and their modals), light and dark, 1280 and 390 px wide, into docs/screenshots/.
 * Run: `npx tsx scripts/screenshots/take-app-screenshots.ts [name-filter]`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import QRCode from 'qrcode';
import type { Page } from 'playwright-core';
import { writeServiceStatus } from '#db/services.ts';
import { sessionReport } from '#domain/channels/session-report.ts';
import { callApi, newPage, root } from '../../tests/e2e/browser.ts';
import { eventually, newTeam, startWorld } from '../../tests/e2e/world.ts';

const out = join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });
const only = process.argv[2];

const world = await startWorld();
const base = world.base;
try {
  const team = await newTeam(world, 'Doceria da Carla', 'Carla Souza');
  const { owner } = team;
  await team.addUser('Bruno Lima', true);
  await team.addUser('Marina Costa', false);
  const fakeBot = world.telegram.addBot('123456:ABCDEF-secret-token', 'Doceria');
  const bot = (await callApi(base, 'POST', '/services', { name: 'Bot da Doceria', type: 'telegram', token: '123456:ABCDEF-secret-token' }, owner.token)).body;
  const zap = (await callApi(base, 'POST', '/services', { name: 'WhatsApp Vendas', type: 'whatsapp' }, owner.token)).body;
  await callApi(base, 'POST', `/services/${bot.id}/start`, {}, owner.token);
  await eventually(async () => fakeBot.polling);
  const customers = ['Joana Pereira', 'Rafael Gomes', 'Lúcia Andrade', 'Pedro Henrique', 'Sofia Martins', 'Tiago Nunes'];
  const texts = [
    'Oi! Vocês fazem bolo de aniversário?',
    'Qual o horário de funcionamento?',
    'Obrigada, chegou tudo certinho 😊',
    'Posso retirar amanhã às 10h?',
    'Tem opção sem lactose?',
    'Quero encomendar 50 brigadeiros',
  ];
  for (let i = 0; i < customers.length; i++) {
    const [first, ...rest] = customers[i]!.split(' ');
    fakeBot.receive({ id: 900 + i, first_name: first!, last_name: rest.join(' ') }, { text: texts[i]! });
    await eventually(async () => (await callApi(base, 'GET', '/contacts', undefined, owner.token)).body.totalCount === i + 1);
  }
  await callApi(
    base,
    'POST',
    '/contacts',
    { name: 'Mercado Central', serviceId: zap.id, data: { phoneNumber: '5511987654321', phoneCountry: 'BR', email: 'compras@mercadocentral.com.br' } },
    owner.token,
  );
  const contacts = (
    await callApi(base, 'GET', `/contacts?query=${encodeURIComponent(JSON.stringify({ where: { name: 'Joana Pereira' } }))}`, undefined, owner.token)
  ).body.data;
  const joana = contacts[0];
  await callApi(
    base,
    'POST',
    '/messages/send',
    { contactId: joana.id, serviceId: bot.id, text: 'Olá, Joana! Fazemos sim 🎂 Para quantas pessoas?', type: 'text' },
    owner.token,
  );
  await eventually(async () => fakeBot.sent.length >= 1);
  fakeBot.receive({ id: 900, first_name: 'Joana', last_name: 'Pereira' }, { text: 'Umas 30 pessoas. Pode ser de chocolate com morango?' });
  await eventually(
    async () =>
      (await callApi(base, 'GET', `/messages?query=${encodeURIComponent(JSON.stringify({ where: { contactId: joana.id } }))}`, undefined, owner.token)).body
        .totalCount === 3,
  );
  await callApi(
    base,
    'POST',
    '/messages/send',
    { contactId: joana.id, serviceId: bot.id, text: 'Pode sim! O de 30 fatias sai por R$ 180,00.\nEntregamos no sábado pela manhã.', type: 'text' },
    owner.token,
  );
  await eventually(async () => fakeBot.sent.length >= 2);
  await callApi(base, 'POST', `/contacts/${joana.id}/read`, {}, owner.token);

  const zapId = zap.id as string;
  // WhatsApp connections as a session reports them: waiting for its QR, showing a pairing code, reconnecting.
  const reportAs = async (name: string, status: 'starting' | 'connected', report: (r: ReturnType<typeof sessionReport>) => Promise<unknown>) => {
    const made = (await callApi(base, 'POST', '/services', { name, type: 'whatsapp' }, owner.token)).body;
    const runId = `run-${made.id}`;
    await writeServiceStatus(
      world.ports.table,
      { accountId: owner.accountId, id: made.id, channelType: 'whatsapp' },
      { status, runId, now: new Date().toISOString() },
    );
    await report(sessionReport(world.ports, { accountId: owner.accountId, serviceId: made.id, type: 'whatsapp', token: null, runId }));
    return made.id as string;
  };
  const loja = await reportAs('WhatsApp Loja', 'starting', async (r) => r.pairing(await QRCode.toDataURL('2@loja,abc,def', { width: 300, margin: 1 })));
  const entregas = await reportAs('WhatsApp Entregas', 'starting', (r) => r.pairingCode('K7PQ2MXA'));
  await reportAs('WhatsApp Balcão', 'connected', (r) => r.reconnecting('Reconectando ao WhatsApp…'));
  const pairByPhone = (page: Page) => page.getByRole('button', { name: 'Conectar com número de telefone' }).click();
  const marina = (await callApi(base, 'GET', `/users?query=${encodeURIComponent(JSON.stringify({ where: { name: 'Marina Costa' } }))}`, undefined, owner.token))
    .body.data[0];
  const modes = {
    all: [
      [1280, false],
      [1280, true],
      [390, false],
      [390, true],
    ],
    modal: [
      [1280, false],
      [390, true],
    ],
  } as const;
  const shots: {
    name: string;
    path: string;
    ready: string;
    dialog?: boolean;
    modes?: readonly (readonly [number, boolean])[];
    /** What the person does before the picture. */
    act?: (page: Page) => Promise<void>;
  }[] = [
    { name: 'app-inbox', path: `/inbox/${joana.id}`, ready: 'Carregar mais mensagens, Umas 30 pessoas' },
    { name: 'app-contacts', path: '/contacts', ready: 'Mercado Central' },
    { name: 'app-services', path: '/services', ready: 'Bot da Doceria' },
    { name: 'app-users', path: '/users', ready: 'Marina Costa' },
    { name: 'app-my-account', path: '/my-account', ready: 'Doceria da Carla' },
    { name: 'modal-contact-create', path: '/contacts/create', ready: 'Novo contato', dialog: true, modes: modes.modal },
    { name: 'modal-contact-edit', path: `/contacts/${joana.id}/edit`, ready: 'Editar contato', dialog: true, modes: modes.modal },
    { name: 'modal-service-create', path: '/services/create', ready: 'Nova conexão', dialog: true, modes: modes.modal },
    { name: 'modal-service-qr', path: `/services/${zapId}/qr-code`, ready: 'Código QR', dialog: true, modes: modes.modal },
    { name: 'modal-service-pairing-qr', path: `/services/${loja}/qr-code`, ready: 'Conectar com número de telefone', dialog: true, modes: modes.modal },
    {
      name: 'modal-service-pairing-form',
      path: `/services/${loja}/qr-code`,
      ready: 'Gerar código',
      dialog: true,
      act: pairByPhone,
      modes: modes.all,
    },
    { name: 'modal-service-pairing-code', path: `/services/${entregas}/qr-code`, ready: 'K7PQ-2MXA', dialog: true, modes: modes.all },
    { name: 'modal-user-create', path: '/users/create', ready: 'Criar usuário', dialog: true, modes: modes.modal },
    { name: 'modal-user-show', path: `/users/${marina.id}/show`, ready: 'Visualização de usuário', dialog: true, modes: modes.modal },
    { name: 'modal-account-edit', path: `/my-account/${owner.accountId}/edit`, ready: 'Editar conta', dialog: true, modes: modes.modal },
  ];
  for (const shot of shots) {
    if (only && !shot.name.includes(only)) continue;
    for (const [width, dark] of shot.modes ?? modes.all) {
      {
        const { page, context } = await newPage(world.browser, { width, height: width === 390 ? 844 : 800, dark });
        await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), { accessToken: owner.token, user: owner.user });
        await page.goto(`${base}${shot.path}`, { waitUntil: 'networkidle' });
        if (shot.act) await shot.act(page);
        const wanted = shot.ready.split(', ').at(-1)!;
        const scope = shot.dialog ? page.getByRole('dialog') : page.locator('main');
        await scope
          .getByText(wanted)
          .first()
          .waitFor({ timeout: 15000 })
          .catch(() => console.warn('not found', wanted));
        await page.evaluate(() => document.fonts.ready);
        await page.waitForTimeout(300);
        const file = join(out, `${shot.name}-${dark ? 'dark' : 'light'}-${width}.png`);
        await page.screenshot({ path: file });
        console.log('wrote', file);
        await context.close();
      }
    }
  }
} finally {
  await world.stop();
}
