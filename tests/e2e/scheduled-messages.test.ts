/**
 * Scheduling in a real browser against the local runtime (docs/product.md#scheduled-messages):
 * 'Agendar mensagem' in the composer schedules a reminder for tomorrow 09:00 in the account's zone,
 * the strip above the composer shows it as dd/MM/yyyy 09:00, 'Editar' changes its text, and when
 * the timers' poller finds it due (its time moved into the past) it reaches the customer's Telegram
 * chat once, shows in the thread, and leaves the strip. axe-core clean with the form open and with
 * the strip; screenshots kept in .tmp/schedule-shots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getScheduledMessage, replaceScheduledMessage, scheduledMessageFields, scheduledMessageItem } from '#db/scheduled-messages.ts';
import { fireDueScheduledMessages } from '#domain/scheduled-messages/fire-scheduled-messages.ts';
import { callApi, expectAccessible, newPage, root } from './browser.ts';
import { eventually, newTeam, openAs, startWorld, type World } from './world.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.stop();
});

const shots = `${root}/.tmp/schedule-shots`;
const DAY = 86_400_000;

/** Tomorrow's date on São Paulo's wall clock (the account's default zone), as the date input takes it and as the strip shows it. */
function tomorrowInSaoPaulo(): { iso: string; br: string } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.now() + DAY);
  const [y, m, d] = parts.split('-');
  return { iso: parts, br: `${d}/${m}/${y}` };
}

describe('scheduling a message in the conversation', () => {
  it("'Agendar mensagem' lists the reminder above the composer, edits it, and the poller sends it once when due", async () => {
    const { owner } = await newTeam(world, 'Ótica Visão', 'Paula Lima');
    const botToken = `${930_000 + (Date.now() % 60_000)}:AAH-otica`;
    const bot = world.telegram.addBot(botToken, 'Ótica');
    const service = (await callApi(world.base, 'POST', '/services', { name: 'Bot da Ótica', type: 'telegram', token: botToken }, owner.token)).body;
    await callApi(world.base, 'POST', `/services/${service.id}/start`, {}, owner.token);
    await eventually(async () => bot.polling);
    const customer = { id: 557_031, first_name: 'Jorge', last_name: 'Antunes' };
    bot.receive(customer, { text: 'Pode me lembrar do boleto?' });
    const contact = await eventually(async () =>
      ((await callApi(world.base, 'GET', '/contacts', undefined, owner.token)).body.data as { id: string; name: string }[]).find(
        (c) => c.name === 'Jorge Antunes',
      ),
    );

    const { page, context, errors } = await newPage(world.browser, { width: 1280, height: 800 });
    await openAs(page, world, owner, `/inbox/${contact.id}`);
    await page.getByTestId('message').filter({ hasText: 'lembrar do boleto' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Agendar mensagem' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agendar mensagem' });
    await dialog.waitFor();
    const tomorrow = tomorrowInSaoPaulo();
    await dialog.getByLabel('Mensagem').fill('Seu boleto vence amanhã');
    await dialog.getByLabel('Data').fill(tomorrow.iso);
    await dialog.getByLabel('Horário').fill('09:00');
    await dialog.getByLabel('Repetição').selectOption('once');
    await expectAccessible(page, '/inbox/{id} with the schedule form open');
    await page.screenshot({ path: `${shots}/schedule-form.png` });
    await dialog.getByRole('button', { name: 'Agendar' }).click();
    await dialog.waitFor({ state: 'detached' });

    const strip = page.getByRole('region', { name: 'Mensagens agendadas' });
    await strip.getByText('Seu boleto vence amanhã').waitFor();
    await strip.getByText(`${tomorrow.br} 09:00`).waitFor();
    await expectAccessible(page, '/inbox/{id} with a scheduled message');

    await strip.getByRole('button', { name: `Editar agendamento de ${tomorrow.br} 09:00` }).click();
    const edit = page.getByRole('dialog', { name: 'Editar mensagem agendada' });
    await edit.getByLabel('Mensagem').fill('Olá, Jorge! Seu boleto vence amanhã.');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await edit.waitFor({ state: 'detached' });
    await strip.getByText('Olá, Jorge! Seu boleto vence amanhã.').waitFor();
    await page.screenshot({ path: `${shots}/schedule-strip.png` });

    // Tomorrow 09:00 comes (the schedule's next time moved to a minute ago, as time passing would),
    // the poller runs twice: the reminder goes once, as Paula's message, and leaves the strip.
    const [scheduled] = (await callApi(world.base, 'GET', `/contacts/${contact.id}/scheduled-messages`, undefined, owner.token)).body;
    const item = (await getScheduledMessage(world.ports.table, owner.accountId, contact.id, scheduled.id))!;
    const passed = scheduledMessageItem({ ...scheduledMessageFields(item), nextAt: new Date(Date.now() - 60_000).toISOString(), version: item.version + 1 });
    expect(await replaceScheduledMessage(world.ports.table, passed, item.version)).toBe(true);
    expect((await fireDueScheduledMessages(world.ports)).sent).toBe(1);
    expect((await fireDueScheduledMessages(world.ports)).sent).toBe(0);
    const sent = await eventually(async () => bot.sent.find((s) => s.answer.ok && String(s.params.chat_id) === String(customer.id)));
    expect(sent.params.text).toBe('Olá, Jorge! Seu boleto vence amanhã.');
    const bubble = page.getByTestId('message').filter({ hasText: 'Olá, Jorge! Seu boleto vence amanhã.' });
    await bubble.locator('[data-ack="1"]').waitFor({ timeout: 20_000 });
    await strip.waitFor({ state: 'detached' });
    expect(bot.sent.filter((s) => String(s.params.chat_id) === String(customer.id))).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
