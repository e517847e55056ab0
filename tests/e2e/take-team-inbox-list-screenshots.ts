/**
 * Screenshots of the team inbox list (issue 14: tabs with counts, status, tag and department
 * filters, rows with who handles them), light and dark, 1280 and 390 px wide, into
 * docs/screenshots/team-inbox-list-*.png. Run: `npx tsx tests/e2e/take-team-inbox-list-screenshots.ts [name-filter]`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { newPage, root } from './browser.ts';
import { seedTeamInbox } from './team-inbox-seed.ts';
import { openAs, startWorld, type Member } from './world.ts';

const out = join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });
const only = process.argv[2];

const world = await startWorld();

/** One view in the four variants: opens `path` as `who`, waits for `ready`, then `then`. */
async function shoot(name: string, who: Member, path: string, ready: (page: Page) => Promise<unknown>, then?: (page: Page) => Promise<unknown>) {
  if (only && !name.includes(only)) return;
  for (const width of [1280, 390]) {
    for (const dark of [false, true]) {
      const { page, context } = await newPage(world.browser, { width, height: width > 500 ? 800 : 844, dark });
      await openAs(page, world, who, path);
      await ready(page);
      if (then) await then(page);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(out, `${name}-${width}-${dark ? 'dark' : 'light'}.png`) });
      await context.close();
    }
  }
}

try {
  const team = await seedTeamInbox(world);
  const counted = (p: Page) => p.getByRole('tab', { name: /^Todos, \d+ conversas?$/ }).waitFor();
  const rows = (p: Page) => counted(p).then(() => p.getByTestId('inbox-contact').first().waitFor());
  // A phone shows the list itself; a wide screen opens the first conversation beside it.
  await shoot('team-inbox-list', team.owner, '/inbox', rows);
  await shoot('team-inbox-list-unassigned', team.owner, '/inbox?tab=unassigned', rows);
  await shoot('team-inbox-list-filters', team.owner, `/inbox?tag=${team.tags.VIP}`, rows, async (p) => {
    await p
      .getByRole('region', { name: 'Contatos' })
      .getByRole('button', { name: /^Filtros/ })
      .click();
    await p.getByLabel('Departamento', { exact: true }).waitFor();
  });
  await shoot('team-inbox-list-member-empty', team.marina, '/inbox?tab=mine&status=pending', (p) =>
    p.getByText('Nenhuma conversa atribuída a você.').waitFor(),
  );
} finally {
  await world.stop();
}
