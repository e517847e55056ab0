/**
 * Who handles a conversation, from its header (docs/product.md#team-inbox), in a real browser against the local
 * runtime: a member takes nobody's conversation, tags its contact, changes its status and releases
 * it; an admin transfers one to a department with a note; a member who hands one to a queue they
 * are not in goes back to the list; a member beaten to a conversation they no longer see is told it
 * is gone (404, nothing about who has it), an admin beaten to one is told who has it. The server's
 * answers are checked through the API. axe-core clean, with the transfer dialog open too.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { callApi, closeToasts, expectAccessible, newPage } from './browser.ts';
import { doceria, fileWorld, openAs, type Member, type World } from './world.ts';

let world: World;
let owner: Member;
let marina: Member;
let tiago: Member;
let serviceId: string;
let financeiro: { id: string };
let vip: { id: string };

fileWorld(async (started) => {
  world = started;
  const bakery = await doceria(world);
  ({ owner, marina } = bakery);
  tiago = await bakery.team.addUser('Tiago Nunes', false);
  financeiro = (await callApi(world.base, 'POST', '/departments', { name: 'Financeiro', userIds: [tiago.user.id] }, owner.token)).body;
  vip = (await callApi(world.base, 'POST', '/tags', { name: 'VIP', color: '#db2777' }, owner.token)).body;
  serviceId = (await callApi(world.base, 'POST', '/services', { name: 'Zap da Doceria', type: 'whatsapp' }, owner.token)).body.id;
});

let phone = 5511987650100;
async function newContact(name: string): Promise<string> {
  phone += 1;
  const made = await callApi(world.base, 'POST', '/contacts', { name, serviceId, data: { phoneNumber: String(phone), phoneCountry: 'BR' } }, owner.token);
  expect(made.status).toBe(201);
  return made.body.id;
}

const stored = async (id: string) => (await callApi(world.base, 'GET', `/contacts/${id}`, undefined, owner.token)).body;

/** The conversation's system lines and notes, oldest first, as the API stores them. */
async function lines(contactId: string): Promise<[string, string][]> {
  const query = encodeURIComponent(JSON.stringify({ where: { contactId }, perPage: 50 }));
  const answer = await callApi(world.base, 'GET', `/messages?query=${query}`, undefined, owner.token);
  return (answer.body.data as { kind: string; text: string }[])
    .filter((m) => m.kind !== 'message')
    .map((m): [string, string] => [m.kind, m.text])
    .reverse();
}

const assignee = (page: Page) => page.getByTestId('conversation-assignee');
const facts = (page: Page) => page.getByTestId('conversation-facts');

