/**
 * LGPD in the browser: an admin exports a contact's data from the contacts list ('Exportar dados')
 * and the browser saves a JSON file with the profile and the whole conversation; a member has no
 * such action. An admin exports the whole account from 'Minha Conta' and gets a link to the archive.
 * The screens stay free of serious accessibility problems.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { callApi, expectAccessible, newPage } from './browser.ts';
import { eventually, fileWorld, newTeam, openAs, type World } from './world.ts';

let world: World;
fileWorld((started) => {
  world = started;
});

describe("exporting a contact's data", () => {
  it("an admin saves a contact's profile and conversation as a JSON file from the contacts list; a member cannot", async () => {
    const team = await newTeam(world, 'Floricultura Ipê');
    const member = await team.addUser('Paula Atendente', false);
    const token = `${Date.now() % 1_000_000}:AAH-lgpd-e2e-token`;
    const bot = world.telegram.addBot(token, 'Floricultura');
    const service = (await callApi(world.base, 'POST', '/services', { name: 'Bot da Floricultura', type: 'telegram', token }, team.owner.token)).body;
    await callApi(world.base, 'POST', `/services/${service.id}/start`, {}, team.owner.token);
    await eventually(async () => bot.polling);
    const person = { id: 4_200_000 + (Date.now() % 1000), first_name: 'Helena', last_name: 'Prado' };
    bot.receive(person, { text: 'Bom dia! Vocês entregam orquídeas?' });
    bot.receive(person, { text: 'É para sábado.' });
    await eventually(async () => {
      const list = await callApi(world.base, 'GET', '/contacts', undefined, team.owner.token);
      return list.body.data?.some(
        (c: { name: string; lastMessage?: { text: string } }) => c.name === 'Helena Prado' && c.lastMessage?.text === 'É para sábado.',
      );
    });

    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, team.owner, '/contacts');
    const action = page.getByRole('button', { name: 'Exportar dados de Helena Prado' });
    await action.waitFor();
    await expectAccessible(page, '/contacts (admin)');
    const [download] = await Promise.all([page.waitForEvent('download'), action.click()]);
    expect(download.suggestedFilename()).toMatch(/^contato-helena-prado-\d{4}-\d{2}-\d{2}\.json$/);
    const saved = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(saved.contact).toMatchObject({ name: 'Helena Prado', idFromService: String(person.id) });
    expect(saved.messages.map((m: { text: string }) => m.text)).toEqual(['Bom dia! Vocês entregam orquídeas?', 'É para sábado.']);
    await page.getByText('Dados do contato exportados').waitFor();
    expect(errors).toEqual([]);
    await context.close();

    const asMember = await newPage(world.browser);
    await openAs(asMember.page, world, member, '/contacts');
    await asMember.page.getByRole('link', { name: 'Editar Helena Prado' }).waitFor();
    expect(await asMember.page.getByRole('button', { name: /Exportar dados/ }).count()).toBe(0);
    await asMember.context.close();
  });
});

describe("exporting the account's data", () => {
  it("an admin exports the whole account from 'Minha Conta' and gets a link to the archive", async () => {
    const team = await newTeam(world, 'Papelaria Aurora');
    const member = await team.addUser('Caio Balconista', false);
    const { page, context, errors } = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(page, world, team.owner, '/my-account');
    const start = page.getByRole('button', { name: 'Exportar dados da conta' });
    await start.waitFor();
    await expectAccessible(page, '/my-account (admin, dark, 390)');
    await start.click();
    const link = page.getByRole('link', { name: 'Baixar arquivo' });
    await link.waitFor({ timeout: 30_000 });
    await page.getByText(/Arquivo pronto: \d+ registros/).waitFor();
    await expectAccessible(page, '/my-account (export ready)');
    const archive = await (await fetch((await link.getAttribute('href'))!)).text();
    const kinds = archive
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).kind);
    expect(kinds).toEqual(expect.arrayContaining(['Account', 'User']));
    expect(errors).toEqual([]);
    await context.close();

    const asMember = await newPage(world.browser);
    await openAs(asMember.page, world, member, '/my-account');
    await asMember.page.getByRole('heading', { name: 'Minha Conta', level: 1 }).waitFor();
    await asMember.page.getByText(/Ativo desde/).waitFor();
    expect(await asMember.page.getByRole('button', { name: 'Exportar dados da conta' }).count()).toBe(0);
    await asMember.context.close();
  });
});
