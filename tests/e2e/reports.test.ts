/**
 * 'Relatórios' in the browser (docs/product.md#reports): a team's conversation events written to
 * the table as the lifecycle writes them reach the runtime's `report-rollups` stream consumer; the
 * owner reads the cards, the tables and the heat map, exports the agents' table as CSV and compares
 * with the previous period, sees the per-day and ratings charts; Marina, a member, reads 'Meus números' with her own figures only.
 * axe clean light at 1280 px and dark at 390 px, with nothing wider than the phone.
 */
import { readFile } from 'node:fs/promises';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { ConversationEventItem } from '#db/conversation-timers.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { callApi, expectAccessible, newPage, root } from './browser.ts';
import { doceria, eventually, fileWorld, openAs, type World } from './world.ts';

let world: World;
fileWorld((started) => {
  world = started;
});

const shots = `${root}/.tmp/reports-shots`;
const MINUTE = 60_000;

describe('reports', () => {
  it('shows the period’s figures to the owner, exports a table, and a member’s own to the member', { timeout: 90_000 }, async () => {
    const { owner, marina } = await doceria(world);
    const token = `${Date.now() % 1_000_000}:AAH-reports-e2e`;
    world.telegram.addBot(token, 'DoceriaDaCarla');
    const service = (await callApi(world.base, 'POST', '/services', { name: 'Bot da Doceria', type: 'telegram', token }, owner.token)).body;

    // Three conversations of the last hours: one answered by Carla, one by Marina, resolved and
    // rated 5, one still waiting; and one a week before.
    const now = Date.now();
    const events: Omit<ConversationEventItem, 'pk' | 'sk' | 'type' | 'accountId' | 'serviceId' | 'departmentId'>[] = [
      { contactId: 'c-bolo', protocol: 'P1', kind: 'started', at: iso(now - 180 * MINUTE), userId: null },
      { contactId: 'c-bolo', protocol: 'P1', kind: 'first_response', at: iso(now - 178 * MINUTE), userId: owner.user.id, waitMs: 2 * MINUTE },
      { contactId: 'c-doce', protocol: 'P2', kind: 'started', at: iso(now - 120 * MINUTE), userId: null },
      { contactId: 'c-doce', protocol: 'P2', kind: 'first_response', at: iso(now - 115 * MINUTE), userId: marina.user.id, waitMs: 5 * MINUTE },
      { contactId: 'c-doce', protocol: 'P2', kind: 'resolved', at: iso(now - 80 * MINUTE), userId: marina.user.id, handledMs: 40 * MINUTE, by: 'team' },
      { contactId: 'c-doce', protocol: 'P2', kind: 'rated', at: iso(now - 79 * MINUTE), userId: marina.user.id, score: 5 },
      { contactId: 'c-torta', protocol: 'P3', kind: 'started', at: iso(now - 30 * MINUTE), userId: null },
      // A week before: the previous period of 'Últimos 7 dias'.
      { contactId: 'c-pao', protocol: 'P0', kind: 'started', at: iso(now - 8 * 1440 * MINUTE), userId: null },
    ];
    for (const event of events) {
      await world.ports.table.doc.send(
        new PutCommand({
          TableName: world.ports.table.name,
          Item: {
            ...keys.conversationEvent(owner.accountId, event.at, event.contactId, event.kind),
            type: entityTypes.conversationEvent,
            accountId: owner.accountId,
            serviceId: service.id,
            departmentId: null,
            ...event,
          },
        }),
      );
    }
    const week = `/reports?from=${day(now - 6 * 1440 * MINUTE)}&to=${day(now)}`;
    await eventually(async () => (await callApi(world.base, 'GET', week, undefined, owner.token)).body.totals?.ratings.count === 1);

    const { page, context, errors } = await newPage(world.browser, { width: 1280, height: 900 });
    await openAs(page, world, owner, '/reports');
    await page.getByRole('heading', { name: 'Relatórios', level: 1 }).waitFor();
    await page.getByLabel('Período', { exact: true }).selectOption('7');
    await page.getByTestId('report-card-opened').getByText('3', { exact: true }).waitFor();
    expect(await page.getByTestId('report-card-resolved').textContent()).toContain('1');
    expect(await page.getByTestId('report-card-rating').textContent()).toContain('5,0');
    expect(await page.getByTestId('report-card-first-response').textContent()).toMatch(/mediana · p90/);
    const agents = page.getByTestId('report-table-agents');
    expect(await agents.getByRole('row', { name: /Marina Costa/ }).textContent()).toMatch(/Marina Costa01/);
    expect(await page.getByTestId('report-table-connections').textContent()).toContain('Bot da Doceria');
    expect(await page.getByRole('link', { name: 'Relatórios' }).getAttribute('aria-current')).toBe('page');
    // The charts draw the day's bars and the ratings (for the eye: their numbers are the tables').
    expect(await page.getByTestId('report-chart-days').locator('rect').count()).toBe(14);
    expect(await page.getByTestId('report-chart-ratings').getAttribute('aria-hidden')).toBe('true');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV: Números por atendente' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^relatorio-atendentes-\d{4}-\d{2}-\d{2}-a-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    expect(csv.split('\r\n')[0]).toBe(
      'Atendente;Abertas;Resolvidas;Aguardando;1ª resposta (mediana);1ª resposta (p90);Resolução (mediana);Resolução (p90);Espera (mediana);Espera (p90);Avaliação média;Avaliações',
    );
    expect(csv).toMatch(/\r\nMarina Costa;0;1;0;\d+;\d+;\d+;\d+;;;5;1\r\n/);

    await page.getByLabel('Comparar com o período anterior').check();
    await page.getByText(/, comparado a \d{2}\/\d{2}\/\d{4} a \d{2}\/\d{2}\/\d{4}$/).waitFor();
    await page.getByTestId('report-card-opened').getByText('+200% em relação ao período anterior').waitFor();
    await expectAccessible(page, '/reports, the owner, light');
    await page.screenshot({ path: `${shots}/reports.png`, fullPage: true });
    expect(errors).toEqual([]);
    await context.close();

    // Marina on a phone, dark: her own figures.
    const phone = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(phone.page, world, marina, '/reports');
    await phone.page.getByRole('heading', { name: 'Meus números', level: 1 }).waitFor();
    await phone.page.getByTestId('report-card-resolved').getByText('1', { exact: true }).waitFor();
    expect(await phone.page.getByTestId('report-card-opened').textContent()).toContain('0');
    expect(await phone.page.getByTestId('report-table-connections').count()).toBe(0);
    await expectAccessible(phone.page, '/reports, a member at 390 px, dark');
    await phone.page.screenshot({ path: `${shots}/reports-dark-390.png`, fullPage: true });
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});

function iso(at: number): string {
  return new Date(at).toISOString();
}

/** The São Paulo date of an instant (the team's zone: the default business hours'). */
function day(at: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(at);
}
