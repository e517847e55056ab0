/**
 * Screenshots of numbers WhatsApp does not know and of read receipts (tests/e2e/whatsapp-numbers.test.ts proves them): the
 * WhatsApp connection form with 'Enviar confirmação de leitura (tiques azuis)', and a reply that
 * failed because the number is not on WhatsApp, light and dark, 1280 and 390 px wide, each with
 * axe-core (0 serious or critical), into docs/screenshots/whatsapp-read-receipts-*.png and
 * docs/screenshots/inbox-no-whatsapp-*.png. The runtime's WhatsApp sockets are the socket double,
 * whose directory knows no number, so the reply fails as it would for a number not on WhatsApp.
 * Run: `npx tsx scripts/screenshots/take-whatsapp-numbers-screenshots.ts`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { listQueryString } from '#contracts/list-query.ts';
import { callApi, expectAccessible, newPage, root } from '../../tests/e2e/browser.ts';
import { eventually, newTeam, openAs, startWorld } from '../../tests/e2e/world.ts';

const out = join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });

const world = await startWorld({ whatsappDouble: { paceMs: 50 } });
try {
  const whatsapp = world.whatsapp!;
  await whatsapp.register([]);
  const { owner } = await newTeam(world, 'Ótica Visão Clara', 'Carla Souza');
  const token = owner.token;
  const zap = (await callApi(world.base, 'POST', '/services', { name: 'WhatsApp Vendas', type: 'whatsapp' }, token)).body;
  await callApi(world.base, 'POST', `/services/${zap.id}/start`, undefined, token);
  await whatsapp.waitFor(zap.id, (socket) => socket.sockets === 1);
  await whatsapp.pair(zap.id);
  await eventually(async () => (await callApi(world.base, 'GET', `/services/${zap.id}`, undefined, token)).body.status === 'connected');

  const customer = '5521999990000@s.whatsapp.net';
  await whatsapp.emit(zap.id, 'messages.upsert', {
    type: 'notify',
    messages: [
      {
        key: { remoteJid: customer, fromMe: false, id: '3A0000000000000000C1' },
        messageTimestamp: Math.floor(Date.now() / 1000) - 300,
        pushName: 'Joana Pereira',
        message: { conversation: 'Oi! Vocês fazem lente multifocal?' },
      },
    ],
  });
  const contact = await eventually(async () => (await callApi(world.base, 'GET', '/contacts', undefined, token)).body.data[0]);
  const reply = 'Fazemos sim! Pode vir a partir das 9h.';
  await callApi(world.base, 'POST', '/messages/send', { contactId: contact.id, serviceId: zap.id, text: reply }, token);
  await eventually(async () => {
    const list = (await callApi(world.base, 'GET', `/messages${listQueryString({ where: { contactId: contact.id } })}`, undefined, token)).body.data ?? [];
    return list.some((m: { text: string; ack: number }) => m.text === reply && m.ack === -2);
  });

  for (const dark of [false, true]) {
    for (const width of [1280, 390]) {
      const variant = `${width}-${dark ? 'dark' : 'light'}`;
      const { context, page, errors } = await newPage(world.browser, { width, height: width > 600 ? 800 : 844, dark });

      await openAs(page, world, owner, `/services/${zap.id}/edit`);
      await page.getByRole('checkbox', { name: 'Enviar confirmação de leitura (tiques azuis)' }).waitFor();
      await expectAccessible(page, `read receipts ${variant}`);
      await page.waitForTimeout(300);
      let file = join(out, `whatsapp-read-receipts-${variant}.png`);
      await page.screenshot({ path: file });
      console.log(`wrote ${file}`);

      await openAs(page, world, owner, `/inbox/${contact.id}`);
      await page.getByTestId('message').filter({ hasText: reply }).getByText('Este número não tem WhatsApp.').waitFor();
      await expectAccessible(page, `no WhatsApp ${variant}`);
      await page.waitForTimeout(300);
      file = join(out, `inbox-no-whatsapp-${variant}.png`);
      await page.screenshot({ path: file });
      console.log(`wrote ${file}${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`);
      await context.close();
    }
  }
} finally {
  await world.stop();
}
