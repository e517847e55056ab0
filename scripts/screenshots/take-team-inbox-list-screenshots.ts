/**
 * Screenshots of the team inbox list (docs/product.md#team-inbox: tabs with counts, status, tag and department
 * filters, rows with who handles them), light and dark, 1280 and 390 px wide, into
 * docs/screenshots/team-inbox-list-*.png. Run: `npx tsx scripts/screenshots/take-team-inbox-list-screenshots.ts [name-filter]`.
 */
import type { Page } from 'playwright-core';
import { seedTeamInbox } from '../../tests/e2e/team-inbox-seed.ts';
import { screenshotVariants } from './screenshot-variants.ts';
import { startWorld } from '../../tests/e2e/world.ts';

const only = process.argv[2];

const world = await startWorld();

const shoot = screenshotVariants(world, only);

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
