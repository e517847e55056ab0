/**
 * The team inbox thread (docs/product.md#team-inbox) in a real browser against the local runtime: internal notes
 * written from the composer (stored as notes, never sent to the customer's channel), a system line
 * from 'Assumir' shown across the thread, and the `/atalho` quick-reply picker driven by the
 * keyboard, its variables filled by the server. axe-core clean with the picker open. A customer on
 * Telegram goes through the automations: greeted, the menu, an option to a department, handed to
 * the online agent in turn, the answer and resolve, the rating question and a score that does not reopen the conversation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { callApi, expectAccessible, newPage } from './browser.ts';
import { contrastRatio } from './contrast.ts';
import { eventually, newTeam, openAs, startWorld, type World } from './world.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.stop();
});

/**
 * Our own bubble's sender and time (11 px) against the bubble, measured on the page: the team inbox's first screenshots
 * found them at 4.43:1; WCAG AA wants 4.5:1 for text this small.
 */
async function ownBubbleMetaContrast(page: Page, text: string): Promise<{ sender: string; ratio: number }> {
  const bubble = page.getByTestId('message').filter({ hasText: text });
  const { meta, sender, bg } = await bubble.evaluate((el) => {
    const line = el.querySelector('time')!.parentElement!;
    return { meta: getComputedStyle(line).color, sender: line.textContent ?? '', bg: getComputedStyle(el).backgroundColor };
  });
  return { sender, ratio: contrastRatio(meta, bg) };
}

