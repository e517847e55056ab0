/**
 * Campaigns in the browser (ADR-0227), on a connected Telegram bot with two customers who
 * wrote to it, the campaigns' poller running every second: 'Campanhas' opens empty with what a
 * campaign is; 'Nova campanha' is filled through the form (the customers picked from the search,
 * the bot's connection, hours of its own every day, a gap of 1 s), 'Revisar campanha' shows the
 * plan's summary, 'Iniciar campanha' opens the progress, which reaches 'Concluída' with both sent
 * and the texts on the bot. axe clean on the three screens, light and at 390 px dark.
 * On a WhatsApp (API oficial) connection, Meta played by the Graph API double: 'Usar um modelo
 * aprovado' lists the connection's approved template, asks its header, body and link values, the
 * plan shows Meta's cost by country, and the campaign reaches the customer as the template with
 * her first name; the progress names the template.
 */
import { describe, expect, it } from 'vitest';
import { callApi, closeToasts, expectAccessible, newPage, root } from './browser.ts';
import { eventually, fileWorld, newTeam, openAs, type World } from './world.ts';

const APP_SECRET = 'c0ffee00c0ffee00c0ffee00c0ffee00';

let world: World;
fileWorld(
  (started) => {
    world = started;
  },
  { env: { CAMPAIGN_POLL_MS: '1000' }, graphApi: { appSecret: APP_SECRET } },
);

const shots = `${root}/.tmp/campaigns-shots`;

