/**
 * The team inbox list (docs/product.md#team-inbox) in a real browser against the local runtime: the tabs 'Meus',
 * 'Não atribuídos' and 'Todos' with their counts, keyboard switching, the status, tag and
 * department filters, the filters kept in the address, and counts that follow another agent's take
 * live. axe-core clean throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { callApi, expectAccessible, newPage } from './browser.ts';
import { contrastRatio } from './contrast.ts';
import { seedTeamInbox, type TeamInbox } from './team-inbox-seed.ts';
import { openAs, startWorld, type World } from './world.ts';

let world: World;
let team: TeamInbox;
beforeAll(async () => {
  world = await startWorld();
  team = await seedTeamInbox(world);
});
afterAll(async () => {
  await world?.stop();
});

/** The names on the list's rows, sorted (every row here has no message, so they tie on time). */
const rowNames = (page: Page) => page.getByTestId('inbox-contact-name').evaluateAll((names) => names.map((n) => n.textContent ?? '').sort());
/** expect.poll with room for a loaded machine (its default is one second). */
const poll = <T>(check: () => Promise<T> | T) => expect.poll(check, { timeout: 15_000 });
const tab = (page: Page, name: RegExp) => page.getByRole('tab', { name });
/** The list column (the conversation pane has controls of its own). */
const list = (page: Page) => page.getByRole('region', { name: 'Contatos' });

/**
 * How the selected tab stands apart, measured on the page (WCAG 2 contrast ratios): its edge (its
 * border, else its fill) against the track (non-text, 3:1 wanted), and every tab's name against its
 * own background (4.5:1).
 */
async function tabContrasts(page: Page) {
  const colours = await page.getByRole('tablist', { name: 'Listas de conversas' }).evaluate((tablist) => {
    const track = getComputedStyle(tablist).backgroundColor;
    const bg = (el: HTMLElement) => {
      const own = getComputedStyle(el).backgroundColor;
      return own === 'rgba(0, 0, 0, 0)' ? track : own;
    };
    return [...tablist.querySelectorAll<HTMLElement>('[role="tab"]')].map((tab) => {
      const style = getComputedStyle(tab);
      return {
        selected: tab.getAttribute('aria-selected') === 'true',
        // Its border if it has one, else its fill.
        edge: Number.parseFloat(style.borderTopWidth) > 0 ? style.borderTopColor : bg(tab),
        name: getComputedStyle(tab.querySelector('span')!).color,
        bg: bg(tab),
        track,
      };
    });
  });
  const selected = colours.find((c) => c.selected)!;
  return {
    selectedEdge: contrastRatio(selected.edge, selected.track),
    selectedName: contrastRatio(selected.name, selected.bg),
    otherNames: Math.min(...colours.filter((c) => !c.selected).map((c) => contrastRatio(c.name, c.bg))),
  };
}
/** The selected tab is told apart by more than a shade: a border of 3:1 or more, names of 4.5:1. */
async function expectDistinctSelectedTab(page: Page) {
  const measured = await tabContrasts(page);
  expect(measured.selectedEdge, JSON.stringify(measured)).toBeGreaterThanOrEqual(3);
  expect(measured.selectedName, JSON.stringify(measured)).toBeGreaterThanOrEqual(4.5);
  expect(measured.otherNames, JSON.stringify(measured)).toBeGreaterThanOrEqual(4.5);
}

