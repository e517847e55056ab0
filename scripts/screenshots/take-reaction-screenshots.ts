/**
 * Screenshots of reactions in a WhatsApp conversation (chips under the messages they react to),
 * light and dark, 1280 and 390 px wide, into docs/screenshots/inbox-reactions-*.png.
 * Run: `npx tsx scripts/screenshots/take-reaction-screenshots.ts`.
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
  const customer = '5511987654321@s.whatsapp.net';
  const start = Date.now() - 10 * 60_000;
  const at = (minute: number) => new Date(start + minute * 60_000).toISOString();
  const chat = { idFromService: customer, name: 'Joana Pereira', isGroup: false, phoneNumber: '5511987654321' };
  const say = (id: string, text: string, minute: number, isFromMe = false) =>
    sink.message({ channelMessageId: id, chat, isFromMe, type: 'text', text, timestamp: at(minute) });
  await say('W1', 'Oi! Vocês fazem bolo de aniversário?', 0);
  await say('W2', 'Fazemos sim 🎂 Para quantas pessoas?', 1, true);
  await say('W3', 'Umas 30 pessoas. Pode ser de chocolate com morango?', 2);
  await say('W4', 'Pode sim! Fica R$ 180,00 e sai no sábado às 10h.', 3, true);
  await say('W5', 'Perfeito, fechado então! Obrigada 😊', 4);
  await say('W6', 'Combinado, até sábado!', 5, true);
  const react = (id: string, reactorId: string, emoji: string, minute: number) =>
    sink.reaction({ channelMessageId: id, reactorId, fromMe: reactorId === 'me', emoji, timestamp: at(minute) });
  await react('W2', customer, '❤️', 2);
  await react('W4', customer, '👍', 5);
  await react('W4', 'me', '👍', 5.5);
  await react('W4', 'outro@s.whatsapp.net', '🎉', 6);
  await react('W5', 'me', '🙏', 6.5);

  for (const dark of [false, true]) {
    for (const width of [1280, 390]) {
      const { context, page, errors } = await newPage(world.browser, { width, height: width > 600 ? 800 : 844, dark });
      await openAs(page, world, owner, '/inbox');
      if (width < 600) await page.getByText('Joana Pereira').first().click();
      await page
        .getByRole('img', { name: /^Reações:/ })
        .first()
        .waitFor();
      await expectAccessible(page, `reactions ${width} ${dark ? 'dark' : 'light'}`);
      await page.waitForTimeout(300);
      const file = join(out, `inbox-reactions-${width}-${dark ? 'dark' : 'light'}.png`);
      await page.screenshot({ path: file });
      console.log(`wrote ${file}${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`);
      await context.close();
    }
  }
} finally {
  await world.stop();
}
