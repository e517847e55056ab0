/**
 * Numbers not on WhatsApp and read receipts (ADR-0180 and ADR-0181), in the browser (commit c19ab23 had only unit and API tests): the
 * WhatsApp connection form's 'Enviar confirmação de leitura (tiques azuis)' checkbox (on by
 * default, toggled with the keyboard, kept after a save), and a reply to a number that is not on
 * WhatsApp failing on its bubble with 'Este número não tem WhatsApp.' while the conversation and
 * its other messages stay. The runtime runs as `npm start` does, with only WhatsApp's network
 * doubled (tests/support/runtime-with-whatsapp-double.ts); the double's directory (`onWhatsApp`)
 * is set through its control server, as tests/integration/whatsapp-numbers.test.ts does.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import type { WhatsAppControl } from '../support/whatsapp-control.ts';
import { callApi, expectAccessible, newPage } from './browser.ts';
import { contrastRatio } from './contrast.ts';
import { eventually, newTeam, openAs, startWorld, type World } from './world.ts';

/** Generous: the machine is shared, and each step crosses several processes and queues. */
const live = { timeout: 30_000 };
const readReceiptsLabel = 'Enviar confirmação de leitura (tiques azuis)';

/** A customer who wrote once; their number has since left WhatsApp (the directory answers nothing for it). */
const goneJid = '5521999990000@s.whatsapp.net';
/** Another customer, on WhatsApp. */
const onJid = '5531988887777@s.whatsapp.net';

/** The contrast of a failed bubble's error tick with the bubble (axe checks text only). */
const errorTickContrast = async (bubble: Locator) => {
  const [icon, background] = await bubble.evaluate((el) => [
    getComputedStyle(el.querySelector('[data-ack="-2"] svg')!).color,
    getComputedStyle(el).backgroundColor,
  ]);
  return contrastRatio(icon!, background!);
};

let world: World;
let whatsapp: WhatsAppControl;
beforeAll(async () => {
  world = await startWorld({ whatsappDouble: { paceMs: 50 } });
  whatsapp = world.whatsapp!;
  await whatsapp.register([onJid]);
});
afterAll(async () => {
  await world?.stop();
});

