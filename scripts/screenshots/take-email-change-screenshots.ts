/**
 * Screenshots of an e-mail change waiting for its code (1280 and 390 px, light and dark): the users
 * list with the 'E-mail pendente' badge, the edit dialog with its hint, the view dialog, and
 * /verify-email opened by the signed-in user. `npx tsx scripts/screenshots/take-email-change-screenshots.ts [name part]`.
 */
import { callApi, uniqueEmail } from '../../tests/e2e/browser.ts';
import { screenshotVariants } from './screenshot-variants.ts';
import { newTeam, startWorld } from '../../tests/e2e/world.ts';

const only = process.argv[2];

const world = await startWorld();
const shoot = screenshotVariants(world, only);

try {
  const team = await newTeam(world, 'Doceria da Carla', 'Carla Souza');
  const { owner } = team;
  await team.addUser('Bruno Lima', true);
  const marina = await team.addUser('Marina Costa', false);
  const { user } = marina;
  const changed = await callApi(
    world.base,
    'PUT',
    `/users/${user.id}`,
    { name: user.name, email: uniqueEmail('marina.costa.nova'), isAdmin: false },
    owner.token,
  );
  if (!changed.body.pendingEmail) throw new Error(`no pending e-mail: ${JSON.stringify(changed.body)}`);

  await shoot('users-pending-email', owner, '/users', (p) => p.getByText('E-mail pendente').waitFor());
  await shoot('user-edit-pending-email', owner, `/users/${user.id}/edit`, (p) => p.getByText(/^Aguardando confirmação de /).waitFor());
  await shoot('user-show-pending-email', owner, `/users/${user.id}/show`, (p) =>
    p.getByRole('dialog', { name: 'Visualização de usuário' }).getByText('E-mail pendente').waitFor(),
  );
  await shoot('verify-email-signed-in', marina, `/verify-email?userId=${encodeURIComponent(user.id)}`, (p) =>
    p.getByRole('heading', { name: 'Verificar e-mail' }).waitFor(),
  );
} finally {
  await world.stop();
}
