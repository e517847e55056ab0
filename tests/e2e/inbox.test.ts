import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { callApi, expectAccessible, newPage, resting } from './browser.ts';
import { eventually, fileWorld, newTeam, openAs, setServiceStatus, type World } from './world.ts';

let world: World;
fileWorld((started) => {
  world = started;
});

/** Records the browser notifications a page raises (permission granted). */
async function recordNotifications(context: BrowserContext): Promise<void> {
  await context.grantPermissions(['notifications']);
  await context.addInitScript(() => {
    const shown: { title: string; body?: string }[] = [];
    (window as unknown as { __notifications: typeof shown }).__notifications = shown;
    class Recorded {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, body: options?.body });
      }
    }
    Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true });
  });
}

const notifications = (page: Page) => page.evaluate(() => (window as unknown as { __notifications: { title: string; body?: string }[] }).__notifications);

describe('the inbox, live', () => {
  it('an admin connects Telegram, a customer writes, and the team answers with text, a file and a voice note; other accounts see nothing', async () => {
    const team = await newTeam(world, 'Floricultura Ipê');
    const colleague = await team.addUser('Bruno Lima', true);
    const stranger = (await newTeam(world, 'Outra Loja')).owner;

    // The admin creates the Telegram connection on /services.
    const admin = await newPage(world.browser);
    await recordNotifications(admin.context);
    await openAs(admin.page, world, team.owner, '/services');
    await admin.page.getByRole('heading', { name: 'Conexões', level: 1 }).waitFor();
    await admin.page.getByText('Nenhum registro encontrado').waitFor();
    await admin.page.getByRole('link', { name: 'Nova conexão' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Nova conexão' });
    await dialog.getByLabel('Nome').fill('Bot da Floricultura');
    await dialog.getByLabel('Tipo').selectOption('telegram');
    await dialog.getByRole('button', { name: 'Criar' }).click();
    await dialog.getByText('Token do Telegram é obrigatório').waitFor();
    const botToken = `${700_000 + (Date.now() % 100_000)}:AAH-floricultura`;
    const bot = world.telegram.addBot(botToken, 'Floricultura');
    await dialog.getByLabel('Token do Telegram').fill(botToken);
    await expectAccessible(admin.page, '/services/create');
    await dialog.getByRole('button', { name: 'Criar' }).click();
    await admin.page.waitForURL(/\/services$/);
    const row = admin.page.getByTestId('service-row').filter({ hasText: 'Bot da Floricultura' });
    await row.getByText('Desconectado').waitFor();
    const services = await callApi(world.base, 'GET', '/services', undefined, team.owner.token);
    const serviceId = services.body.data[0].id as string;

    // 'Iniciar' starts it: the worker long-polls the Bot API and the status changes live.
    await row.getByRole('button', { name: 'Iniciar Bot da Floricultura', exact: true }).click();
    await row.getByText('Conectado').waitFor({ timeout: 20_000 });
    await eventually(async () => bot.polling);
    void serviceId;

    // Everyone opens the inbox: the admin, a colleague of the same account, and another account.
    await admin.page.getByRole('link', { name: 'Chat', exact: true }).click();
    await admin.page.getByText('Nenhum registro encontrado').waitFor();
    const second = await newPage(world.browser);
    await openAs(second.page, world, colleague, '/inbox');
    await second.page.getByText('Nenhum registro encontrado').waitFor();
    const other = await newPage(world.browser);
    await openAs(other.page, world, stranger, '/inbox');
    await other.page.getByText('Nenhum registro encontrado').waitFor();
    for (const p of [admin.page, second.page, other.page]) await p.locator('html[data-realtime="open"]').waitFor({ state: 'attached', timeout: 20_000 });

    const helena = { id: 555_001, first_name: 'Helena', last_name: 'Prado' };
    bot.receive(helena, { text: 'Bom dia! Vocês entregam hoje?' });

    // It shows live, opens by itself on a wide screen, and rings 'Nova mensagem'.
    await admin.page.getByTestId('inbox-contact').filter({ hasText: 'Helena Prado' }).waitFor({ timeout: 20_000 });
    await admin.page.waitForURL(/\/inbox\/[0-9A-Z]+$/);
    await admin.page.getByTestId('message').filter({ hasText: 'Bom dia! Vocês entregam hoje?' }).waitFor();
    expect(await eventually(async () => (await notifications(admin.page)).find((n) => n.title === 'Nova mensagem'))).toEqual({
      title: 'Nova mensagem',
      body: 'Bom dia! Vocês entregam hoje?',
    });
    await second.page.getByTestId('inbox-contact').filter({ hasText: 'Helena Prado' }).waitFor({ timeout: 20_000 });
    await expectAccessible(admin.page, '/inbox/{id}');

    // A text reply: shown at once, then acknowledged by the channel (one tick).
    const box = admin.page.getByLabel('Mensagem', { exact: true });
    await box.fill('Entregamos sim, até as 18h.');
    await box.press('Enter');
    const reply = admin.page.getByTestId('message').filter({ hasText: 'Entregamos sim, até as 18h.' });
    await reply.waitFor();
    await reply.locator('[data-ack="1"]').waitFor({ timeout: 20_000 });
    expect(await admin.page.getByTestId('message').filter({ hasText: 'Entregamos sim, até as 18h.' }).count()).toBe(1);

    // A file with its caption, through the presigned upload.
    await admin.page
      .getByTestId('file-input')
      .setInputFiles({ name: 'catalogo.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% catálogo\n') });
    await admin.page.getByLabel('Legenda de catalogo.pdf').fill('Nosso catálogo');
    await admin.page.getByRole('button', { name: 'Enviar', exact: true }).click();
    const doc = admin.page.getByTestId('message').filter({ hasText: 'Nosso catálogo' });
    await doc.getByText('catalogo.pdf').waitFor();
    await doc.locator('[data-ack="1"]').waitFor({ timeout: 20_000 });

    // A voice note from chromium's fake microphone.
    await admin.page.getByRole('button', { name: 'Gravar áudio (R)' }).click();
    await admin.page.getByText('Gravando').waitFor();
    await admin.page.getByTestId('recording-timer').filter({ hasText: '00:01' }).waitFor({ timeout: 10_000 });
    await admin.page.getByRole('button', { name: 'Enviar áudio' }).click();
    const voice = admin.page.getByTestId('message').filter({ has: admin.page.getByLabel('Mensagem de voz') });
    await voice.locator('[data-ack="1"]').waitFor({ timeout: 20_000 });

    // Telegram got each with its own method: the text, the PDF with its caption, the voice note.
    const sent = await eventually(async () => (bot.sent.filter((s) => s.answer.ok).length >= 3 ? bot.sent : null));
    expect(sent.map((s) => s.method)).toEqual(['sendMessage', 'sendDocument', 'sendVoice']);
    expect(sent.every((s) => String(s.params.chat_id) === String(helena.id))).toBe(true);
    expect(sent[0]!.params.text).toBe('Entregamos sim, até as 18h.');
    expect(sent[1]!.file?.name).toBe('catalogo.pdf');
    expect(sent[1]!.params.caption).toBe('Nosso catálogo');

    // The colleague sees the conversation live; the other account saw nothing at all.
    await second.page.getByTestId('inbox-contact').filter({ hasText: 'Helena Prado' }).click();
    await second.page.getByTestId('message').filter({ hasText: 'Entregamos sim, até as 18h.' }).waitFor();
    await second.page.getByTestId('message').filter({ hasText: 'Nosso catálogo' }).waitFor();
    bot.receive(helena, { text: 'Perfeito, obrigada!' });
    await second.page.getByTestId('message').filter({ hasText: 'Perfeito, obrigada!' }).waitFor({ timeout: 20_000 });
    await admin.page.getByTestId('message').filter({ hasText: 'Perfeito, obrigada!' }).waitFor({ timeout: 20_000 });
    expect(await other.page.getByText('Helena Prado').count()).toBe(0);
    expect(await other.page.getByText('Nenhum registro encontrado').count()).toBe(1);

    for (const p of [admin, second, other]) {
      expect(p.errors).toEqual([]);
      await p.context.close();
    }
  });

  it('shows the disconnected and archived notices above a composer of internal notes only', async () => {
    const team = await newTeam(world, 'Papelaria Sol');
    const service = (await callApi(world.base, 'POST', '/services', { name: 'Zap da Papelaria', type: 'whatsapp' }, team.owner.token)).body;
    const contact = (
      await callApi(
        world.base,
        'POST',
        '/contacts',
        { name: 'Carlos Dias', serviceId: service.id, data: { phoneNumber: '5511912345678', phoneCountry: 'BR' } },
        team.owner.token,
      )
    ).body;
    const { page, context, errors } = await newPage(world.browser);
    await openAs(page, world, team.owner, `/inbox/${contact.id}`);
    await page.getByText('Conexão desconectada').waitFor();
    expect(await page.getByLabel('Mensagem', { exact: true }).count()).toBe(0);
    // A note never reaches the channel: the team writes it with the connection down.
    const noteBox = page.getByLabel('Texto da nota interna');
    await noteBox.fill('Conexão caiu; ligar para o cliente.');
    await noteBox.press('Enter');
    const notes = page.locator('[data-testid="message"][data-kind="note"]');
    await notes.filter({ hasText: 'Conexão caiu; ligar para o cliente.' }).waitFor();
    await expectAccessible(page, '/inbox/{id} (connection down, notes only)');
    await setServiceStatus(world, team.owner.accountId, service.id, 'connected');
    await page.getByLabel('Mensagem', { exact: true }).waitFor({ timeout: 20_000 });
    await callApi(world.base, 'POST', `/contacts/${contact.id}/archive`, { archive: true }, team.owner.token);
    await page.getByText('Contato arquivado').waitFor({ timeout: 20_000 });
    await noteBox.fill('Arquivado a pedido do cliente.');
    await noteBox.press('Enter');
    await notes.filter({ hasText: 'Arquivado a pedido do cliente.' }).waitFor();
    // The bubble shows as soon as the note is written; its POST may still be on its way (a loaded run once read one note).
    const savedNotes = async () => {
      const saved = await callApi(
        world.base,
        'GET',
        `/messages?query=${encodeURIComponent(JSON.stringify({ where: { contactId: contact.id } }))}`,
        undefined,
        team.owner.token,
      );
      return (saved.body.data as { kind: string; text: string }[]).filter((m) => m.kind === 'note').map((m) => m.text);
    };
    await eventually(async () => (await savedNotes()).length === 2);
    expect(await savedNotes()).toEqual(['Arquivado a pedido do cliente.', 'Conexão caiu; ligar para o cliente.']);
    await page.getByRole('link', { name: 'Ver contatos' }).click();
    await page.waitForURL(/\/contacts$/);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('older messages', () => {
  it("'Carregar mais mensagens' adds the older page above and keeps what was on screen in place", async () => {
    const team = await newTeam(world, 'Livraria Página');
    const botToken = `${800_000 + (Date.now() % 100_000)}:AAH-livraria`;
    const bot = world.telegram.addBot(botToken, 'Livraria');
    const service = (await callApi(world.base, 'POST', '/services', { name: 'Bot da Livraria', type: 'telegram', token: botToken }, team.owner.token)).body;
    await callApi(world.base, 'POST', `/services/${service.id}/start`, {}, team.owner.token);
    await eventually(async () => bot.polling);
    const reader = { id: 777_001, first_name: 'Rita', last_name: 'Leitora' };
    // Sent in one second half a minute ago (delivered late, as Telegram does after an outage): every
    // message takes that second's last millisecond, and only their ids keep their order.
    const date = Math.floor(Date.now() / 1000) - 30;
    for (let i = 1; i <= 14; i++) bot.receive(reader, { text: `Mensagem número ${String(i).padStart(2, '0')}`, date });
    const contact = await eventually(async () => {
      const list = await callApi(world.base, 'GET', '/contacts', undefined, team.owner.token);
      const found = list.body.data.find((c: { name: string }) => c.name === 'Rita Leitora');
      return found?.lastMessage?.text === 'Mensagem número 14' ? found : null;
    });

    const { page, context, errors } = await newPage(world.browser, { width: 1280, height: 800 });
    await openAs(page, world, team.owner, `/inbox/${contact.id}`);
    const bubble = (n: number) => page.getByTestId('message').filter({ hasText: `Mensagem número ${String(n).padStart(2, '0')}` });
    await bubble(14).waitFor();
    // Opening follows the newest message down, once more after the rows are measured: wait for
    // the scroll area to rest there, or that late follow moves the view after it is measured here.
    const scrollTop = () => page.getByTestId('messages-scroll').evaluate((el) => el.scrollTop);
    await resting(scrollTop);
    const more = page.getByRole('button', { name: 'Carregar mais mensagens' });
    await more.scrollIntoViewIfNeeded();
    await bubble(5).waitFor();
    expect(await bubble(4).count()).toBe(0);
    await resting(scrollTop);
    const before = (await bubble(5).boundingBox())!;
    await more.click();
    await bubble(4).waitFor();
    await bubble(1).waitFor({ state: 'attached' });
    // The rows above are measured over a few frames; the position settles within that.
    await expect.poll(async () => Math.abs((await bubble(5).boundingBox())!.y - before.y), { timeout: 3000 }).toBeLessThanOrEqual(4);
    expect(await page.getByRole('button', { name: 'Carregar mais mensagens' }).count()).toBe(0);
    // In the order Rita sent them, the burst's ties in time included.
    const shown = (await page.getByTestId('message').allTextContents()).map((text) => /Mensagem número (\d\d)/.exec(text)?.[1]).filter(Boolean);
    expect(shown).toEqual(Array.from({ length: 14 }, (_, i) => String(i + 1).padStart(2, '0')));
    expect(errors).toEqual([]);
    await context.close();
  });
});