describe('the team thread', () => {
  it('an agent writes an internal note, sees a take as a centred line, and answers with a quick reply picked by keyboard', async () => {
    const team = await newTeam(world, 'Doceria da Carla', 'Carla Souza');
    const { owner } = team;
    const botToken = `${900_000 + (Date.now() % 90_000)}:AAH-doceria`;
    const bot = world.telegram.addBot(botToken, 'Doceria');
    const service = (await callApi(world.base, 'POST', '/services', { name: 'Bot da Doceria', type: 'telegram', token: botToken }, owner.token)).body;
    await callApi(world.base, 'POST', `/services/${service.id}/start`, {}, owner.token);
    await eventually(async () => bot.polling);
    await callApi(
      world.base,
      'POST',
      '/quick-replies',
      { shortcut: 'boleto', text: 'Olá, {{primeiro_nome}}! Segue o boleto. Aqui é {{atendente}}.' },
      owner.token,
    );
    await callApi(world.base, 'POST', '/quick-replies', { shortcut: 'horario', text: 'Abrimos às 9h.' }, owner.token);
    const helena = { id: 555_014, first_name: 'Helena', last_name: 'Prado' };
    bot.receive(helena, { text: 'Oi! Podem mandar o boleto?' });
    const contact = await eventually(async () => {
      const list = await callApi(world.base, 'GET', '/contacts', undefined, owner.token);
      return list.body.data.find((c: { name: string }) => c.name === 'Helena Prado');
    });

    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, owner, `/inbox/${contact.id}`);
    await page.getByTestId('message').filter({ hasText: 'Oi! Podem mandar o boleto?' }).waitFor({ timeout: 20_000 });
    await page.locator('html[data-realtime="open"]').waitFor({ state: 'attached', timeout: 20_000 });

    // 'Assumir' through the API: its system line arrives live, centred across the thread, with no bubble.
    expect((await callApi(world.base, 'POST', `/contacts/${contact.id}/take`, {}, owner.token)).status).toBe(200);
    const line = page.getByTestId('system-line').filter({ hasText: 'Carla Souza assumiu a conversa' });
    await line.waitFor({ timeout: 20_000 });
    const text = (await line.locator('p').boundingBox())!;
    const thread = (await page.getByTestId('messages-scroll').boundingBox())!;
    expect(Math.abs(text.x + text.width / 2 - (thread.x + thread.width / 2))).toBeLessThanOrEqual(12);
    expect(await line.locator('[data-ack]').count()).toBe(0);
    expect(await line.getByRole('button').count()).toBe(0);

    // An internal note: the toggle is pressed, the box says the customer does not see it.
    const toggle = page.getByRole('button', { name: 'Nota interna', exact: true });
    await toggle.press('Enter');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const noteBox = page.getByLabel('Texto da nota interna');
    expect(await noteBox.getAttribute('placeholder')).toBe('Escreva uma nota interna (o cliente não vê)');
    expect(await page.getByRole('button', { name: 'Anexar arquivos' }).isDisabled()).toBe(true);
    await expectAccessible(page, '/inbox/{id} in note mode');
    await noteBox.fill('Cliente antiga: pode parcelar em 3x.');
    await noteBox.press('Enter');
    const note = page.getByTestId('message').filter({ hasText: 'Cliente antiga: pode parcelar em 3x.' });
    await note.waitFor();
    await eventually(async () => !(await note.getAttribute('data-message-id'))?.startsWith('local-'));
    expect(await note.getAttribute('data-kind')).toBe('note');
    await note.getByText('Nota interna').waitFor();
    expect(await note.locator('[data-ack]').count()).toBe(0);
    const query = encodeURIComponent(JSON.stringify({ where: { contactId: contact.id } }));
    const listed = (await callApi(world.base, 'GET', `/messages?query=${query}`, undefined, owner.token)).body.data as { text: string; kind: string }[];
    expect(listed.find((m) => m.text === 'Cliente antiga: pode parcelar em 3x.')?.kind).toBe('note');
    expect(listed.find((m) => m.text === 'Carla Souza assumiu a conversa')?.kind).toBe('system');

    // Back to the customer: '/bol' opens the picker; the keyboard picks; the server's filling is left to edit.
    await toggle.click();
    const box = page.getByLabel('Mensagem', { exact: true });
    await box.pressSequentially('/bol');
    const listbox = page.getByRole('listbox', { name: 'Respostas rápidas' });
    await listbox.waitFor();
    expect(await listbox.getByRole('option').allTextContents()).toEqual(['/boletoOlá, Helena! Segue o boleto. Aqui é Carla Souza.']);
    expect(await box.getAttribute('aria-activedescendant')).toBe(await listbox.getByRole('option').first().getAttribute('id'));
    await expectAccessible(page, '/inbox/{id} with the quick-reply picker open');
    await box.press('ArrowDown');
    await box.press('Enter');
    await listbox.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('Olá, Helena! Segue o boleto. Aqui é Carla Souza.');
    await box.press('End');
    await box.pressSequentially(' Vence sexta.');
    await box.press('Enter');
    const sentText = 'Olá, Helena! Segue o boleto. Aqui é Carla Souza. Vence sexta.';
    await page.getByTestId('message').filter({ hasText: sentText }).locator('[data-ack="1"]').waitFor({ timeout: 20_000 });
    // Our bubble names its sender beside the time, legible in the light theme (the dark one below).
    const light = await ownBubbleMetaContrast(page, sentText);
    expect(light.sender).toContain('Carla Souza ·');
    expect(light.ratio).toBeGreaterThanOrEqual(4.5);
    await expectAccessible(page, '/inbox/{id} with our answer (light)');

    // The channel got the answer and nothing else: neither the note nor the system line.
    const sent = await eventually(async () => (bot.sent.some((s) => s.answer.ok) ? bot.sent : null));
    expect(sent.map((s) => [s.method, s.params.text])).toEqual([['sendMessage', sentText]]);
    expect(errors).toEqual([]);
    await context.close();

    // Phone width, dark: the thread with its note and line, and the picker open, still clean for axe.
    const phone = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(phone.page, world, owner, `/inbox/${contact.id}`);
    await phone.page.getByTestId('message').filter({ hasText: sentText }).waitFor({ timeout: 20_000 });
    await phone.page.getByTestId('message').filter({ hasText: 'Cliente antiga: pode parcelar em 3x.' }).getByText('Nota interna').waitFor();
    await phone.page.getByLabel('Mensagem', { exact: true }).pressSequentially('/');
    await phone.page.getByRole('listbox', { name: 'Respostas rápidas' }).getByRole('option').nth(1).waitFor();
    await expectAccessible(phone.page, '/inbox/{id} at 390 px, dark, picker open');
    expect((await ownBubbleMetaContrast(phone.page, sentText)).ratio).toBeGreaterThanOrEqual(4.5);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it('a customer goes through the menu to a department, is handed to the online agent in turn, answered and resolved, and the score is recorded without reopening', async () => {
    const team = await newTeam(world, 'Ótica Horizonte', 'Paula Mendes');
    const { owner } = team;
    const botToken = `${910_000 + (Date.now() % 80_000)}:AAH-otica`;
    const bot = world.telegram.addBot(botToken, 'Ótica');
    const service = (await callApi(world.base, 'POST', '/services', { name: 'Bot da Ótica', type: 'telegram', token: botToken }, owner.token)).body;
    await callApi(world.base, 'POST', `/services/${service.id}/start`, {}, owner.token);
    await eventually(async () => bot.polling);
    const lentes = (await callApi(world.base, 'POST', '/departments', { name: 'Lentes', userIds: [owner.user.id] }, owner.token)).body;
    const everyDay = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '00:00', end: '24:00' }));
    expect((await callApi(world.base, 'PUT', '/business-hours', { shifts: everyDay }, owner.token)).status).toBe(200);
    const settings = (await callApi(world.base, 'GET', '/automations', undefined, owner.token)).body;
    const saved = await callApi(
      world.base,
      'PUT',
      '/automations',
      {
        ...settings,
        greeting: { enabled: true, text: 'Olá, {{primeiro_nome}}! Seu protocolo é {{protocolo}}.' },
        closing: { enabled: true, text: 'Atendimento encerrado. Obrigado!' },
        rating: { enabled: true, question: 'De 1 a 5, como foi o atendimento?', thanks: 'Obrigado pela avaliação!' },
        roundRobin: { enabled: true, maxOpenPerAgent: 5 },
      },
      owner.token,
    );
    expect(saved.status).toBe(200);
    const menu = await callApi(
      world.base,
      'PUT',
      `/services/${service.id}/menu`,
      {
        enabled: true,
        menus: [
          {
            id: 'inicio',
            text: 'Como podemos ajudar?',
            options: [
              { key: '1', label: 'Lentes de contato', action: { kind: 'department', departmentId: lentes.id } },
              { key: '2', label: 'Endereço', action: { kind: 'answer', text: 'Av. Afonso Pena, 1500.' } },
            ],
          },
        ],
        invalidText: 'Não entendi. Digite o número de uma opção.',
        maxInvalid: 3,
        timeoutMinutes: 30,
        timeoutDepartmentId: null,
      },
      owner.token,
    );
    expect(menu.status).toBe(200);

    const bruno = { id: 555_031, first_name: 'Bruno', last_name: 'Azevedo' };
    bot.receive(bruno, { text: 'Boa tarde' });
    const contact = await eventually(async () => {
      const list = await callApi(world.base, 'GET', '/contacts', undefined, owner.token);
      return list.body.data.find((c: { name: string }) => c.name === 'Bruno Azevedo');
    });
    // The greeting and the menu reached the customer on Telegram.
    const texts = () => bot.sent.filter((s) => s.answer.ok).map((s) => s.params.text as string);
    await eventually(async () => texts().length >= 2);
    expect(texts()[0]).toMatch(/^Olá, Bruno! Seu protocolo é \d{8}-[0-9A-Z]{4}\.$/);
    expect(texts()[1]).toBe('Como podemos ajudar?\n\n1 - Lentes de contato\n2 - Endereço');
    // The options go as an inline keyboard, one button a row, each answering with its key.
    const menuSent = bot.sent.filter((s) => s.answer.ok)[1]!;
    expect(menuSent.params.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Lentes de contato', callback_data: '1' }], [{ text: 'Endereço', callback_data: '2' }]],
    });

    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, owner, `/inbox/${contact.id}`);
    const menuBubble = page.getByTestId('message').filter({ hasText: 'Como podemos ajudar?' });
    await menuBubble.getByTestId('automated').waitFor({ timeout: 20_000 });
    await page.getByTestId('conversation-facts').getByText('Pendente').waitFor();
    await expectAccessible(page, '/inbox/{id} with automated messages');

    // The customer taps 'Lentes de contato': the conversation goes to Lentes and, round-robin, to
    // its only member, who is online (this page's socket), live; the tap is answered.
    await page.locator('html[data-realtime="open"]').waitFor({ state: 'attached', timeout: 20_000 });
    const tap = bot.tap(bruno, (menuSent.answer as { result: unknown }).result, '1');
    await eventually(async () => bot.answeredCallbacks.includes(tap.callback_query.id));
    await page.getByText('Encaminhada para Lentes').waitFor({ timeout: 20_000 });
    await page.getByText('Atribuída a Paula Mendes').waitFor({ timeout: 20_000 });
    // The thread shows what the customer tapped.
    const thread = await callApi(
      world.base,
      'GET',
      `/messages?query=${encodeURIComponent(JSON.stringify({ where: { contactId: contact.id }, perPage: 50 }))}`,
      undefined,
      owner.token,
    );
    expect(thread.body.data.some((m: { text: string; isFromMe: boolean }) => !m.isFromMe && m.text === 'Lentes de contato')).toBe(true);
    await page.getByTestId('conversation-facts').getByText('Aberta').waitFor();
    expect(await page.getByRole('button', { name: 'Assumir' }).count()).toBe(0);
    const box = page.getByLabel('Mensagem', { exact: true });
    await box.fill('Oi, Bruno! Qual o grau da sua lente?');
    await box.press('Enter');
    await eventually(async () => texts().includes('Oi, Bruno! Qual o grau da sua lente?'));
    await page.getByRole('button', { name: 'Mais ações' }).click();
    await page.getByRole('menuitem', { name: 'Resolver' }).click();
    await page.getByTestId('message').filter({ hasText: 'De 1 a 5, como foi o atendimento?' }).getByTestId('automated').waitFor({ timeout: 20_000 });
    await page.getByTestId('conversation-facts').getByText('Resolvida').waitFor();
    await eventually(async () => texts().includes('De 1 a 5, como foi o atendimento?'));

    // A score: thanked and recorded; the conversation stays resolved.
    bot.receive(bruno, { text: '5' });
    await page.getByTestId('message').filter({ hasText: 'Obrigado pela avaliação!' }).waitFor({ timeout: 20_000 });
    await eventually(async () => texts().includes('Obrigado pela avaliação!'));
    expect((await callApi(world.base, 'GET', `/contacts/${contact.id}`, undefined, owner.token)).body.status).toBe('resolved');
    await page.getByTestId('conversation-facts').getByText('Resolvida').waitFor();
    expect(await page.getByText('Conversa reaberta por nova mensagem do cliente').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
