import { callApi } from '../../tests/e2e/browser.ts';
import { screenshotVariants } from './screenshot-variants.ts';
import { newTeam, startWorld } from '../../tests/e2e/world.ts';

const only = process.argv[2];

const world = await startWorld();
const base = world.base;

const shoot = screenshotVariants(world, only);

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