describe('campaigns', () => {
  it('creates a campaign through the form, sees its plan, starts it and follows it to Concluída', { timeout: 120_000 }, async () => {
    const { owner } = await newTeam(world, 'Floricultura Ipê', 'Sônia Ramos');
    const token = `${Date.now() % 1_000_000}:AAH-campaigns-e2e`;
    const bot = world.telegram.addBot(token, 'FloriculturaIpe');
    const service = (await callApi(world.base, 'POST', '/services', { name: 'Bot da Floricultura', type: 'telegram', token }, owner.token)).body;
    await callApi(world.base, 'POST', `/services/${service.id}/start`, {}, owner.token);
    await eventually(async () => (await callApi(world.base, 'GET', `/services/${service.id}`, undefined, owner.token)).body.status === 'connected');
    const people = [
      { id: 7_400_000 + (Date.now() % 1000), first_name: 'Bruna', last_name: 'Lopes' },
      { id: 7_401_000 + (Date.now() % 1000), first_name: 'Caio', last_name: 'Mendes' },
    ];
    // A third customer opted out of campaigns (ADR-0225): picked all the same, skipped when her turn comes.
    const optedOut = { id: 7_402_000 + (Date.now() % 1000), first_name: 'Débora', last_name: 'Castro' };
    for (const person of [...people, optedOut]) bot.receive(person, { text: 'Oi, vocês entregam?' });
    await eventually(async () => (await callApi(world.base, 'GET', '/contacts', undefined, owner.token)).body.data?.length === 3);
    bot.receive(optedOut, { text: 'SAIR' });
    await eventually(async () =>
      ((await callApi(world.base, 'GET', '/contacts', undefined, owner.token)).body.data as { optedOutAt: string | null }[]).some((c) => c.optedOutAt),
    );

    const { page, context, errors } = await newPage(world.browser, { width: 1280, height: 900 });
    await openAs(page, world, owner, '/campaigns');
    await page.getByRole('heading', { name: 'Nenhuma campanha ainda' }).waitFor();
    expect(await page.getByRole('link', { name: 'Campanhas' }).getAttribute('aria-current')).toBe('page');
    await expectAccessible(page, '/campaigns, empty');
    await page.screenshot({ path: `${shots}/campaigns-empty.png` });

    await page.getByRole('link', { name: 'Nova campanha' }).click();
    await page.getByLabel('Nome da campanha').fill('Flores de fim de ano');
    await page.getByRole('checkbox', { name: /^Bot da Floricultura · Telegram · Conectado/ }).check();
    await page.getByLabel('Buscar contatos').fill('Bruna');
    await page.getByRole('checkbox', { name: /Bruna Lopes/ }).check();
    await page.getByLabel('Buscar contatos').fill('Caio');
    await page.getByRole('checkbox', { name: /Caio Mendes/ }).check();
    await page.getByLabel('Buscar contatos').fill('Débora');
    await page.getByRole('checkbox', { name: /Débora Castro/ }).check();
    await page.getByText('3 contatos escolhidos', { exact: false }).waitFor();
    await page.getByLabel('Texto da mensagem').fill('Oi {{primeiro_nome}}, chegaram as flores de fim de ano!');
    await page.getByText('Para não receber mais mensagens como esta, responda SAIR.').waitFor();
    // Hours of its own, all day every day, so it sends now whatever the clock says.
    await page.getByLabel('Em horários próprios').check();
    await page.getByLabel('Das', { exact: true }).fill('00:00');
    await page.getByLabel('Até', { exact: true }).fill('00:00');
    await page.getByText('Sáb', { exact: true }).click();
    await page.getByText('Dom', { exact: true }).click();
    await page.getByLabel(/Intervalo mínimo/).fill('1');
    await page.getByLabel(/Intervalo máximo/).fill('1');
    await page.getByRole('button', { name: 'Revisar campanha' }).click();
    const plan = page.getByTestId('campaign-plan');
    await plan.waitFor();
    expect(await plan.textContent()).toMatch(/^3 destinatários, 0 ficam de fora, 0 primeiras mensagens, término estimado \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    await expectAccessible(page, '/campaigns/new with the plan');
    await page.screenshot({ path: `${shots}/campaign-new.png`, fullPage: true });

    await page.getByRole('button', { name: 'Iniciar campanha' }).click();
    await page.waitForURL((url) => /^\/campaigns\/(?!new$)[^/]+$/.test(url.pathname));
    const campaignPath = new URL(page.url()).pathname;
    await page.getByTestId('campaign-status').getByText('Concluída').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('count-sent').textContent()).toBe('2');
    expect(await page.getByTestId('count-queued').textContent()).toBe('0');
    await page.getByText('enviadas 2 de 3').waitFor();
    expect(await page.getByRole('button', { name: 'Pausar' }).count()).toBe(0);
    // Who did not get it, and why: the customer who opted out, her name opening the conversation.
    expect(await page.getByTestId('left-out-skipped').textContent()).toBe('Ignoradas (1)');
    const leftOut = page.getByTestId('left-out-list');
    await leftOut.getByRole('link', { name: 'Débora Castro' }).waitFor();
    expect(await leftOut.getByRole('listitem').count()).toBe(1);
    await leftOut.getByText('O contato pediu para não receber campanhas').waitFor();
    await leftOut.getByText('Bot da Floricultura').waitFor();
    const texts = bot.sent.filter((s) => s.method === 'sendMessage' && String(s.params.text).includes('flores de fim de ano'));
    expect(texts.map((s) => String(s.params.chat_id)).sort()).toEqual(people.map((p) => String(p.id)).sort());
    expect(String(texts.find((s) => String(s.params.chat_id) === String(people[0]!.id))!.params.text)).toBe(
      'Oi Bruna, chegaram as flores de fim de ano!\n\nPara não receber mais mensagens como esta, responda SAIR.',
    );
    await expectAccessible(page, '/campaigns/{id}, finished');
    await page.screenshot({ path: `${shots}/campaign-progress.png`, fullPage: true });

    // 'Campanha iniciada' covers the link.
    await closeToasts(page);
    await page.getByRole('link', { name: 'Campanhas' }).last().click();
    const row = page.getByTestId('campaign-row').filter({ hasText: 'Flores de fim de ano' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Início \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}enviadas 2 de 3Concluída/);
    await page.screenshot({ path: `${shots}/campaigns-list.png` });
    expect(errors).toEqual([]);
    await context.close();

    // The three screens on a phone, dark.
    const phone = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(phone.page, world, owner, '/campaigns');
    await phone.page.getByTestId('campaign-row').first().waitFor();
    await expectAccessible(phone.page, '/campaigns at 390 px, dark');
    await phone.page.screenshot({ path: `${shots}/campaigns-list-dark-390.png`, fullPage: true });
    await phone.page.goto(`${world.base}/campaigns/new`);
    await phone.page.getByLabel('Nome da campanha').waitFor();
    await phone.page.getByRole('button', { name: 'Revisar campanha' }).click();
    await phone.page.getByText('Escolha pelo menos uma conexão').waitFor();
    await expectAccessible(phone.page, '/campaigns/new at 390 px, dark, with errors');
    await phone.page.screenshot({ path: `${shots}/campaign-new-dark-390.png`, fullPage: true });
    await phone.page.goto(`${world.base}${campaignPath}`);
    await phone.page.getByTestId('campaign-status').getByText('Concluída').waitFor();
    await phone.page.getByTestId('left-out-list').getByRole('link', { name: 'Débora Castro' }).waitFor();
    await expectAccessible(phone.page, '/campaigns/{id} at 390 px, dark');
    await phone.page.screenshot({ path: `${shots}/campaign-progress-dark-390.png`, fullPage: true });
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it('sends an approved template from the API oficial, with its cost at the plan', { timeout: 120_000 }, async () => {
    const graph = world.graph!;
    const { owner } = await newTeam(world, 'Empório Serra Azul', 'Beatriz Nogueira');
    const accessToken = `EAAGcampaignse2e${Date.now().toString(36)}`;
    graph.addToken(accessToken);
    const number = graph.addNumber({ displayPhoneNumber: '+55 31 3333-4000', verifiedName: 'Empório Serra Azul' });
    const created = await callApi(
      world.base,
      'POST',
      '/services',
      { name: 'WhatsApp oficial', type: 'whatsapp_cloud', phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken, appSecret: APP_SECRET },
      owner.token,
    );
    expect(created.status).toBe(201);
    const serviceId = created.body.id as string;
    expect((await callApi(world.base, 'POST', `/services/${serviceId}/start`, {}, owner.token)).status).toBe(200);
    graph.addTemplate(number.wabaId, {
      name: 'ofertas_natal',
      language: 'pt_BR',
      category: 'MARKETING',
      status: 'APPROVED',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Ofertas para {{1}}', example: { header_text: ['Marina'] } },
        { type: 'BODY', text: 'Olá {{1}}, as cestas de Natal estão com {{2}} de desconto.', example: { body_text: [['Marina', '15%']] } },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Ver cestas', url: 'https://emporio.example.com/natal/{{1}}' }] },
      ],
    });
    expect((await callApi(world.base, 'POST', `/services/${serviceId}/templates/sync`, undefined, owner.token)).body).toMatchObject({ created: 1 });
    const customer = { waId: '5531977776666', name: 'Marina Duarte' };
    const [wrote] = await graph.deliver(graph.inbound(number.phoneNumberId, customer, { type: 'text', body: 'Vocês fazem cesta de Natal?' }).payload, {
      url: `${world.base}${created.body.webhook.path}`,
    });
    expect(wrote!.status).toBe(204);
    await eventually(async () => (await callApi(world.base, 'GET', '/contacts', undefined, owner.token)).body.data?.length === 1);

    const { page, context, errors } = await newPage(world.browser, { width: 1280, height: 900 });
    await openAs(page, world, owner, '/campaigns/new');
    await page.getByLabel('Nome da campanha').fill('Cestas de Natal');
    await page.getByRole('checkbox', { name: /^WhatsApp oficial · WhatsApp \(API oficial\)/ }).check();
    await page.getByLabel('Buscar contatos').fill('Marina');
    await page.getByRole('checkbox', { name: /Marina Duarte/ }).check();
    const toggle = page.getByRole('switch', { name: 'Modelo da API oficial: Usar um modelo aprovado' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await page.getByLabel('Modelo aprovado', { exact: true }).selectOption({ label: 'ofertas_natal · Marketing' });
    await page.getByLabel('Variável {{1}} do cabeçalho').fill('{{primeiro_nome}}');
    await page.getByLabel('Variável {{1}}', { exact: true }).fill('{{primeiro_nome}}');
    await page.getByLabel('Variável {{2}}', { exact: true }).fill('15%');
    await page.getByLabel('Final do link do botão “Ver cestas”').fill('cestas');
    // Only the official connection is chosen: no free text to write.
    expect(await page.getByLabel('Texto da mensagem').count()).toBe(0);
    await page.getByLabel('Em horários próprios').check();
    await page.getByLabel('Das', { exact: true }).fill('00:00');
    await page.getByLabel('Até', { exact: true }).fill('00:00');
    await page.getByText('Sáb', { exact: true }).click();
    await page.getByText('Dom', { exact: true }).click();
    await expectAccessible(page, '/campaigns/new with a template');
    await page.getByTestId('campaign-template').screenshot({ path: `${shots}/campaign-template.png` });
    await page.screenshot({ path: `${shots}/campaign-template-full.png`, fullPage: true });

    await page.getByRole('button', { name: 'Revisar campanha' }).click();
    const cost = page.getByTestId('campaign-cost');
    await cost.getByText('Custo estimado na Meta: US$ 0,0625 (categoria: Marketing)').waitFor();
    await cost.getByText('Custo por país').click();
    await cost.getByRole('row', { name: /Brasil/ }).waitFor();
    await expectAccessible(page, '/campaigns/new with a template, the plan and its cost');
    await cost.screenshot({ path: `${shots}/campaign-cost.png` });

    await page.getByRole('button', { name: 'Iniciar campanha' }).click();
    await page.waitForURL((url) => /^\/campaigns\/(?!new$)[^/]+$/.test(url.pathname));
    const campaignPath = new URL(page.url()).pathname;
    await page.getByTestId('campaign-template-name').getByText('ofertas_natal').waitFor();
    await page.getByTestId('campaign-status').getByText('Concluída').waitFor({ timeout: 60_000 });
    const sent = graph.accepted.filter((a) => a.phoneNumberId === number.phoneNumberId && a.body.to === customer.waId);
    expect(sent.map((a) => a.body.type)).toEqual(['template']);
    expect(sent[0]!.body.template).toMatchObject({
      name: 'ofertas_natal',
      components: [
        { type: 'header', parameters: [{ type: 'text', text: 'Marina' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Marina' },
            { type: 'text', text: '15%' },
          ],
        },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'cestas' }] },
      ],
    });
    await expectAccessible(page, '/campaigns/{id} with a template');
    expect(errors).toEqual([]);
    await context.close();

    // The form with the template chosen on a phone, dark.
    const phone = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(phone.page, world, owner, '/campaigns/new');
    await phone.page.getByRole('checkbox', { name: /^WhatsApp oficial/ }).check();
    await phone.page.getByRole('switch', { name: 'Modelo da API oficial: Usar um modelo aprovado' }).click();
    await phone.page.getByLabel('Modelo aprovado', { exact: true }).selectOption({ label: 'ofertas_natal · Marketing' });
    await phone.page.getByLabel('Variável {{1}}', { exact: true }).fill('{{primeiro_nome}}');
    await expectAccessible(phone.page, '/campaigns/new with a template at 390 px, dark');
    await phone.page.getByTestId('campaign-template').screenshot({ path: `${shots}/campaign-template-dark-390.png` });
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.page.goto(`${world.base}${campaignPath}`);
    await phone.page.getByTestId('campaign-template-name').waitFor();
    await phone.page.screenshot({ path: `${shots}/campaign-template-progress-dark-390.png`, fullPage: true });
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
