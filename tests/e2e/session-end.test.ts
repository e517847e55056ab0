/**
 * A signed-in tab whose session ends elsewhere (an admin archives the user) is signed out without
 * anyone touching it: the server closes its realtime socket, the app checks its session once, and
 * the 401 takes it to the login screen.
 */
import { describe, expect, it } from 'vitest';
import { callApi, newPage } from './browser.ts';
import { fileWorld, newTeam, openAs, type World } from './world.ts';

let world: World;

fileWorld((started) => {
  world = started;
});

describe('a session ended elsewhere', () => {
  it('signs the idle tab out: archived by an admin, it lands on /login', async () => {
    const team = await newTeam(world, 'Loja do Fim');
    const member = await team.addUser('Membro Sai', false);
    const { page, context } = await newPage(world.browser);
    await openAs(page, world, member, '/inbox');
    await page.locator('html[data-realtime="open"]').waitFor({ state: 'attached', timeout: 20_000 });

    const archived = await callApi(world.base, 'POST', `/users/${member.user.id}/archive`, { archive: true }, team.owner.token);
    expect(archived.status).toBe(200);
    await page.waitForURL(/\/login$/, { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Entrar na sua conta' }).waitFor();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('conversa-auth') ?? '{}').accessToken ?? null)).toBeNull();
    await context.close();
  }, 90_000);
});
