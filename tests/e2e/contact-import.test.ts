/**
 * 'Importar contatos' in a real browser against the local runtime (ADR-0223): from
 * 'Contatos', a CSV saved by Excel in Brazil (Windows-1252, ';') is uploaded, its columns guessed
 * from the header, checked (the rows left out listed with their line and reason) and imported with a
 * tag, the contacts then listed. 'Importações recentes' lists both imports, downloads the first's
 * rows left out again and reopens the checked one by keyboard after leaving the screen (ADR-0236). axe-core clean on the checked screen, light, and at 390 px dark;
 * screenshots kept in .tmp/contact-import-shots.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectAccessible, newPage, root } from './browser.ts';
import { newTeam, openAs, startWorld, type World } from './world.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.stop();
});

const shots = `${root}/.tmp/contact-import-shots`;
const file = {
  name: 'clientes.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(
    'Nome;Celular;E-mail;Cidade\r\nJoão Batista;(11) 98765-4321;joao@exemplo.com.br;São Paulo\r\n' +
      'Conceição Lima;21 8765-4321;;Niterói\r\nSem Número;123;;Santos\r\n"Ana; a do caixa";11 98765-4321;;São Paulo\r\nBeatriz Ramos;+55 31 99888-7766;;Belo Horizonte\r\n',
    'latin1',
  ),
};

describe('importing contacts', () => {
  it("'Importar contatos' maps, checks and imports a CSV from Excel", async () => {
    const { owner } = await newTeam(world, 'Ótica Visão', 'Paula Reis');
    const service = await callApi(world.base, 'POST', '/services', { name: 'WhatsApp da Ótica', type: 'whatsapp' }, owner.token);
    expect(service.status).toBe(201);
    const tag = await callApi(world.base, 'POST', '/tags', { name: 'Planilha', color: '#0EA5E9' }, owner.token);

    const { page, context, errors } = await newPage(world.browser, { width: 1280, height: 900 });
    await openAs(page, world, owner, '/contacts');
    await page.getByRole('link', { name: 'Importar contatos' }).click();
    await page.getByRole('heading', { name: 'Importar contatos' }).waitFor();
    await page.getByLabel('Arquivo CSV').setInputFiles(file);
    const nameColumn = page.getByLabel('Coluna "Nome"');
    await nameColumn.waitFor({ timeout: 20_000 });
    expect(await nameColumn.inputValue()).toBe('name');
    expect(await page.getByLabel('Coluna "Celular"').inputValue()).toBe('phone');
    expect(await page.getByLabel('Coluna "E-mail"').inputValue()).toBe('email');
    expect(await page.getByLabel('Coluna "Cidade"').inputValue()).toBe('ignore');
    await page.getByRole('region', { name: 'Prévia do arquivo' }).getByText('São Paulo').first().waitFor();
    expect(await page.getByLabel('Conexão dos contatos').inputValue()).toBe(service.body.id);
    await page.getByLabel('Planilha').check();

    await page.getByRole('button', { name: 'Verificar arquivo' }).click();
    const importButton = page.getByRole('button', { name: 'Importar 3 contatos' });
    await importButton.waitFor({ timeout: 20_000 });
    const problems = page.getByTestId('import-problem');
    expect(await problems.allInnerTexts()).toEqual(['4\tTelefone inválido', '5\tTelefone repetido na linha 2']);
    await expectAccessible(page, '/contacts/import, checked (light)');
    await page.screenshot({ path: `${shots}/contact-import-checked-light.png`, fullPage: true });

    await importButton.click();
    await page.getByRole('link', { name: 'Ver contatos' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('import-accepted').textContent()).toBe('3');
    await page.getByRole('link', { name: 'Ver contatos' }).click();
    await page.getByTestId('contact-row').filter({ hasText: 'Conceição Lima' }).waitFor();
    expect(await page.getByTestId('contact-row').filter({ hasText: 'Conceição Lima' }).textContent()).toContain('+5521987654321');
    const listed = await callApi(world.base, 'GET', '/contacts', undefined, owner.token);
    expect(listed.body.data.map((c: { tags: string[] }) => c.tags)).toEqual([[tag.body.id], [tag.body.id], [tag.body.id]]);
    expect(errors).toEqual([]);
    await context.close();

    // Phone width, dark: an Excel workbook (written by openpyxl) goes up as its first sheet's CSV;
    // the rows keep the sheet's numbers (row 5 is empty, Caio is on row 6). Still clean for axe.
    const phone = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(phone.page, world, owner, '/contacts/import');
    await phone.page.getByLabel('Arquivo CSV ou Excel').setInputFiles(join(process.cwd(), 'tests/fixtures/contact-import/clientes-openpyxl.xlsx'));
    await phone.page.getByLabel('Coluna "Telefone"').waitFor({ timeout: 20_000 });
    expect(await phone.page.getByLabel('Coluna "Nome"').inputValue()).toBe('name');
    expect(await phone.page.getByLabel('Coluna "Telefone"').inputValue()).toBe('phone');
    await phone.page.getByRole('region', { name: 'Prévia do arquivo' }).getByText('5511987654321').waitFor();
    await phone.page.getByRole('button', { name: 'Verificar arquivo' }).click();
    await phone.page.getByTestId('import-skipped').waitFor({ timeout: 20_000 });
    expect(await phone.page.getByTestId('import-problem').allInnerTexts()).toEqual(
      expect.arrayContaining(['4\tTelefone repetido na linha 2', '6\tSem telefone']),
    );
    await expectAccessible(phone.page, '/contacts/import at 390 px, dark, checked');
    await phone.page.screenshot({ path: `${shots}/contact-import-dark-390.png`, fullPage: true });

    // 'Importações recentes': the workbook checked here (this screen's), then the CSV imported above,
    // whose rows left out download again.
    const history = phone.page.getByRole('region', { name: 'Importações recentes' });
    const historyRows = history.getByTestId('import-history-row');
    await historyRows.nth(1).getByText('Importado', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await historyRows.count()).toBe(2);
    expect(await historyRows.nth(0).textContent()).toContain('clientes-openpyxl.csv');
    expect(await historyRows.nth(0).textContent()).toContain('Aberta nesta tela');
    expect(await historyRows.nth(1).textContent()).toMatch(
      /^clientes\.csvPaula Reis · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}Importado3 importados · 0 já existiam · 2 com problema/,
    );
    const download = history.getByRole('link', { name: 'Baixar linhas não importadas (CSV) de clientes.csv' });
    const rejected = await (await fetch((await download.getAttribute('href'))!)).text();
    expect(rejected).toContain('4;Telefone inválido;Sem Número');

    // Leaving the screen loses nothing: back on it, 'Continuar' (by keyboard) reopens the checked
    // workbook with its columns, and its address keeps it.
    await openAs(phone.page, world, owner, '/contacts');
    await openAs(phone.page, world, owner, '/contacts/import');
    const reopen = history.getByRole('link', { name: 'Continuar clientes-openpyxl.csv' });
    await reopen.focus();
    await phone.page.keyboard.press('Enter');
    await phone.page.getByRole('button', { name: /^Importar \d+ contatos?$/ }).waitFor({ timeout: 20_000 });
    expect(new URL(phone.page.url()).searchParams.get('id')).toBeTruthy();
    expect(await phone.page.getByLabel('Coluna "Telefone"').inputValue()).toBe('phone');
    expect(await historyRows.nth(0).textContent()).toContain('Aberta nesta tela');
    expect(await phone.page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await expectAccessible(phone.page, '/contacts/import?id= at 390 px, dark, reopened');
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