async function fromMenu(page: Page, item: string): Promise<void> {
  // The last action's toast covers the header's 'Mais ações'.
  await closeToasts(page);
  await page.getByRole('button', { name: 'Mais ações' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe('the conversation header', () => {
  it('a member takes nobody’s conversation, tags the contact, changes the status by keyboard too and releases it', async () => {
    const id = await newContact('Dona Maria');
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, marina, `/inbox/${id}`);
    await assignee(page).filter({ hasText: 'Não atribuída' }).waitFor();
    await facts(page).getByText('Aberta').waitFor();
    await expectAccessible(page, '/inbox/{id} header (unassigned)');

    await page.getByRole('button', { name: 'Assumir' }).click();
    await assignee(page).filter({ hasText: 'Marina Costa' }).waitFor();
    expect(await page.getByRole('button', { name: 'Assumir' }).count()).toBe(0);
    expect((await stored(id)).userId).toBe(marina.user.id);
    expect(await lines(id)).toEqual([['system', 'Marina Costa assumiu a conversa']]);

    // Tags, by keyboard: the header's button, Space on the box, then 'Salvar'.
    await page.getByRole('button', { name: 'Etiquetas de Dona Maria' }).click();
    const dialog = page.getByRole('dialog', { name: 'Etiquetas de Dona Maria' });
    await dialog.getByRole('checkbox', { name: 'VIP' }).focus();
    await page.keyboard.press('Space');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await facts(page).getByText('VIP').waitFor();
    expect((await stored(id)).tags).toEqual([vip.id]);

    await fromMenu(page, 'Marcar como pendente');
    await facts(page).getByText('Pendente').waitFor();
    expect((await stored(id)).status).toBe('pending');
    // The menu by keyboard: ArrowDown opens it on its first item, End goes to the last ('Resolver').
    await page.getByRole('button', { name: 'Mais ações' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('menu', { name: 'Mais ações' }).waitFor();
    await expectAccessible(page, '/inbox/{id} actions menu');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await facts(page).getByText('Resolvida').waitFor();
    expect((await stored(id)).status).toBe('resolved');

    await fromMenu(page, 'Liberar');
    await assignee(page).filter({ hasText: 'Não atribuída' }).waitFor();
    await page.getByRole('button', { name: 'Assumir' }).waitFor();
    expect((await stored(id)).userId).toBeNull();
    expect(await lines(id)).toEqual([
      ['system', 'Marina Costa assumiu a conversa'],
      ['system', 'Marina Costa marcou a conversa como pendente'],
      ['system', 'Marina Costa marcou a conversa como resolvida'],
      ['system', 'Marina Costa liberou a conversa'],
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an admin transfers a conversation to a department with a note; a member who hands one to a queue they are not in goes back to the list', async () => {
    const joao = await newContact('Seu João');
    const admin = await newPage(world.browser);
    await openAs(admin.page, world, owner, `/inbox/${joao}`);
    await admin.page.getByRole('button', { name: 'Transferir' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Transferir conversa' });
    await dialog.getByLabel('Departamento').waitFor();
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await dialog.getByText('Escolha um usuário ou um departamento').waitFor();
    await expectAccessible(admin.page, 'transfer dialog');
    await dialog.getByLabel('Departamento').selectOption({ label: 'Financeiro' });
    await dialog.getByLabel('Nota interna (opcional)').fill('Cliente pediu a segunda via do boleto');
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await admin.page.getByText('Conversa transferida para Financeiro.').waitFor();
    await admin.page.getByTestId('conversation-department').filter({ hasText: 'Financeiro' }).waitFor();
    expect(await admin.page.getByRole('dialog').count()).toBe(0);
    const after = await stored(joao);
    expect([after.userId, after.departmentId, after.department?.name]).toEqual([null, financeiro.id, 'Financeiro']);
    expect(await lines(joao)).toEqual([
      ['system', 'Transferida para Financeiro'],
      ['note', 'Cliente pediu a segunda via do boleto'],
    ]);
    expect(admin.errors).toEqual([]);
    await admin.context.close();

    // Marina has Rita; from her phone she hands it to Financeiro, which she is not in.
    const rita = await newContact('Rita Almeida');
    expect((await callApi(world.base, 'POST', `/contacts/${rita}/take`, undefined, marina.token)).status).toBe(200);
    const member = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(member.page, world, marina, `/inbox/${rita}`);
    await assignee(member.page).filter({ hasText: 'Marina Costa' }).waitFor();
    await expectAccessible(member.page, '/inbox/{id} header (390 dark)');
    await fromMenu(member.page, 'Transferir');
    const phoneDialog = member.page.getByRole('dialog', { name: 'Transferir conversa' });
    await phoneDialog.getByLabel('Departamento').selectOption({ label: 'Financeiro' });
    await phoneDialog.getByRole('button', { name: 'Transferir' }).click();
    await member.page.waitForURL(/\/inbox$/);
    await member.page.getByText('Conversa transferida para Financeiro.').waitFor();
    // The address changes first; the list replaces the conversation as that navigation's render completes.
    await member.page.getByRole('heading', { name: 'Rita Almeida' }).waitFor({ state: 'detached' });
    expect((await callApi(world.base, 'GET', `/contacts/${rita}`, undefined, marina.token)).status).toBe(404);
    expect(member.errors).toEqual([]);
    await member.context.close();
  });

  /** Opens a conversation with the realtime events held back on demand (someone else's take must not reach the page before the click). */
  async function openHeld(who: Member, id: string) {
    const opened = await newPage(world.browser);
    const held = { on: false };
    await opened.page.routeWebSocket(/\/ws\?/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((message) => {
        if (!held.on) ws.send(message);
      });
    });
    await openAs(opened.page, world, who, `/inbox/${id}`);
    await opened.page.locator('html[data-realtime="open"]').waitFor({ state: 'attached', timeout: 20_000 });
    await assignee(opened.page).filter({ hasText: 'Não atribuída' }).waitFor();
    held.on = true;
    return opened;
  }

  it('someone beaten to a conversation is told so: a member who may no longer see it is back on the list, not told who has it; an admin sees who has it', async () => {
    const ana = await newContact('Ana Paula');
    const { page, context, errors } = await openHeld(marina, ana);
    expect((await callApi(world.base, 'POST', `/contacts/${ana}/take`, undefined, tiago.token)).status).toBe(200);
    // Marina sees her own and the queues' conversations: Tiago's is hidden from her, so the take answers
    // 404 like any unknown id, and the page says it is gone without saying who has it.
    const take = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/contacts/${ana}/take`));
    await page.getByRole('button', { name: 'Assumir' }).click();
    expect((await take).status()).toBe(404);
    await page.getByText('Esta conversa não está mais disponível para você').waitFor();
    await page.getByText('Outra pessoa pode tê-la assumido.').waitFor();
    await page.waitForURL(/\/inbox$/);
    await page.getByRole('heading', { name: 'Ana Paula' }).waitFor({ state: 'detached' });
    expect(await page.getByText('Tiago Nunes').count()).toBe(0);
    await expectAccessible(page, '/inbox after a lost take (404)');
    expect((await stored(ana)).userId).toBe(tiago.user.id);
    expect(errors).toEqual([]);
    await context.close();

    const beto = await newContact('Beto Ramos');
    const admin = await openHeld(owner, beto);
    expect((await callApi(world.base, 'POST', `/contacts/${beto}/take`, undefined, marina.token)).status).toBe(200);
    await admin.page.getByRole('button', { name: 'Assumir' }).click();
    // An admin sees every conversation: the 409 names who has it.
    await admin.page.getByText('Outra pessoa já assumiu esta conversa. Atualize a lista para ver quem a atende.').waitFor();
    await admin.page.getByText('Marina Costa já atende esta conversa').waitFor();
    await assignee(admin.page).filter({ hasText: 'Marina Costa' }).waitFor();
    expect(await admin.page.getByRole('button', { name: 'Assumir' }).count()).toBe(0);
    // An admin may still hand it on or free it.
    await admin.page.getByRole('button', { name: 'Transferir' }).waitFor();
    expect(admin.errors).toEqual([]);
    await admin.context.close();
  });
});
