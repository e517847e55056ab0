/**
 * The team admin screens (docs/product.md#team-inbox) in a real browser against the local runtime: departments
 * (with the 'Membros veem todas as conversas' setting), tags, tagging contacts, quick replies and
 * the business hours, the automations and a connection's menu.
 * Admins act; members see the lists without the actions. axe-core clean throughout.
 */
import { describe, expect, it } from 'vitest';
import { callApi, closeToasts, expectAccessible, newPage } from './browser.ts';
import { doceria, eventually, fileWorld, openAs, type Member, type World } from './world.ts';

let world: World;
let owner: Member;
let marina: Member;
fileWorld(async (started) => {
  world = started;
  ({ owner, marina } = await doceria(world));
});

describe('team admin screens', () => {
  it('an admin creates a department with its users, archives it and lets members see every conversation; a member only reads', async () => {
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, owner, '/departments');
    await page.getByRole('heading', { name: 'Departamentos', level: 1 }).waitFor();
    await page.getByText('Nenhum registro encontrado').waitFor();
    await expectAccessible(page, '/departments (empty)');

    await page.getByRole('link', { name: 'Novo departamento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Criar departamento' });
    await dialog.getByRole('button', { name: 'Criar' }).click();
    await dialog.getByText('Campo obrigatório').waitFor();
    await dialog.getByLabel('Nome').fill('Financeiro');
    await dialog.getByRole('checkbox', { name: /Marina Costa/ }).check();
    await expectAccessible(page, '/departments/create');
    await dialog.getByRole('button', { name: 'Criar' }).click();
    await page.waitForURL(/\/departments$/);
    const row = page.getByTestId('department-row').filter({ hasText: 'Financeiro' });
    await row.getByText('Marina Costa').waitFor();
    const stored = (await callApi(world.base, 'GET', '/departments', undefined, owner.token)).body.data;
    expect(stored.map((d: { name: string; userIds: string[] }) => [d.name, d.userIds])).toEqual([['Financeiro', [marina.user.id]]]);

    // Rename, then archive and back.
    await page.getByRole('link', { name: 'Editar Financeiro' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar departamento' });
    expect(await edit.getByRole('checkbox', { name: /Marina Costa/ }).isChecked()).toBe(true);
    await edit.getByLabel('Nome').fill('Cobrança');
    await edit.getByRole('button', { name: 'Atualizar' }).click();
    await page.waitForURL(/\/departments$/);
    await page.getByRole('button', { name: 'Arquivar Cobrança' }).click();
    await page.getByTestId('department-row').filter({ hasText: 'Cobrança' }).getByText('Arquivado').waitFor();
    await page.getByRole('button', { name: 'Desarquivar Cobrança' }).click();
    await page.getByRole('button', { name: 'Arquivar Cobrança' }).waitFor();

    // The account setting.
    const setting = page.getByRole('checkbox', { name: 'Membros veem todas as conversas' });
    expect(await setting.isChecked()).toBe(false);
    // The box follows the stored setting: it ticks once the server has saved it (not at the click).
    await setting.click();
    await page.getByText('Membros agora veem todas as conversas').waitFor();
    await expect.poll(() => setting.isChecked()).toBe(true);
    expect((await callApi(world.base, 'GET', '/inbox/settings', undefined, owner.token)).body).toEqual({ membersSeeAll: true });
    await expectAccessible(page, '/departments');
    expect(await page.getByRole('columnheader', { name: 'Ações' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();

    // A member reads the list, without the actions nor the setting; the create address sends them back.
    const member = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(member.page, world, marina, '/departments');
    await member.page.getByText('Cobrança', { exact: true }).waitFor();
    expect(await member.page.getByRole('link', { name: 'Novo departamento' }).count()).toBe(0);
    expect(await member.page.getByRole('link', { name: 'Editar Cobrança' }).count()).toBe(0);
    expect(await member.page.getByRole('checkbox', { name: 'Membros veem todas as conversas' }).count()).toBe(0);
    // No empty 'Ações' column either.
    expect(await member.page.getByRole('columnheader').allInnerTexts()).toEqual(['#', 'DEPARTAMENTO', 'USUÁRIOS']);
    await member.page.goto(`${world.base}/departments/create`);
    await member.page.waitForURL(/\/departments$/);
    expect(await member.page.getByRole('dialog').count()).toBe(0);
    await expectAccessible(member.page, '/departments (member, 390 dark)');
    expect(member.errors).toEqual([]);
    await member.context.close();
  });

  it('an admin creates, edits and deletes tags (with a confirmation); a member only reads', async () => {
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, owner, '/tags');
    await page.getByRole('heading', { name: 'Etiquetas', level: 1 }).waitFor();
    await page.getByText('Nenhum registro encontrado').waitFor();
    await expectAccessible(page, '/tags (empty)');

    for (const [name, color] of [
      ['VIP', '#db2777'],
      ['Atacado', '#2563eb'],
    ]) {
      // The last one's 'Etiqueta criada' covers the button.
      await closeToasts(page);
      await page.getByRole('link', { name: 'Nova etiqueta' }).click();
      const dialog = page.getByRole('dialog', { name: 'Criar etiqueta' });
      await dialog.getByLabel('Nome').fill(name!);
      await dialog.getByRole('button', { name: `Usar a cor ${color}` }).click();
      if (name === 'VIP') await expectAccessible(page, '/tags/create');
      await dialog.getByRole('button', { name: 'Criar' }).click();
      await page.waitForURL(/\/tags$/);
      await page.getByTestId('tag-row').filter({ hasText: color! }).waitFor();
    }

    // A repeated name is refused on the field; a typed colour is kept in lower case.
    await page.getByRole('link', { name: 'Editar Atacado' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar etiqueta' });
    await edit.getByLabel('Nome').fill('vip');
    await edit.getByRole('button', { name: 'Atualizar' }).click();
    await edit.getByText('Já existe uma etiqueta com este nome').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Entendi' }).click();
    await edit.getByLabel('Nome').fill('Atacadista');
    await edit.getByRole('textbox', { name: 'Cor', exact: true }).fill('#0E7490');
    await edit.getByRole('button', { name: 'Atualizar' }).click();
    await page.waitForURL(/\/tags$/);
    await page.getByTestId('tag-row').filter({ hasText: 'Atacadista' }).getByText('#0e7490').waitFor();

    // Delete asks first; 'Cancelar' keeps it.
    await page.getByRole('button', { name: 'Excluir Atacadista' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Excluir etiqueta?' });
    await expectAccessible(page, '/tags delete confirmation');
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    expect(await page.getByTestId('tag-row').count()).toBe(2);
    await page.getByRole('button', { name: 'Excluir Atacadista' }).click();
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await page.getByText('Etiqueta excluída').waitFor();
    await eventually(async () => (await page.getByTestId('tag-row').count()) === 1);
    const stored = (await callApi(world.base, 'GET', '/tags', undefined, owner.token)).body.data;
    expect(stored.map((t: { name: string; color: string }) => [t.name, t.color])).toEqual([['VIP', '#db2777']]);
    expect(errors).toEqual([]);
    await context.close();

    const member = await newPage(world.browser, { width: 390, height: 844 });
    await openAs(member.page, world, marina, '/tags');
    await member.page.getByTestId('tag-row').filter({ hasText: 'VIP' }).waitFor();
    expect(await member.page.getByRole('link', { name: 'Nova etiqueta' }).count()).toBe(0);
    expect(await member.page.getByRole('button', { name: 'Excluir VIP' }).count()).toBe(0);
    expect(await member.page.getByRole('columnheader', { name: 'Ações' }).count()).toBe(0);
    await expectAccessible(member.page, '/tags (member, 390)');
    expect(member.errors).toEqual([]);
    await member.context.close();
  });

  it('anyone tags a contact from its row, sees the chips and filters the contacts by tag', async () => {
    const tag = (await callApi(world.base, 'POST', '/tags', { name: 'Revenda', color: '#7c3aed' }, owner.token)).body;
    const zap = (await callApi(world.base, 'POST', '/services', { name: 'Zap da Doceria', type: 'whatsapp' }, owner.token)).body;
    for (const [name, phone] of [
      ['Dona Maria', '5511987650001'],
      ['Seu João', '5511987650002'],
    ]) {
      const made = await callApi(world.base, 'POST', '/contacts', { name, serviceId: zap.id, data: { phoneNumber: phone, phoneCountry: 'BR' } }, owner.token);
      expect(made.status).toBe(201);
    }
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, marina, '/contacts');
    await page.getByText('1–2 de 2').waitFor();
    await page.getByRole('button', { name: 'Etiquetas de Dona Maria' }).click();
    const dialog = page.getByRole('dialog', { name: 'Etiquetas de Dona Maria' });
    await dialog.getByRole('checkbox', { name: 'Revenda' }).check();
    await expectAccessible(page, '/contacts tag picker');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Etiquetas do contato atualizadas').waitFor();
    await page.getByTestId('contact-row').filter({ hasText: 'Dona Maria' }).getByText('Revenda').waitFor();
    const maria = (await callApi(world.base, 'GET', '/contacts', undefined, owner.token)).body.data.find((c: { name: string }) => c.name === 'Dona Maria');
    expect(maria.tags).toEqual([tag.id]);

    await page.getByRole('button', { name: 'Mostrar filtros' }).click();
    await page.getByLabel('Etiqueta', { exact: true }).selectOption({ label: 'Revenda' });
    await page.getByRole('button', { name: 'Aplicar filtros' }).click();
    await page.getByText('1–1 de 1').waitFor();
    expect(await page.getByTestId('contact-row').filter({ hasText: 'Dona Maria' }).count()).toBe(1);
    await expectAccessible(page, '/contacts filtered by tag');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an admin creates, edits and deletes a quick reply with variables; a member only reads', async () => {
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, owner, '/quick-replies');
    await page.getByRole('heading', { name: 'Respostas rápidas', level: 1 }).waitFor();
    await page.getByText('Nenhum registro encontrado').waitFor();
    await expectAccessible(page, '/quick-replies (empty)');
    await page.getByRole('link', { name: 'Nova resposta' }).click();
    const dialog = page.getByRole('dialog', { name: 'Criar resposta rápida' });
    await dialog.getByLabel('Atalho').fill('/Boleto');
    await dialog.getByLabel('Texto').fill('Olá,');
    await dialog.getByRole('button', { name: /Inserir \{\{primeiro_nome\}\}/ }).click();
    await expectAccessible(page, '/quick-replies/create');
    await dialog.getByRole('button', { name: 'Criar' }).click();
    await page.waitForURL(/\/quick-replies$/);
    await page.getByTestId('quick-reply-row').filter({ hasText: '/boleto' }).getByText('Olá, {{primeiro_nome}}').waitFor();
    const stored = (await callApi(world.base, 'GET', '/quick-replies', undefined, owner.token)).body.data;
    expect(stored.map((r: { shortcut: string; text: string }) => [r.shortcut, r.text])).toEqual([['boleto', 'Olá, {{primeiro_nome}}']]);

    await page.getByRole('link', { name: 'Editar /boleto' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar resposta rápida' });
    await edit.getByLabel('Texto').fill('Segue o boleto, {{nome}}.');
    await edit.getByRole('button', { name: 'Atualizar' }).click();
    await page.waitForURL(/\/quick-replies$/);
    await page.getByText('Segue o boleto, {{nome}}.').waitFor();
    await expectAccessible(page, '/quick-replies');

    const member = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(member.page, world, marina, '/quick-replies');
    await member.page.getByText('/boleto').waitFor();
    expect(await member.page.getByRole('link', { name: 'Nova resposta' }).count()).toBe(0);
    expect(await member.page.getByRole('button', { name: 'Excluir /boleto' }).count()).toBe(0);
    expect(await member.page.getByRole('columnheader', { name: 'Ações' }).count()).toBe(0);
    await expectAccessible(member.page, '/quick-replies (member, 390 dark)');
    expect(member.errors).toEqual([]);
    await member.context.close();

    await page.getByRole('button', { name: 'Excluir /boleto' }).click();
    await page.getByRole('alertdialog', { name: 'Excluir resposta rápida?' }).getByRole('button', { name: 'Excluir' }).click();
    await page.getByText('Resposta rápida excluída').waitFor();
    await page.getByText('Nenhum registro encontrado').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an admin sets the business hours (shifts, holidays, a department's own, the zone) and fixes what the form refuses; a member only reads", async () => {
    const plantao = await callApi(world.base, 'POST', '/departments', { name: 'Plantão' }, owner.token);
    expect(plantao.status).toBe(201);
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, owner, '/inbox');
    await page.getByRole('link', { name: 'Horário de atendimento' }).click();
    await page.getByRole('heading', { name: 'Horário de atendimento', level: 1 }).waitFor();
    await page.getByText('Horário sugerido: ainda não foi salvo.').waitFor();
    await expectAccessible(page, '/business-hours (suggested)');

    // Saturday closed; Monday split in two shifts, the second typed overlapping the first.
    await page.getByRole('button', { name: 'Remover turno 1 de sábado', exact: true }).click();
    await page.getByTestId('account-day-6').getByText('Fechado').waitFor();
    await page.getByLabel('Fim do turno 1 de segunda-feira', { exact: true }).fill('12:00');
    await page.getByRole('button', { name: 'Adicionar turno na segunda-feira', exact: true }).click();
    await page.getByLabel('Início do turno 2 de segunda-feira', { exact: true }).fill('11:00');
    await page.getByRole('button', { name: 'Salvar horário' }).click();
    await page.getByText('Este turno se sobrepõe a outro turno do mesmo dia').waitFor();
    expect(await page.getByLabel('Início do turno 2 de segunda-feira', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Início do turno 2 de segunda-feira', { exact: true }).fill('13:00');
    await page.getByRole('button', { name: 'Copiar segunda-feira para terça a sexta', exact: true }).click();
    await page.getByLabel('Fim do turno 2 de sexta-feira', { exact: true }).waitFor();

    // Holidays: the national ones ahead, and a city's own.
    await page.getByRole('button', { name: 'Adicionar feriados nacionais' }).click();
    await page.getByRole('list', { name: 'Feriados' }).getByText('Natal').first().waitFor();
    await page.getByLabel('Data', { exact: true }).fill('2027-01-25');
    await page.getByLabel('Nome do feriado').fill('Aniversário de São Paulo');
    await page.getByRole('button', { name: 'Adicionar', exact: true }).click();
    await page.getByText('25/01/2027').waitFor();

    // Plantão answers around the clock; the company is in Manaus.
    await page.getByLabel('Departamento', { exact: true }).selectOption({ label: 'Plantão' });
    await page.getByRole('button', { name: 'Dar horário próprio' }).click();
    const own = page.getByTestId('department-hours').filter({ hasText: 'Plantão' });
    await own.getByRole('button', { name: 'Remover turno 1 de segunda-feira (Plantão)', exact: true }).waitFor();
    await page.getByLabel('Fuso horário').selectOption('America/Manaus');
    await expectAccessible(page, '/business-hours (edited)');
    await page.getByRole('button', { name: 'Salvar horário' }).click();
    await page.getByText('Horário de atendimento salvo').waitFor();

    const stored = (await callApi(world.base, 'GET', '/business-hours', undefined, owner.token)).body;
    expect(stored).toMatchObject({ saved: true, timeZone: 'America/Manaus' });
    expect(stored.shifts.filter((s: { weekday: number }) => s.weekday === 1)).toEqual([
      { weekday: 1, start: '08:00', end: '12:00' },
      { weekday: 1, start: '13:00', end: '18:00' },
    ]);
    expect(stored.shifts).toHaveLength(10);
    expect(stored.shifts.some((s: { weekday: number }) => s.weekday === 6 || s.weekday === 0)).toBe(false);
    expect(stored.holidays).toContainEqual({ date: '2027-01-25', name: 'Aniversário de São Paulo' });
    expect(stored.holidays.some((h: { name: string }) => h.name === 'Natal')).toBe(true);
    expect(stored.departments).toEqual([{ departmentId: plantao.body.id, shifts: stored.shifts }]);
    // What is stored is what the screen shows after a reload.
    await page.reload();
    await page.getByLabel('Fim do turno 2 de quinta-feira', { exact: true }).waitFor();
    expect(await page.getByText('Horário sugerido: ainda não foi salvo.').count()).toBe(0);
    expect(await page.getByLabel('Fuso horário').inputValue()).toBe('America/Manaus');

    // A department archived while the screen was open: the server's refusal lands on its row, no modal.
    const noturno = (await callApi(world.base, 'POST', '/departments', { name: 'Noturno' }, owner.token)).body;
    await page.reload();
    await page.getByLabel('Departamento', { exact: true }).selectOption({ label: 'Noturno' });
    await page.getByRole('button', { name: 'Dar horário próprio' }).click();
    await callApi(world.base, 'POST', `/departments/${noturno.id}/archive`, { archive: true }, owner.token);
    await page.getByRole('button', { name: 'Salvar horário' }).click();
    await page.getByTestId('department-hours').filter({ hasText: 'Noturno' }).getByText('Departamento não encontrado').waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await page.getByRole('button', { name: 'Remover o horário próprio de Noturno' }).click();
    await page.getByRole('button', { name: 'Salvar horário' }).click();
    await page.getByText('Horário de atendimento salvo').waitFor();
    expect(errors).toEqual([]);
    await context.close();

    // A member reads them, with nothing to change.
    const member = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(member.page, world, marina, '/business-hours');
    await member.page.getByText('Só administradores podem alterar o horário de atendimento.').waitFor();
    expect(await member.page.getByLabel('Início do turno 1 de segunda-feira', { exact: true }).isDisabled()).toBe(true);
    expect(await member.page.getByRole('button', { name: 'Salvar horário' }).count()).toBe(0);
    expect(await member.page.getByRole('button', { name: 'Adicionar feriados nacionais' }).count()).toBe(0);
    await expectAccessible(member.page, '/business-hours (member, 390 dark)');
    expect(member.errors).toEqual([]);
    await member.context.close();
  });
  it('an admin switches automations on, fixes what the form and the server refuse and saves them; a member only reads', async () => {
    const expedicao = (await callApi(world.base, 'POST', '/departments', { name: 'Expedição' }, owner.token)).body;
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, owner, '/inbox');
    await page.getByRole('link', { name: 'Automações' }).click();
    await page.getByRole('heading', { name: 'Automações', level: 1 }).waitFor();
    await page.getByText('Todas as automações começam desativadas, com textos sugeridos.').waitFor();
    await expectAccessible(page, '/automations (defaults)');

    // The greeting on, with a variable the schema does not know; the inactivity warning after its closing.
    await page.getByRole('switch', { name: 'Saudação: Ativada' }).click();
    await page.getByLabel('Mensagem de saudação').fill('Oi {{nome}}!');
    await page.getByRole('switch', { name: 'Inatividade: Ativada' }).click();
    await page.getByLabel('Encerrar depois de (horas)').fill('1');
    await page.getByLabel('Avisar antes (minutos)').fill('90');
    await page.getByRole('button', { name: 'Salvar automações' }).click();
    await page.getByText('Variável desconhecida: {{nome}}', { exact: false }).waitFor();
    await page.getByText('O aviso deve vir antes do encerramento').waitFor();
    expect(await page.getByLabel('Mensagem de saudação').getAttribute('aria-invalid')).toBe('true');
    expect((await callApi(world.base, 'GET', '/automations', undefined, owner.token)).body.saved).toBe(false);

    // Fixed: the variable put in from its chip, the warning 30 minutes before; round-robin with a cap of 3.
    await page.getByLabel('Mensagem de saudação').fill('Olá, ');
    await page.getByRole('button', { name: 'Inserir {{primeiro_nome}} (Primeiro nome do contato)' }).first().click();
    await expect.poll(() => page.getByLabel('Mensagem de saudação').inputValue()).toBe('Olá, {{primeiro_nome}}');
    await page.getByLabel('Avisar antes (minutos)').fill('30');
    await page.getByRole('switch', { name: 'Distribuição automática: Ativada' }).click();
    await page.getByLabel('Máximo de conversas abertas por pessoa').fill('3');
    await page.getByRole('switch', { name: 'Conversa reaberta volta para quem atendia: Ativada' }).click();

    // A department archived while the screen was open: the server's message lands on its field.
    await page.getByRole('switch', { name: 'Espera longa na fila: Ativada' }).click();
    await page.getByLabel('Mover para o departamento').selectOption({ label: 'Expedição' });
    await callApi(world.base, 'POST', `/departments/${expedicao.id}/archive`, { archive: true }, owner.token);
    await page.getByRole('button', { name: 'Salvar automações' }).click();
    await page.locator('#waitingTooLong-departmentId-error').getByText('Departamento não encontrado').waitFor();
    expect(await page.getByLabel('Mover para o departamento').getAttribute('aria-invalid')).toBe('true');
    expect((await callApi(world.base, 'GET', '/automations', undefined, owner.token)).body.saved).toBe(false);
    // Switched off, the rule keeps its department without it being checked.
    await page.getByRole('switch', { name: 'Espera longa na fila: Ativada' }).click();
    await expectAccessible(page, '/automations (edited)');
    await page.getByRole('button', { name: 'Salvar automações' }).click();
    await page.getByText('Automações salvas').waitFor();

    const stored = (await callApi(world.base, 'GET', '/automations', undefined, owner.token)).body;
    expect(stored).toMatchObject({
      saved: true,
      greeting: { enabled: true, text: 'Olá, {{primeiro_nome}}' },
      inactivity: { enabled: true, closeAfterHours: 1, warnBeforeMinutes: 30 },
      roundRobin: { enabled: true, maxOpenPerAgent: 3 },
      rating: { enabled: false, question: 'De 1 a 5, como você avalia nosso atendimento?' },
      reopenToLastAgent: false,
      waitingTooLong: { enabled: false, departmentId: expedicao.id },
    });
    await page.reload();
    await page.getByLabel('Máximo de conversas abertas por pessoa').waitFor();
    expect(await page.getByLabel('Máximo de conversas abertas por pessoa').inputValue()).toBe('3');
    expect(await page.getByRole('switch', { name: 'Saudação: Ativada' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('switch', { name: 'Avaliação: Ativada' }).getAttribute('aria-checked')).toBe('false');
    expect(await page.getByText('Todas as automações começam desativadas, com textos sugeridos.').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();

    const member = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(member.page, world, marina, '/automations');
    await member.page.getByText('Só administradores podem alterar as automações.').waitFor();
    expect(await member.page.getByRole('switch', { name: 'Saudação: Ativada' }).isDisabled()).toBe(true);
    expect(await member.page.getByLabel('Mensagem de saudação').isDisabled()).toBe(true);
    expect(await member.page.getByRole('button', { name: 'Salvar automações' }).count()).toBe(0);
    await expectAccessible(member.page, '/automations (member, 390 dark)');
    expect(member.errors).toEqual([]);
    await member.context.close();
  });

  it("an admin builds a connection's menu with a submenu, plays it in 'Testar', fixes a repeated number and saves it; a member only reads", async () => {
    const loja = (await callApi(world.base, 'POST', '/services', { name: 'WhatsApp da loja', type: 'whatsapp' }, owner.token)).body;
    const posVenda = (await callApi(world.base, 'POST', '/departments', { name: 'Pós-venda' }, owner.token)).body;
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, owner, '/services');
    await page.getByRole('link', { name: 'Menu de atendimento de WhatsApp da loja' }).click();
    await page.getByRole('heading', { name: 'Menu de atendimento', level: 1 }).waitFor();
    await page.getByText('Esta conexão ainda não tem menu: abaixo, um modelo para começar.').waitFor();
    await expectAccessible(page, '/services/{id}/menu (starter)');

    await page.getByRole('switch', { name: 'Menu de atendimento: Ativado' }).click();
    await page.getByLabel('Nome da opção 1 do menu inicial').fill('Pós-venda');
    await page.getByLabel('Departamento da opção 1 do menu inicial').selectOption({ label: 'Pós-venda' });
    await page.getByRole('button', { name: 'Adicionar opção', exact: true }).click();
    await page.getByLabel('Nome da opção 2 do menu inicial').fill('Financeiro');
    await page.getByLabel('O que faz a opção 2 do menu inicial').selectOption({ label: 'Abrir um submenu' });
    await page.getByRole('button', { name: 'Novo submenu' }).click();
    await page.getByLabel('Nome da opção 1 do submenu 2').fill('Pix');
    await page.getByLabel('O que faz a opção 1 do submenu 2').selectOption({ label: 'Responder com um texto' });
    await page.getByLabel('Resposta da opção 1 do submenu 2').fill('Nossa chave Pix é o CNPJ.');
    await page.getByRole('button', { name: 'Adicionar opção', exact: true }).click();
    await page.getByLabel('Número da opção 3 do menu inicial').fill('1');
    await page.getByLabel('Nome da opção 3 do menu inicial').fill('Falar com a Carla');
    await page.getByLabel('O que faz a opção 3 do menu inicial').selectOption({ label: 'Enviar para uma pessoa' });
    await page.getByLabel('Pessoa da opção 3 do menu inicial').selectOption({ label: 'Carla Souza' });
    await page.getByRole('button', { name: 'Salvar menu' }).click();
    await page.getByText('Este número já é usado por outra opção deste menu').waitFor();
    expect(await page.getByLabel('Número da opção 3 do menu inicial').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Número da opção 3 do menu inicial').fill('3');
    expect(await page.getByText('Este número já é usado por outra opção deste menu').count()).toBe(0);

    // 'Testar' plays the form as it is now.
    const tree = page.getByTestId('menu-tree');
    await tree.getByText('Submenu 2 · Financeiro:').waitFor();
    await page.getByRole('button', { name: 'Testar com o menu atual' }).click();
    const preview = page.getByTestId('menu-preview');
    await preview.getByText('3 - Falar com a Carla', { exact: false }).waitFor();
    const say = async (typed: string) => {
      await page.getByLabel('Resposta do cliente').fill(typed);
      await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    };
    await say('2');
    await preview.getByText('0 - Voltar', { exact: false }).waitFor();
    await say('1');
    await preview.getByText('Nossa chave Pix é o CNPJ.').waitFor();
    await say('0');
    await say('7');
    await preview.getByText('Opção inválida. Digite apenas o número de uma das opções abaixo.').waitFor();
    await say('1');
    await preview.getByText('A conversa vai para a fila de Pós-venda.').waitFor();
    expect(await page.getByLabel('Resposta do cliente').isDisabled()).toBe(true);
    await expectAccessible(page, '/services/{id}/menu (edited, tested)');

    await page.getByRole('button', { name: 'Salvar menu' }).click();
    await page.getByText('Menu de atendimento salvo').waitFor();
    const stored = (await callApi(world.base, 'GET', `/services/${loja.id}/menu`, undefined, owner.token)).body.menu;
    expect(stored.enabled).toBe(true);
    expect(stored.menus[0].options).toEqual([
      { key: '1', label: 'Pós-venda', action: { kind: 'department', departmentId: posVenda.id } },
      { key: '2', label: 'Financeiro', action: { kind: 'submenu', menuId: stored.menus[1].id } },
      { key: '3', label: 'Falar com a Carla', action: { kind: 'user', userId: owner.user.id } },
    ]);
    expect(stored.menus[1].options).toEqual([{ key: '1', label: 'Pix', action: { kind: 'answer', text: 'Nossa chave Pix é o CNPJ.' } }]);
    await page.reload();
    await page.getByLabel('Nome da opção 1 do submenu 2').waitFor();
    expect(await page.getByLabel('Nome da opção 3 do menu inicial').inputValue()).toBe('Falar com a Carla');
    expect(await page.getByText('Esta conexão ainda não tem menu: abaixo, um modelo para começar.').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();

    const member = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(member.page, world, marina, `/services/${loja.id}/menu`);
    await member.page.getByText('Só administradores podem alterar o menu de atendimento.').waitFor();
    expect(await member.page.getByLabel('Nome da opção 1 do menu inicial').isDisabled()).toBe(true);
    expect(await member.page.getByRole('button', { name: 'Salvar menu' }).count()).toBe(0);
    expect(await member.page.getByRole('button', { name: 'Adicionar opção', exact: true }).count()).toBe(0);
    await expectAccessible(member.page, '/services/{id}/menu (member, 390 dark)');
    expect(member.errors).toEqual([]);
    await member.context.close();
  });
});