describe('WhatsApp numbers and read receipts in the browser', () => {
  it('the connection form’s read-receipts checkbox: on by default, unchecked with the keyboard, kept after saving', async () => {
    const team = await newTeam(world, 'Padaria Pão Quente');
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, team.owner, '/services');
    await page.getByText('Nenhum registro encontrado').waitFor();

    // 'Nova conexão': the checkbox appears once the type is WhatsApp, checked.
    await page.getByRole('link', { name: 'Nova conexão' }).click();
    const create = page.getByRole('dialog', { name: 'Nova conexão' });
    await create.getByLabel('Nome').fill('Zap da Padaria');
    expect(await create.getByLabel(readReceiptsLabel).count()).toBe(0);
    await create.getByLabel('Tipo').selectOption('whatsapp');
    const createBox = create.getByRole('checkbox', { name: readReceiptsLabel });
    await createBox.waitFor();
    expect(await createBox.isChecked()).toBe(true);
    await expectAccessible(page, '/services/create, WhatsApp');
    await create.getByRole('button', { name: 'Criar' }).click();
    await page.waitForURL(/\/services$/);
    const service = (await callApi(world.base, 'GET', '/services', undefined, team.owner.token)).body.data[0];
    expect(service.readReceipts).toBe(true);

    // 'Editar conexão': checked; Tab from the name reaches it (the type is locked), Space unchecks it.
    const row = page.getByTestId('service-row').filter({ hasText: 'Zap da Padaria' });
    await row.getByRole('link', { name: 'Editar Zap da Padaria' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar conexão' });
    const box = edit.getByRole('checkbox', { name: readReceiptsLabel });
    await box.waitFor();
    expect(await box.isChecked()).toBe(true);
    await edit.getByLabel('Nome').focus();
    await page.keyboard.press('Tab');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    // Keyboard focus on the checkbox is visible (focus-visible outline).
    expect(await box.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Space');
    expect(await box.isChecked()).toBe(false);
    await expectAccessible(page, '/services/{id}/edit, unchecked');
    await edit.getByRole('button', { name: 'Atualizar' }).click();
    await edit.waitFor({ state: 'detached', ...live });
    await page.waitForURL(/\/services$/);
    expect((await callApi(world.base, 'GET', `/services/${service.id}`, undefined, team.owner.token)).body.readReceipts).toBe(false);

    // Reopened (and after a reload, from the server): unchecked; Space checks it again, unsaved.
    await row.getByRole('link', { name: 'Editar Zap da Padaria' }).click();
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    await page.reload();
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    await edit.getByLabel('Nome').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await box.isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached', ...live });
    expect((await callApi(world.base, 'GET', `/services/${service.id}`, undefined, team.owner.token)).body.readReceipts).toBe(false);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('a reply to a number that is not on WhatsApp fails on its bubble with the reason; the conversation and its messages stay', async () => {
    const team = await newTeam(world, 'Ótica Visão Clara');
    const token = team.owner.token;
    const made = await callApi(world.base, 'POST', '/services', { name: 'Zap da Ótica', type: 'whatsapp' }, token);
    expect(made.status).toBe(201);
    const serviceId = made.body.id as string;
    expect((await callApi(world.base, 'POST', `/services/${serviceId}/start`, undefined, token)).status).toBe(200);
    await whatsapp.waitFor(serviceId, (socket) => socket.sockets === 1);
    await whatsapp.pair(serviceId);
    await eventually(async () => (await callApi(world.base, 'GET', `/services/${serviceId}`, undefined, token)).body.status === 'connected');

    // Two customers wrote; the first has since left WhatsApp.
    const writes = async (jid: string, id: string, pushName: string, text: string) =>
      whatsapp.emit(serviceId, 'messages.upsert', {
        type: 'notify',
        messages: [{ key: { remoteJid: jid, fromMe: false, id }, messageTimestamp: Math.floor(Date.now() / 1000), pushName, message: { conversation: text } }],
      });
    const earlier = ['Oi! Vocês fazem lente multifocal?', 'Passo aí amanhã.'];
    await writes(goneJid, '3A0000000000000000A1', 'Joana Pereira', earlier[0]!);
    await writes(goneJid, '3A0000000000000000A2', 'Joana Pereira', earlier[1]!);
    await writes(onJid, '3A0000000000000000B1', 'Carlos Lima', 'Meu óculos ficou pronto?');
    type Contact = { id: string; name: string; idFromService: string };
    const contacts = await eventually(async () => {
      const list = (await callApi(world.base, 'GET', '/contacts', undefined, token)).body.data as Contact[];
      return list.length === 2 ? list : null;
    });
    const joana = contacts.find((c) => c.idFromService === goneJid)!;
    const messagesOf = async (contactId: string) =>
      (await callApi(world.base, 'GET', `/messages${listQueryString({ where: { contactId } })}`, undefined, token)).body.data as {
        id: string;
        text: string;
        ack: number;
        error: string | null;
      }[];
    await eventually(async () => (await messagesOf(joana.id)).length === 2);

    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, team.owner, `/inbox/${joana.id}`);
    for (const text of earlier) await page.getByTestId('message').filter({ hasText: text }).waitFor(live);
    await page.locator('html[data-realtime="open"]').waitFor({ state: 'attached', ...live });

    // The reply: the worker asks WhatsApp's directory, which does not know the number.
    const reply = 'Fazemos sim! Pode vir a partir das 9h.';
    const composer = page.getByLabel('Mensagem', { exact: true });
    await composer.fill(reply);
    await composer.press('Enter');
    const bubble = page.getByTestId('message').filter({ hasText: reply });
    await bubble.getByText('Este número não tem WhatsApp.').waitFor(live);
    await bubble.locator('[data-ack="-2"]').waitFor();
    await bubble.getByText('Erro no envio').waitFor();
    await bubble.getByRole('button', { name: 'Tentar novamente' }).waitFor();
    await expectAccessible(page, '/inbox/{id}, failed: no WhatsApp');
    expect(await errorTickContrast(bubble)).toBeGreaterThanOrEqual(3);

    // Nothing reached WhatsApp, and the failure is the server's, not only the page's.
    expect((await whatsapp.socket(serviceId))!.sent).toEqual([]);
    const stored = await messagesOf(joana.id);
    expect(stored.map((m) => m.text).sort()).toEqual([...earlier, reply].sort());
    expect(stored.find((m) => m.text === reply)).toMatchObject({ ack: -2, error: 'Este número não tem WhatsApp.' });

    // Nothing lost after a reload: both conversations in the list, the customer's messages and the failed reply with its reason.
    await page.reload();
    await page.getByTestId('inbox-contact').filter({ hasText: 'Joana Pereira' }).waitFor(live);
    await page.getByTestId('inbox-contact').filter({ hasText: 'Carlos Lima' }).waitFor(live);
    for (const text of earlier) await page.getByTestId('message').filter({ hasText: text }).waitFor(live);
    await bubble.getByText('Este número não tem WhatsApp.').waitFor(live);
    await bubble.locator('[data-ack="-2"]').waitFor();
    expect(await page.getByTestId('message').count()).toBe(3);
    await expectAccessible(page, '/inbox/{id}, failed after reload');

    // The other customer, on WhatsApp, is still answered.
    const carlos = contacts.find((c) => c.idFromService === onJid)!;
    await page.getByTestId('inbox-contact').filter({ hasText: 'Carlos Lima' }).click();
    await page.waitForURL(new RegExp(`/inbox/${carlos.id}$`), live);
    await page.getByTestId('message').filter({ hasText: 'Meu óculos ficou pronto?' }).waitFor(live);
    await composer.fill('Ficou sim!');
    await composer.press('Enter');
    const sent = await whatsapp.waitFor(serviceId, (socket) => socket.sent.length >= 1);
    expect(sent.sent.map(({ jid, text }) => ({ jid, text }))).toEqual([{ jid: onJid, text: 'Ficou sim!' }]);
    await page.getByTestId('message').filter({ hasText: 'Ficou sim!' }).locator('[data-ack="1"]').waitFor(live);

    expect(errors).toEqual([]);
    await context.close();

    // Dark and 390 px wide: the failed bubble fits the screen, and its error tick stands out from the brand green (3:1, non-text).
    const narrow = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(narrow.page, world, team.owner, `/inbox/${joana.id}`);
    const narrowBubble = narrow.page.getByTestId('message').filter({ hasText: reply });
    await narrowBubble.getByText('Este número não tem WhatsApp.').waitFor(live);
    const box = (await narrowBubble.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await errorTickContrast(narrowBubble)).toBeGreaterThanOrEqual(3);
    await expectAccessible(narrow.page, '/inbox/{id}, failed, dark 390 px');
    expect(narrow.errors).toEqual([]);
    await narrow.context.close();
  });
});
