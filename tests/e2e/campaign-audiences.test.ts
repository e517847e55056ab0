/**
 * Campaign audiences in the browser (ADR-0225 and ADR-0226): a Telegram customer sends
 * 'Sair'; the contact's page shows 'Descadastrado de campanhas em dd/MM/yyyy' with the word. From
 * Contatos, the filter 'Só descadastrados' is saved as a segment; 'Segmentos' lists it with its
 * count, and editing its filter moves the count before saving. 'Exportar CSV' downloads the list;
 * 'Reativar campanhas' clears the opt-out. axe clean on the contact's page, the segments and the
 * editor, light, and the segments at 390 px dark.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { callApi, expectAccessible, newPage, root } from './browser.ts';
import { eventually, fileWorld, newTeam, openAs, type World } from './world.ts';

let world: World;
fileWorld((started) => {
  world = started;
});

const shots = `${root}/.tmp/campaign-audiences-shots`;

describe('opt-out and segments', () => {
  it('an opted-out customer shows on the contact page, a segment is saved from the filter, its count follows the edit, the list exports', async () => {
    const team = await newTeam(world, 'Pet Shop Amigo', 'Rita Alves');
    const { owner } = team;
    const token = `${Date.now() % 1_000_000}:AAH-audiences-e2e`;
    const bot = world.telegram.addBot(token, 'PetShop');
    const service = (await callApi(world.base, 'POST', '/services', { name: 'Bot do Pet Shop', type: 'telegram', token }, owner.token)).body;
    await callApi(world.base, 'POST', `/services/${service.id}/start`, {}, owner.token);
    await eventually(async () => bot.polling);
    for (const [name, id] of [
      ['Bruna Lopes', '7100001'],
      ['Caio Mendes', '7100002'],
    ]) {
      expect((await callApi(world.base, 'POST', '/contacts', { name, serviceId: service.id, idFromService: id }, owner.token)).status).toBe(201);
    }
    const person = { id: 7_300_000 + (Date.now() % 1000), first_name: 'Heloísa', last_name: 'Prado' };
    bot.receive(person, { text: 'Sair' });
    const heloisa = await eventually(async () => {
      const list = await callApi(world.base, 'GET', '/contacts', undefined, owner.token);
      return list.body.data?.find((c: { name: string; optedOutAt: string | null }) => c.name === 'Heloísa Prado' && c.optedOutAt);
    });

    const { page, context, errors } = await newPage(world.browser, { width: 1280, height: 900 });
    await openAs(page, world, owner, `/contacts/${heloisa.id}/edit`);
    const notice = page.getByText(/^Descadastrado de campanhas em \d{2}\/\d{2}\/\d{4}$/);
    await notice.waitFor();
    await page.getByText('(enviou “SAIR”)').waitFor();
    await expectAccessible(page, '/contacts/{id}/edit, opted out');
    await page.screenshot({ path: `${shots}/contact-opted-out.png` });
    await page.getByRole('button', { name: 'Cancelar' }).click();

    // The filter 'Só descadastrados', saved as a segment.
    await page.getByRole('button', { name: 'Mostrar filtros' }).click();
    await page.getByLabel('Campanhas', { exact: true }).selectOption('yes');
    await page.getByRole('button', { name: 'Aplicar filtros' }).click();
    await eventually(async () => (await page.getByTestId('contact-row').count()) === 1);
    await page.getByRole('button', { name: 'Salvar como segmento' }).click();
    await page.getByLabel('Nome do segmento').fill('Não enviar campanhas');
    await page.getByRole('button', { name: 'Salvar segmento' }).click();
    await page.getByText('Segmento salvo').waitFor();

    // 'Exportar CSV': the filtered list, for Excel.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^contatos-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^"Heloísa Prado";"";"";"Bot do Pet Shop";"Telegram";/);

    await page.getByRole('link', { name: 'Segmentos' }).click();
    const row = page.getByTestId('segment-row').filter({ hasText: 'Não enviar campanhas' });
    await row.waitFor();
    expect(await row.locator('td').nth(1).textContent()).toBe('1');
    await expectAccessible(page, '/contacts/segments');

    // Editing: the count follows the filter before anything is saved.
    await page.getByRole('button', { name: 'Editar Não enviar campanhas' }).click();
    const count = page.getByTestId('segment-count');
    await eventually(async () => (await count.textContent()) === '1 contato neste segmento agora');
    await page.getByLabel('Campanhas', { exact: true }).selectOption('no');
    await eventually(async () => (await count.textContent()) === '2 contatos neste segmento agora');
    await page.getByLabel('Nome do segmento').fill('Podem receber campanhas');
    await expectAccessible(page, 'segment editor');
    await page.screenshot({ path: `${shots}/segment-editor.png` });
    await page.getByRole('button', { name: 'Salvar segmento' }).click();
    await page.getByText('Segmento atualizado').waitFor();
    const edited = page.getByTestId('segment-row').filter({ hasText: 'Podem receber campanhas' });
    await edited.waitFor();
    expect(await edited.locator('td').nth(1).textContent()).toBe('2');

    // An admin clears the opt-out from the contact's page.
    await page.goto(`${world.base}/contacts/${heloisa.id}/edit`);
    await page.getByRole('button', { name: 'Reativar campanhas' }).click();
    await page.getByText('O contato voltará a receber campanhas').waitFor();
    await eventually(async () => (await notice.count()) === 0);
    expect((await callApi(world.base, 'GET', `/contacts/${heloisa.id}`, undefined, owner.token)).body.optedOutAt).toBeNull();
    expect(errors).toEqual([]);
    await context.close();

    // A member reads the segments on a phone, dark: no editing.
    const member = await team.addUser('Otávio Balcão', false);
    const phone = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(phone.page, world, member, '/contacts/segments');
    await phone.page.getByTestId('segment-row').filter({ hasText: 'Podem receber campanhas' }).waitFor();
    expect(await phone.page.getByRole('button', { name: /Editar|Novo segmento/ }).count()).toBe(0);
    await expectAccessible(phone.page, '/contacts/segments at 390 px, dark, member');
    await phone.page.screenshot({ path: `${shots}/segments-dark-390.png`, fullPage: true });
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
