/**
 * Screenshots of the team thread (docs/product.md#team-inbox): a conversation with an internal note, system lines
 * and the `/atalho` quick-reply picker open, light and dark, 1280 and 390 px wide, into
 * docs/screenshots/team-thread-*.png. Run: `npx tsx scripts/screenshots/take-team-thread-screenshots.ts`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { callApi, newPage, root } from '../../tests/e2e/browser.ts';
import { eventually, newTeam, openAs, startWorld } from '../../tests/e2e/world.ts';

const out = join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });

const world = await startWorld();
const base = world.base;

try {
  const team = await newTeam(world, 'Doceria da Carla', 'Carla Souza');
  const { owner } = team;
  const bruno = await team.addUser('Bruno Lima', true);
  const botToken = `${910_000 + (Date.now() % 80_000)}:AAH-fotos`;
  const bot = world.telegram.addBot(botToken, 'Doceria');
  const service = (await callApi(base, 'POST', '/services', { name: 'Bot da Doceria', type: 'telegram', token: botToken }, owner.token)).body;
  await callApi(base, 'POST', `/services/${service.id}/start`, {}, owner.token);
  await eventually(async () => bot.polling);
  for (const [shortcut, text] of [
    ['boleto', 'Olá, {{primeiro_nome}}! Segue o boleto do seu pedido. Qualquer dúvida, é só chamar.'],
    ['boas-vindas', 'Seja bem-vinda, {{nome}}! Aqui é {{atendente}}, como posso ajudar?'],
    ['horario', 'Funcionamos de segunda a sábado, das 9h às 18h; boletos pagos até as 17h compensam no dia.'],
  ] as const) {
    await callApi(base, 'POST', '/quick-replies', { shortcut, text }, owner.token);
  }
  const helena = { id: 555_114, first_name: 'Helena', last_name: 'Prado' };
  bot.receive(helena, { text: 'Oi! Queria encomendar um bolo para sábado.' });
  const contact = await eventually(async () => {
    const list = await callApi(base, 'GET', '/contacts', undefined, owner.token);
    return list.body.data.find((c: { name: string }) => c.name === 'Helena Prado');
  });
  await callApi(base, 'POST', `/contacts/${contact.id}/take`, {}, bruno.token);
  await callApi(
    base,
    'POST',
    '/messages/notes',
    { contactId: contact.id, text: 'Cliente antiga: já encomendou três vezes. Pode parcelar em 3x.' },
    bruno.token,
  );
  await callApi(base, 'POST', `/contacts/${contact.id}/transfer`, { userId: owner.user.id }, bruno.token);
  bot.receive(helena, { text: 'Vocês mandam o boleto por aqui?' });
  await eventually(async () => {
    const query = encodeURIComponent(JSON.stringify({ where: { contactId: contact.id } }));
    const list = await callApi(base, 'GET', `/messages?query=${query}`, undefined, owner.token);
    return list.body.data.some((m: { text: string }) => m.text === 'Vocês mandam o boleto por aqui?');
  });

  for (const width of [1280, 390]) {
    for (const dark of [false, true]) {
      const { page, context } = await newPage(world.browser, { width, height: width > 500 ? 800 : 844, dark });
      await openAs(page, world, owner, `/inbox/${contact.id}`);
      await page.getByTestId('message').filter({ hasText: 'Vocês mandam o boleto por aqui?' }).waitFor({ timeout: 20_000 });
      await page.getByLabel('Mensagem', { exact: true }).pressSequentially('/bo');
      await page.getByRole('listbox', { name: 'Respostas rápidas' }).waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(out, `team-thread-${width}-${dark ? 'dark' : 'light'}.png`) });
      // The composer in note mode, for the same view without the picker.
      await page.keyboard.press('Escape');
      await page.getByLabel('Mensagem', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Nota interna', exact: true }).click();
      await page.getByLabel('Texto da nota interna').fill('Confirmar o sabor com a cozinha');
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(out, `team-thread-note-mode-${width}-${dark ? 'dark' : 'light'}.png`) });
      await context.close();
    }
  }
} finally {
  await world.stop();
}
