/**
 * The bubbles' contrast fix, checked: our own bubbles (sender and time at 11 px, a deleted message,
 * a document card) beside the customer's, on /inbox in light and dark, with axe-core (0 serious or
 * critical) and screenshots into docs/screenshots/inbox-bubbles-1280-{light,dark}.png.
 * Run: `npx tsx scripts/screenshots/take-bubble-screenshots.ts`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { inboundSink } from '#domain/channels/inbound-sink.ts';
import { callApi, expectAccessible, newPage, root } from '../../tests/e2e/browser.ts';
import { newTeam, openAs, setServiceStatus, startWorld } from '../../tests/e2e/world.ts';

const out = join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });

const world = await startWorld();
try {
  const { owner } = await newTeam(world, 'Doceria da Carla', 'Carla Souza');
  const zap = (await callApi(world.base, 'POST', '/services', { name: 'WhatsApp Vendas', type: 'whatsapp' }, owner.token)).body;
  await setServiceStatus(world, owner.accountId, zap.id, 'connected');
  const sink = inboundSink(world.ports, { accountId: owner.accountId, serviceId: zap.id });
  const chat = { idFromService: '5511987654321@s.whatsapp.net', name: 'Joana Pereira', isGroup: false, phoneNumber: '5511987654321' };
  const start = Date.now() - 10 * 60_000;
  await sink.message({ channelMessageId: 'B1', chat, isFromMe: false, type: 'text', text: 'Oi! O pedido já saiu?', timestamp: new Date(start).toISOString() });
  await sink.message({
    channelMessageId: 'B2',
    chat,
    isFromMe: true,
    type: 'text',
    text: 'Mensagem que será apagada',
    timestamp: new Date(start + 60_000).toISOString(),
  });
  await sink.deletion({ channelMessageId: 'B2' });
  const contact = (await callApi(world.base, 'GET', '/contacts', undefined, owner.token)).body.data[0];
  await callApi(world.base, 'POST', '/messages/send', { contactId: contact.id, serviceId: zap.id, text: 'Saiu sim! Chega hoje à tarde.' }, owner.token);

  for (const dark of [false, true]) {
    const { context, page, errors } = await newPage(world.browser, { width: 1280, height: 800, dark });
    await openAs(page, world, owner, `/inbox/${contact.id}`);
    await page.getByText('Saiu sim! Chega hoje à tarde.').first().waitFor();
    await page.getByText('Mensagem apagada').first().waitFor();
    await expectAccessible(page, `bubbles ${dark ? 'dark' : 'light'}`);
    await page.waitForTimeout(300);
    const file = join(out, `inbox-bubbles-1280-${dark ? 'dark' : 'light'}.png`);
    await page.screenshot({ path: file });
    console.log(`wrote ${file}${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`);
    await context.close();
  }
} finally {
  await world.stop();
}
