/**
 * Screenshots of the team admin screens (issue 14: departments, tags, contacts' tags, quick
 * replies), empty and with data, light and dark, 1280 and 390 px wide, into docs/screenshots/.
 * Run: `npx tsx tests/e2e/take-team-admin-screenshots.ts [name-filter]`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { callApi, newPage, root } from './browser.ts';
import { newTeam, openAs, startWorld, type Member } from './world.ts';

const out = join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });
const only = process.argv[2];

const world = await startWorld();
const base = world.base;

/** One screen in the four variants: opens `path` as `who`, waits for `ready`, then `then` (a modal). */
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
  const empty = await newTeam(world, 'Loja Vazia', 'Paula Reis');
  const team = await newTeam(world, 'Doceria da Carla', 'Carla Souza');
  const { owner } = team;
  const bruno = await team.addUser('Bruno Lima', true);
  const marina = await team.addUser('Marina Costa', false);
  const tiago = await team.addUser('Tiago Nunes', false);

  // Departments.
  await shoot('departments-empty', empty.owner, '/departments', (p) => p.getByText('Nenhum registro encontrado').waitFor());
  for (const [name, userIds] of [
    ['Vendas', [bruno.user.id, marina.user.id, tiago.user.id]],
    ['Financeiro', [owner.user.id]],
    ['Encomendas especiais', []],
  ] as const) {
    await callApi(base, 'POST', '/departments', { name, userIds }, owner.token);
  }
  const list = (await callApi(base, 'GET', '/departments', undefined, owner.token)).body.data;
  const old = list.find((d: { name: string }) => d.name === 'Encomendas especiais');
  await callApi(base, 'POST', `/departments/${old.id}/archive`, { archive: true }, owner.token);
  await shoot('departments', owner, '/departments', (p) => p.getByText('Financeiro', { exact: true }).waitFor());
  await shoot('departments-member', marina, '/departments', (p) => p.getByText('Financeiro', { exact: true }).waitFor());
  await shoot(
    'departments-edit',
    owner,
    `/departments/${list.find((d: { name: string }) => d.name === 'Vendas').id}/edit`,
    (p) => p.getByRole('dialog', { name: 'Editar departamento' }).waitFor(),
    (p) => p.getByRole('checkbox', { name: /Marina Costa/ }).waitFor(),
  );

  // Tags.
  await shoot('tags-empty', empty.owner, '/tags', (p) => p.getByText('Nenhum registro encontrado').waitFor());
  for (const [name, color] of [
    ['VIP', '#db2777'],
    ['Atacado', '#2563eb'],
    ['Aniversário', '#fde047'],
    ['Cliente novo', '#047857'],
    ['Inadimplente', '#dc2626'],
  ] as const) {
    await callApi(base, 'POST', '/tags', { name, color }, owner.token);
  }
  const vip = (await callApi(base, 'GET', '/tags', undefined, owner.token)).body.data.find((t: { name: string }) => t.name === 'VIP');
  await shoot('tags', owner, '/tags', (p) => p.getByTestId('tag-row').first().waitFor());
  await shoot('tags-edit', owner, `/tags/${vip.id}/edit`, (p) => p.getByRole('dialog', { name: 'Editar etiqueta' }).getByLabel('Nome').waitFor());
  await shoot('tags-delete', owner, '/tags', (p) => p.getByRole('button', { name: 'Excluir VIP' }).click());

  // Contacts with their tags, and the picker.
  const zap = (await callApi(base, 'POST', '/services', { name: 'WhatsApp Vendas', type: 'whatsapp' }, owner.token)).body;
  const palette = (await callApi(base, 'GET', '/tags', undefined, owner.token)).body.data as { id: string; name: string }[];
  const byName = (n: string) => palette.find((t) => t.name === n)!.id;
  for (const [name, phone, tagNames] of [
    ['Joana Pereira', '5511987650001', ['VIP', 'Aniversário']],
    ['Mercado Central', '5511987650002', ['Atacado', 'Cliente novo', 'Inadimplente']],
    ['Rafael Gomes', '5511987650003', []],
  ] as const) {
    const made = (await callApi(base, 'POST', '/contacts', { name, serviceId: zap.id, data: { phoneNumber: phone, phoneCountry: 'BR' } }, owner.token)).body;
    await callApi(base, 'PUT', `/contacts/${made.id}/tags`, { tagIds: tagNames.map(byName) }, owner.token);
  }
  await shoot('contacts-tags', owner, '/contacts', (p) => p.getByText('1–3 de 3').waitFor());
  await shoot(
    'contacts-tag-picker',
    marina,
    '/contacts',
    (p) => p.getByText('1–3 de 3').waitFor(),
    (p) => p.getByRole('button', { name: 'Etiquetas de Joana Pereira' }).click(),
  );

  // Quick replies.
  await shoot('quick-replies-empty', empty.owner, '/quick-replies', (p) => p.getByText('Nenhum registro encontrado').waitFor());
  for (const [shortcut, text] of [
    ['boleto', 'Olá, {{primeiro_nome}}! Segue o boleto do seu pedido. Qualquer dúvida, é só chamar.'],
    ['horario', 'Funcionamos de segunda a sábado, das 9h às 18h.'],
    ['obrigado', 'Obrigada pela preferência, {{nome}}! Aqui é {{atendente}}, conte sempre com a gente.'],
  ] as const) {
    await callApi(base, 'POST', '/quick-replies', { shortcut, text }, owner.token);
  }
  await shoot('quick-replies', owner, '/quick-replies', (p) => p.getByTestId('quick-reply-row').first().waitFor());
  await shoot('quick-replies-create', owner, '/quick-replies/create', (p) =>
    p.getByRole('dialog', { name: 'Criar resposta rápida' }).getByLabel('Atalho').waitFor(),
  );
} finally {
  await world.stop();
}
