/**
 * Forwarding in a real browser against the local runtime (docs/product.md#team-inbox): 'Encaminhar'
 * on a customer's message opens 'Encaminhar mensagem', a search by name finds the other customer,
 * and the message reaches their Telegram chat as a new message shown 'Encaminhada'. axe-core clean
 * with the dialog open, light and at 390 px dark; screenshots kept in .tmp/forward-shots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectAccessible, newPage, root } from './browser.ts';
import { eventually, newTeam, openAs, startWorld, type World } from './world.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.stop();
});

const shots = `${root}/.tmp/forward-shots`;

describe('forwarding a message', () => {
  it("'Encaminhar' picks a contact by name and the message reaches them marked 'Encaminhada'", async () => {
    const { owner } = await newTeam(world, 'Papelaria Lápis', 'Rita Moura');
    const botToken = `${920_000 + (Date.now() % 70_000)}:AAH-papelaria`;
    const bot = world.telegram.addBot(botToken, 'Papelaria');
    const service = (await callApi(world.base, 'POST', '/services', { name: 'Bot da Papelaria', type: 'telegram', token: botToken }, owner.token)).body;
    await callApi(world.base, 'POST', `/services/${service.id}/start`, {}, owner.token);
    await eventually(async () => bot.polling);
    const helena = { id: 556_021, first_name: 'Helena', last_name: 'Prado' };
    const marcos = { id: 556_022, first_name: 'Marcos', last_name: 'Teixeira' };
    bot.receive(helena, { text: 'Vocês têm caderno universitário de 10 matérias?' });
    bot.receive(marcos, { text: 'Bom dia!' });
    const contacts = await eventually(async () => {
      const list = (await callApi(world.base, 'GET', '/contacts', undefined, owner.token)).body.data as { id: string; name: string }[];
      const h = list.find((c) => c.name === 'Helena Prado');
      const m = list.find((c) => c.name === 'Marcos Teixeira');
      return h && m ? { h, m } : null;
    });

    const { page, context, errors } = await newPage(world.browser, { width: 1280, height: 800 });
    await openAs(page, world, owner, `/inbox/${contacts.h.id}`);
    const question = page.getByTestId('message').filter({ hasText: 'caderno universitário' });
    await question.waitFor({ timeout: 20_000 });
    await question.hover();
    await page.getByRole('button', { name: 'Encaminhar' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Encaminhar mensagem' });
    await dialog.waitFor();
    await dialog.getByLabel('Buscar contato').fill('Marc');
    await dialog.getByLabel(/Marcos Teixeira/).check();
    await dialog.getByRole('list', { name: 'Contatos escolhidos' }).getByText('Marcos Teixeira').waitFor();
    await expectAccessible(page, '/inbox/{id} with the forward dialog open (light)');
    await page.screenshot({ path: `${shots}/forward-dialog-light.png` });
    await dialog.getByRole('button', { name: 'Encaminhar (1)' }).click();
    await dialog.waitFor({ state: 'detached' });

    const sent = await eventually(async () => bot.sent.find((s) => s.answer.ok && String(s.params.chat_id) === String(marcos.id)));
    expect(sent.params.text).toBe('Vocês têm caderno universitário de 10 matérias?');
    await openAs(page, world, owner, `/inbox/${contacts.m.id}`);
    const copy = page.getByTestId('message').filter({ hasText: 'caderno universitário' });
    await copy.getByTestId('forwarded').waitFor({ timeout: 20_000 });
    await copy.locator('[data-ack="1"]').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: `${shots}/forwarded-bubble-light.png` });
    expect(errors).toEqual([]);
    await context.close();

    // Phone width, dark: the dialog over the thread, still clean for axe.
    const phone = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(phone.page, world, owner, `/inbox/${contacts.h.id}`);
    await phone.page.getByTestId('message').filter({ hasText: 'caderno universitário' }).waitFor({ timeout: 20_000 });
    await phone.page.getByRole('button', { name: 'Encaminhar' }).first().click();
    const small = phone.page.getByRole('dialog', { name: 'Encaminhar mensagem' });
    await small.getByLabel(/Marcos Teixeira/).check();
    await expectAccessible(phone.page, '/inbox/{id} at 390 px, dark, forward dialog open');
    await phone.page.screenshot({ path: `${shots}/forward-dialog-dark-390.png` });
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