describe('the team inbox list', () => {
  it('an admin counts, switches tabs by keyboard, filters by status, tag and department, and sees a take live', async () => {
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, team.owner, '/inbox');
    // Open conversations by default: Bia Rocha (resolved) is left out of every count.
    await tab(page, /^Todos, 4 conversas$/).waitFor();
    await tab(page, /^Meus, 1 conversa$/).waitFor();
    await tab(page, /^Não atribuídos, 2 conversas$/).waitFor();
    await poll(() => rowNames(page)).toEqual(['Dona Maria', 'Lucas Prado', 'Padaria Central', 'Seu João']);
    const joao = page.getByTestId('inbox-contact').filter({ hasText: 'Seu João' });
    expect(await joao.getByTestId('inbox-contact-assignment').textContent()).toMatch(/Não atribuída[\s\S]*VIP[\s\S]*Atacado[\s\S]*\+1/);
    expect(await page.getByTestId('inbox-contact').filter({ hasText: 'Lucas Prado' }).getByText('Marina Costa').count()).toBe(1);
    expect(await page.getByTestId('inbox-contact').filter({ hasText: 'Padaria Central' }).getByText('Financeiro').count()).toBe(1);
    await expectAccessible(page, '/inbox tabs (admin)');
    await expectDistinctSelectedTab(page);

    // Keyboard: one tab stop; Left from 'Todos' selects 'Não atribuídos', Home 'Meus'.
    await tab(page, /^Todos/).focus();
    await page.keyboard.press('ArrowLeft');
    await poll(() => page.url()).toMatch(/[?&]tab=unassigned/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('inbox-tab-unassigned');
    await poll(() => rowNames(page)).toEqual(['Padaria Central', 'Seu João']);
    await page.keyboard.press('Home');
    await poll(() => page.url()).toMatch(/[?&]tab=mine/);
    await poll(() => rowNames(page)).toEqual(['Dona Maria']);
    expect(await page.getByRole('tabpanel', { name: /^Meus/ }).count()).toBe(1);
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await poll(() => page.url()).toMatch(/[?&]tab=unassigned/);

    // The tab survives a reload; the status filter shows the resolved one.
    await page.reload();
    await poll(() => tab(page, /^Não atribuídos/).getAttribute('aria-selected')).toBe('true');
    const status = list(page).getByLabel('Status das conversas');
    // The counts arrive after the tab (their own request): wait for them.
    await poll(() => status.locator('option').allInnerTexts()).toEqual(['Abertas (2)', 'Pendentes (0)', 'Resolvidas (1)', 'Todas (3)']);
    await status.selectOption('resolved');
    await poll(() => rowNames(page)).toEqual(['Bia Rocha']);
    await tab(page, /^Não atribuídos, 1 conversa$/).waitFor();
    await status.selectOption('open');

    // Tag and department filters narrow the list and the counts alike.
    await list(page).getByRole('button', { name: 'Filtros' }).click();
    await list(page).getByLabel('Etiqueta', { exact: true }).selectOption({ label: 'VIP' });
    await poll(() => rowNames(page)).toEqual(['Seu João']);
    await tab(page, /^Todos, 2 conversas$/).waitFor();
    await tab(page, /^Meus, 1 conversa$/).waitFor();
    await list(page).getByLabel('Etiqueta', { exact: true }).selectOption({ label: 'Todas as etiquetas' });
    await list(page).getByLabel('Departamento', { exact: true }).selectOption({ label: 'Financeiro' });
    await poll(() => rowNames(page)).toEqual(['Padaria Central']);
    await tab(page, /^Todos, 1 conversa$/).waitFor();
    await tab(page, /^Meus, 0 conversas$/).waitFor();
    await expectAccessible(page, '/inbox filtered by department');
    await list(page).getByLabel('Departamento', { exact: true }).selectOption({ label: 'Todos os departamentos' });
    await poll(() => rowNames(page)).toEqual(['Padaria Central', 'Seu João']);
    await page.locator('html[data-realtime="open"]').waitFor({ state: 'attached', timeout: 20_000 });

    // Marina takes Seu João through the API: it leaves Carla's 'Não atribuídos', and the counts follow.
    const taken = await callApi(world.base, 'POST', `/contacts/${team.contacts['Seu João']}/take`, {}, team.marina.token);
    expect(taken.status).toBe(200);
    await tab(page, /^Não atribuídos, 1 conversa$/).waitFor();
    await poll(() => rowNames(page)).toEqual(['Padaria Central']);
    await tab(page, /^Todos, 4 conversas$/).waitFor();
    await tab(page, /^Todos/).click();
    await page.getByTestId('inbox-contact').filter({ hasText: 'Seu João' }).getByText('Marina Costa').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a member sees their own tab and queue, on a phone in the dark, with a tab empty state', async () => {
    const { page, context, errors } = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(page, world, team.marina, '/inbox?tab=mine');
    await tab(page, /^Meus, 2 conversas$/).waitFor();
    await poll(() => rowNames(page)).toEqual(['Lucas Prado', 'Seu João']);
    // No row spills out of the phone's width.
    const widest = await page.getByTestId('inbox-contact').evaluateAll((rows) => Math.max(...rows.map((r) => r.scrollWidth)));
    expect(widest).toBeLessThanOrEqual(390);
    await expectAccessible(page, '/inbox (member, 390 dark)');
    await expectDistinctSelectedTab(page);
    // A conversation opened from a filtered list goes back, on the header's arrow, to the same list.
    await list(page).getByLabel('Buscar contatos').fill('Lucas');
    await poll(() => rowNames(page)).toEqual(['Lucas Prado']);
    await poll(() => new URL(page.url()).search).toBe('?tab=mine&q=Lucas');
    await page.getByTestId('inbox-contact').filter({ hasText: 'Lucas Prado' }).click();
    await page.waitForURL(/\/inbox\/[^/?]+\?tab=mine&q=Lucas$/);
    await page.getByRole('link', { name: 'Voltar para as conversas' }).click();
    await page.waitForURL(/\/inbox\?tab=mine&q=Lucas$/);
    await poll(() => tab(page, /^Meus/).getAttribute('aria-selected')).toBe('true');
    expect(await list(page).getByLabel('Buscar contatos').inputValue()).toBe('Lucas');
    await poll(() => rowNames(page)).toEqual(['Lucas Prado']);
    await list(page).getByLabel('Buscar contatos').fill('');
    await poll(() => rowNames(page)).toEqual(['Lucas Prado', 'Seu João']);
    await list(page).getByLabel('Status das conversas').selectOption('pending');
    await page.getByText('Nenhuma conversa atribuída a você.').waitFor();
    await page.getByText('Nenhuma conversa pendente nesta lista.').waitFor();
    await expectAccessible(page, '/inbox empty tab (member, 390 dark)');
    expect(errors).toEqual([]);
    await context.close();
  });
});
