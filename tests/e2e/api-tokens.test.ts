/**
 * 'Tokens de API' in a real browser against the local runtime (docs/product.md#tokens-de-api), at
 * 390 px in the dark theme, by keyboard where it counts: the empty state, 'Novo token' refusing no
 * permission, the secret shown once with its warning, the token then working on GET /contacts and
 * the card showing its last use and that call, and 'Revogar' with its confirmation ending it.
 * axe-core clean on the empty state, the form, the secret and the list with its calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { callApi, expectAccessible, newPage, root } from './browser.ts';
import { newTeam, openAs, startWorld, type World } from './world.ts';

/** Screenshots to look at (not compared): the secret shown once and the list with its calls. */
const shots = `${root}/.tmp/api-tokens-shots`;

let world: World;
beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  world = await startWorld();
});
afterAll(async () => {
  await world?.stop();
});

describe("'Tokens de API'", () => {
  it('creates a token shown once, lists its use and calls, and revokes it', async () => {
    const { owner } = await newTeam(world, 'Loja do Bairro', 'Rita Alves');
    const { page, context, errors } = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(page, world, owner, '/my-account');
    await page.getByRole('link', { name: 'Gerenciar tokens' }).click();
    await page.getByRole('heading', { name: 'Nenhum token ainda' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await expectAccessible(page, '/api-tokens (empty, dark, 390 px)');

    await page.getByRole('button', { name: 'Novo token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo token de API' });
    await dialog.getByLabel('Nome').fill('n8n');
    await dialog.getByRole('button', { name: 'Criar token' }).click();
    await dialog.getByText('Escolha pelo menos uma permissão').waitFor();
    await dialog.getByLabel('Ler contatos').focus();
    await page.keyboard.press('Space');
    await dialog.getByLabel('Validade').selectOption('90');
    await expectAccessible(page, '/api-tokens (create form)');
    await dialog.getByRole('button', { name: 'Criar token' }).click();

    const shown = page.getByRole('dialog', { name: 'Token criado' });
    await shown.getByText('Copie o token agora').waitFor();
    const secret = await shown.getByLabel('Token n8n').inputValue();
    expect(secret).toMatch(/^cvk_/);
    await expectAccessible(page, '/api-tokens (secret shown once)');
    await page.screenshot({ path: `${shots}/secret-dark-390.png` });
    await shown.getByRole('button', { name: 'Concluir' }).click();
    await shown.waitFor({ state: 'detached' });

    const card = page.getByTestId('api-token-row').filter({ hasText: 'n8n' });
    await card.getByText('Nunca usado').waitFor();
    await card.getByText(`cvk_…${secret.slice(-4)}`).waitFor();
    expect(await page.content()).not.toContain(secret);

    expect((await callApi(world.base, 'GET', '/contacts', undefined, secret)).status).toBe(200);
    await page.reload();
    await card.getByText('Nunca usado').waitFor({ state: 'detached' });
    await card.getByRole('button', { name: 'Últimas chamadas' }).click();
    await card.getByRole('cell', { name: 'GET /contacts' }).waitFor();
    await expectAccessible(page, '/api-tokens (list with calls)');
    await page.screenshot({ path: `${shots}/calls-dark-390.png`, fullPage: true });

    await card.getByRole('button', { name: 'Revogar o token n8n' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Revogar token?' });
    await confirm.getByRole('button', { name: 'Revogar' }).click();
    await card.getByText('Revogado', { exact: true }).waitFor();
    expect((await callApi(world.base, 'GET', '/contacts', undefined, secret)).status).toBe(401);

    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
    await context.close();
  });
});
