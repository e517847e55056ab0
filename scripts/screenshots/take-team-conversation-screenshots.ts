/**
 * Screenshots of the conversation header of the team inbox (docs/product.md#team-inbox: who handles it, department, status, tags and
 * the actions; the phone's 'Mais ações' menu), of the transfer dialog and of the inbox after a take
 * lost to someone the member may not see it with (the 404's toast, back on the list), light and
 * dark, 1280 and 390 px wide, into docs/screenshots/team-conversation-*.png.
 * Run: `npx tsx scripts/screenshots/take-team-conversation-screenshots.ts [name-filter]`.
 */
import type { Page } from 'playwright-core';
import { inboundSink } from '#domain/channels/inbound-sink.ts';
import { callApi } from '../../tests/e2e/browser.ts';
import { screenshotVariants } from './screenshot-variants.ts';
import { newTeam, setServiceStatus, startWorld } from '../../tests/e2e/world.ts';

const only = process.argv[2];

const world = await startWorld();
const base = world.base;

const shoot = screenshotVariants(world, only);

try {
  const team = await newTeam(world, 'Doceria da Carla', 'Carla Souza');
  const { owner } = team;
  const marina = await team.addUser('Marina Costa', false);
  const bruno = await team.addUser('Bruno Lima', true);
  await callApi(base, 'POST', '/departments', { name: 'Vendas', userIds: [marina.user.id] }, owner.token);
  await callApi(base, 'POST', '/departments', { name: 'Financeiro', userIds: [] }, owner.token);
  for (const [name, color] of [
    ['VIP', '#db2777'],
    ['Atacado', '#2563eb'],
    ['Aniversário', '#fde047'],
  ] as const) {
    await callApi(base, 'POST', '/tags', { name, color }, owner.token);
  }
  const palette = (await callApi(base, 'GET', '/tags', undefined, owner.token)).body.data as { id: string; name: string }[];

  const zap = (await callApi(base, 'POST', '/services', { name: 'WhatsApp Vendas', type: 'whatsapp' }, owner.token)).body;
  await setServiceStatus(world, owner.accountId, zap.id, 'connected');
  const sink = inboundSink(world.ports, { accountId: owner.accountId, serviceId: zap.id });
  const start = Date.now() - 20 * 60_000;
  const chats = [
    { idFromService: '5511987654321@s.whatsapp.net', name: 'Joana Pereira', isGroup: false, phoneNumber: '5511987654321' },
    { idFromService: '5511987654322@s.whatsapp.net', name: 'Mercado Central Atacadista', isGroup: false, phoneNumber: '5511987654322' },
  ];
  for (const [i, chat] of chats.entries()) {
    await sink.message({
      channelMessageId: `T${i}`,
      chat,
      isFromMe: false,
      type: 'text',
      text: i === 0 ? 'Oi! Queria encomendar um bolo para sábado.' : 'Bom dia, preciso da segunda via do boleto.',
      timestamp: new Date(start + i * 60_000).toISOString(),
    });
  }
  const contacts = (await callApi(base, 'GET', '/contacts', undefined, owner.token)).body.data as { id: string; name: string }[];
  const joana = contacts.find((c) => c.name === 'Joana Pereira')!;
  const mercado = contacts.find((c) => c.name.startsWith('Mercado'))!;
  await callApi(base, 'PUT', `/contacts/${joana.id}/tags`, { tagIds: palette.map((t) => t.id) }, owner.token);
  await callApi(base, 'PUT', `/contacts/${mercado.id}/tags`, { tagIds: [palette.find((t) => t.name === 'Atacado')!.id] }, owner.token);
  await callApi(base, 'POST', `/contacts/${mercado.id}/take`, undefined, marina.token);
  await callApi(base, 'POST', `/contacts/${mercado.id}/status`, { status: 'pending' }, marina.token);

  const headerReady = (p: Page) =>
    p
      .getByTestId('conversation-facts')
      .getByText(/VIP|Atacado/)
      .first()
      .waitFor();
  // Nobody's conversation, seen by a member: 'Assumir'.
  await shoot('team-conversation-unassigned', marina, `/inbox/${joana.id}`, headerReady);
  // The member's own, pending: the actions menu open.
  await shoot('team-conversation-menu', marina, `/inbox/${mercado.id}`, headerReady, (p) => p.getByRole('button', { name: 'Mais ações' }).click());
  // The transfer dialog, with its validation text.
  await shoot('team-conversation-transfer', marina, `/inbox/${mercado.id}`, headerReady, async (p, wide) => {
    if (wide) await p.getByRole('button', { name: 'Transferir' }).click();
    else {
      await p.getByRole('button', { name: 'Mais ações' }).click();
      await p.getByRole('menuitem', { name: 'Transferir' }).click();
    }
    const dialog = p.getByRole('dialog', { name: 'Transferir conversa' });
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await dialog.getByText('Escolha um usuário ou um departamento').waitFor();
  });
  // A take lost to Bruno: he takes it just before Marina's request reaches the server, which answers
  // her 404 (his conversation is hidden from her); a fresh unassigned conversation for each variant.
  let phone = 5511987650000;
  await shoot(
    'team-conversation-lost-take',
    marina,
    '/inbox',
    (p) => p.getByText('Joana Pereira').first().waitFor(),
    async (p) => {
      phone += 1;
      const data = { phoneNumber: String(phone), phoneCountry: 'BR' };
      const fresh = (await callApi(base, 'POST', '/contacts', { name: 'Rita Almeida', serviceId: zap.id, data }, owner.token)).body;
      await p.goto(`${base}/inbox/${fresh.id}`);
      await p.getByRole('button', { name: 'Assumir' }).waitFor();
      await p.route(`**/contacts/${fresh.id}/take`, async (route) => {
        await callApi(base, 'POST', `/contacts/${fresh.id}/take`, undefined, bruno.token);
        await route.continue();
      });
      await p.getByRole('button', { name: 'Assumir' }).click();
      await p.getByText('Esta conversa não está mais disponível para você').waitFor();
      await p.waitForURL(/\/inbox$/);
      await p.getByText('Joana Pereira').first().waitFor();
    },
  );
} finally {
  await world.stop();
}
