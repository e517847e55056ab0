/**
 * WhatsApp (API oficial) end to end in the browser, with Meta played by the Graph API double
 * (tests/support/fake-graph-api.ts, started before the runtime and given to it as
 * WHATSAPP_CLOUD_GRAPH_URL): an admin types the four credentials into the connection form (checked
 * with the double on save), starts the connection, reads its webhook URL and verify token in
 * 'Editar', and the double completes Meta's handshake with them. Then signed deliveries to that URL
 * reach the open inbox live, the reply from the composer reaches the double's /messages, its
 * statuses posted out of order (read before delivered) move the bubble's tick forward only, and a
 * customer's photo shows as an image read from the bucket. A customer whose message arrives 25 hours
 * late has a closed window: the conversation offers 'Enviar modelo', and an approved template (synced
 * from the double, with an image header and a link button) reaches Meta with her first name filled,
 * the picked image uploaded and sent by id and the link's final part; the bubble shows the image and
 * the button as text. axe-core on the form, the conversation and the template dialog.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import type { FakeGraphApi } from '../support/fake-graph-api.ts';
import { callApi, expectAccessible, newPage } from './browser.ts';
import { eventually, fileWorld, newTeam, openAs, type World } from './world.ts';

const APP_SECRET = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
/** Generous: the machine is shared, and each step crosses the runtime's stream and realtime fan-out. */
const live = { timeout: 20_000 };
/** A real 1×1 PNG, so the browser can decode what the bucket serves. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5b3c1f50000000049454e44ae426082',
  'hex',
);

let world: World;
let graph: FakeGraphApi;
fileWorld(
  (w) => {
    world = w;
    graph = w.graph!;
  },
  { graphApi: { appSecret: APP_SECRET } },
);

/** Tabs forward from the focused element until the button named `name` has focus. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((n) => document.activeElement?.tagName === 'BUTTON' && document.activeElement.textContent?.trim() === n, name)) return;
  }
  throw new Error(`Tab never reached the button '${name}'`);
}

describe('WhatsApp (API oficial), end to end over the local runtime with the Graph API double', () => {
  it('connects a number with typed credentials, passes the handshake, and the inbox receives, replies, shows acks and media live', async () => {
    const team = await newTeam(world, 'Empório Serra Azul', 'Beatriz Nogueira');
    const accessToken = `EAAGsystemuser${Date.now().toString(36)}Z9`;
    graph.addToken(accessToken);
    const number = graph.addNumber({ displayPhoneNumber: '+55 31 3333-4444', verifiedName: 'Empório Serra Azul', qualityRating: 'GREEN' });
    const { page, context, errors } = await newPage(world.browser);

    // Conexões → 'Nova conexão': the type selected shows the four credentials, typed key by key.
    await openAs(page, world, team.owner, '/services');
    await page.getByRole('heading', { name: 'Conexões', level: 1 }).waitFor();
    await page.getByText('Nenhum registro encontrado').waitFor();
    await page.getByRole('link', { name: 'Nova conexão' }).click();
    const create = page.getByRole('dialog', { name: 'Nova conexão' });
    await create.getByLabel('Nome').pressSequentially('WhatsApp oficial');
    await create.getByLabel('Tipo').selectOption({ label: 'WhatsApp (API oficial)' });
    await create.getByLabel('ID do número de telefone').pressSequentially(number.phoneNumberId);
    await create.getByLabel('ID da conta do WhatsApp Business (WABA)').pressSequentially(number.wabaId);
    await create.getByLabel('Token de acesso (usuário do sistema)').pressSequentially(accessToken);
    await create.getByLabel('Chave secreta do app').pressSequentially(APP_SECRET);
    await expectAccessible(page, '/services/create, WhatsApp (API oficial)');
    // Keyboard only from here: Tab to 'Criar' and Enter.
    await tabTo(page, 'Criar');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/services$/, live);
    await create.waitFor({ state: 'detached' });
    // The save asked Meta for the number: this token read this number.
    expect(graph.calls.some((c) => c.method === 'GET' && c.path.endsWith(`/${number.phoneNumberId}`) && c.token === accessToken)).toBe(true);

    // The list shows it with the number as Meta answered and its quality; 'Iniciar' connects it.
    const row = page.getByTestId('service-row').filter({ hasText: 'WhatsApp oficial' });
    await row.getByText('WhatsApp (API oficial)').waitFor();
    await row.getByText('Empório Serra Azul · +55 31 3333-4444').waitFor();
    await row.getByText('Qualidade: Alta').waitFor();
    await page.locator('html[data-realtime="open"]').waitFor({ state: 'attached', ...live });
    await row.getByRole('button', { name: 'Iniciar WhatsApp oficial', exact: true }).click();
    await row.getByText('Conectado', { exact: true }).waitFor(live);

    // 'Editar' shows the webhook the admin pastes into the Meta app; Meta's handshake passes with it.
    await row.getByRole('link', { name: 'Editar WhatsApp oficial' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar conexão' });
    const urlField = edit.getByLabel('URL de retorno', { exact: true });
    await urlField.waitFor(live);
    const callbackUrl = await urlField.inputValue();
    const verifyToken = await edit.getByLabel('Token de verificação', { exact: true }).inputValue();
    expect(callbackUrl).toMatch(new RegExp(`^${world.base}/api/webhooks/whatsapp-cloud/[0-9A-Z]+$`));
    expect(verifyToken.length).toBeGreaterThanOrEqual(40);
    expect(await graph.verifyCallback(callbackUrl, `${verifyToken}x`)).toMatchObject({ ok: false, status: 403 });
    expect(await graph.verifyCallback(callbackUrl, verifyToken)).toMatchObject({ ok: true, status: 200 });
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });

    // The inbox is open when the customer writes: the conversation and the message arrive live.
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await page.getByText('Nenhum registro encontrado').waitFor();
    const customer = { waId: '5531988887777', name: 'Rafael Teixeira' };
    const hello = 'Boa tarde! Ainda tem queijo canastra?';
    const [inbound] = await graph.deliver(graph.inbound(number.phoneNumberId, customer, { type: 'text', body: hello }).payload, { url: callbackUrl });
    expect(inbound!.status).toBe(204);
    await page.getByTestId('inbox-contact').filter({ hasText: customer.name }).waitFor(live);
    await page.waitForURL(/\/inbox\/[0-9A-Z]+$/, live);
    await page.getByTestId('message').filter({ hasText: hello }).waitFor(live);

    // The reply from the composer reaches Meta's /messages for this number, to this customer.
    const box = page.getByLabel('Mensagem', { exact: true });
    const reply = 'Temos sim, chegou hoje cedo.';
    await box.fill(reply);
    await box.press('Enter');
    const sent = await eventually(async () => graph.accepted.find((s) => s.phoneNumberId === number.phoneNumberId && s.body.text?.body === reply));
    expect(sent.body).toMatchObject({ messaging_product: 'whatsapp', to: customer.waId, type: 'text' });
    const bubble = page.getByTestId('message').filter({ hasText: reply });
    await bubble.locator('[data-ack="1"]').waitFor(live);

    // Statuses out of order: read arrives first and the tick goes to read; delivered after it does not undo it.
    const status = async (name: 'sent' | 'delivered' | 'read') => {
      const [d] = await graph.deliver(graph.status(sent.id!, name), { url: callbackUrl });
      expect(d!.status).toBe(204);
    };
    await status('read');
    await bubble.locator('[data-ack="3"]', { hasText: 'Lida' }).waitFor(live);
    await status('delivered');
    await status('sent');
    // Deliveries are stored before Meta is answered: the stored ack stayed at read.
    const contacts = await callApi(world.base, 'GET', '/contacts', undefined, team.owner.token);
    const contactId = contacts.body.data[0].id as string;
    const stored = await callApi(world.base, 'GET', `/messages${listQueryString({ where: { contactId }, perPage: 50 })}`, undefined, team.owner.token);
    expect(stored.body.data.find((m: { text?: string }) => m.text === reply)).toMatchObject({ ack: 3, isFromMe: true });
    // A later event that does reach the page (the photo below) proves the late statuses were processed before it.
    const caption = 'Foto da peça que comprei semana passada';
    const [photo] = await graph.deliver(graph.inbound(number.phoneNumberId, customer, { type: 'image', bytes: PNG, mime_type: 'image/png', caption }).payload, {
      url: callbackUrl,
    });
    expect(photo!.status).toBe(204);
    const image = page.getByTestId('message').filter({ hasText: caption }).getByRole('img', { name: caption });
    await image.waitFor(live);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), live).toBe(1);
    expect(await bubble.locator('[data-ack]').getAttribute('data-ack')).toBe('3');
    await bubble.locator('[data-ack="3"]', { hasText: 'Lida' }).waitFor();
    await expectAccessible(page, '/inbox/{id}, WhatsApp (API oficial)');

    // Another customer's message reaches us 25 hours late (Meta retries a delivery for up to 7 days):
    // her window is closed, so the conversation offers the connection's approved templates only.
    const serviceId = callbackUrl.split('/').pop()!;
    graph.addTemplate(number.wabaId, {
      name: 'retorno_atendimento',
      language: 'pt_BR',
      category: 'UTILITY',
      status: 'APPROVED',
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2U='] } },
        { type: 'BODY', text: 'Olá {{1}}, aqui é do Empório Serra Azul. Podemos continuar seu atendimento?', example: { body_text: [['Marina']] } },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Ver pedido', url: 'https://emporio.example.com/pedido/{{1}}' }] },
      ],
    });
    const synced = await callApi(world.base, 'POST', `/services/${serviceId}/templates/sync`, undefined, team.owner.token);
    expect(synced.body).toMatchObject({ created: 1 });
    const late = { waId: '5531977776666', name: 'Marina Duarte' };
    const now = graph.now();
    graph.setNow(now - 25 * 60 * 60 * 1000);
    const [old] = await graph.deliver(graph.inbound(number.phoneNumberId, late, { type: 'text', body: 'Vocês entregam em Nova Lima?' }).payload, {
      url: callbackUrl,
    });
    graph.setNow(now);
    expect(old!.status).toBe(204);
    await page.getByTestId('inbox-contact').filter({ hasText: late.name }).click(live);
    await page.getByText('Janela de 24 horas fechada').waitFor(live);
    await page.getByRole('button', { name: 'Enviar modelo', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar modelo de mensagem' });
    await dialog.getByLabel('Modelo').waitFor(live);
    await dialog.getByLabel('Variável {{1}}').fill('{{primeiro_nome}}');
    // Its image header and its link's final part are asked for, each on its labelled field.
    await dialog.getByRole('button', { name: 'Enviar modelo' }).click();
    await dialog.getByText('Escolha o arquivo do cabeçalho (JPG ou PNG)').waitFor();
    await dialog.getByText('Preencha o final do link do botão “Ver pedido”').waitFor();
    await dialog.getByLabel('Imagem do cabeçalho').setInputFiles({ name: 'pedido.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByLabel('Final do link do botão “Ver pedido”').fill('4521');
    const text = 'Olá Marina, aqui é do Empório Serra Azul. Podemos continuar seu atendimento?';
    await dialog
      .getByTestId('template-preview')
      .filter({ hasText: `${text}\n\n[Ver pedido] https://emporio.example.com/pedido/4521` })
      .waitFor();
    await dialog.getByRole('img', { name: 'Imagem do cabeçalho: pedido.png' }).waitFor();
    await expectAccessible(page, '/inbox/{id}, Enviar modelo de mensagem');
    await dialog.getByRole('button', { name: 'Enviar modelo' }).click();
    await dialog.waitFor({ state: 'detached', ...live });
    const template = await eventually(async () => graph.accepted.find((s) => s.body.type === 'template' && s.body.to === late.waId));
    expect(template.body.template).toMatchObject({
      name: 'retorno_atendimento',
      language: { code: 'pt_BR' },
      components: [
        { type: 'header', parameters: [{ type: 'image', image: { id: expect.any(String) } }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Marina' }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '4521' }] },
      ],
    });
    expect(graph.media.get(template.body.template.components[0].parameters[0].image.id)?.bytes).toEqual(PNG);
    // The bubble shows the header image like any photo, and the button as text.
    const sentBubble = page.getByTestId('message').filter({ hasText: '[Ver pedido] https://emporio.example.com/pedido/4521' });
    await sentBubble.locator('[data-ack="1"]').waitFor(live);
    await sentBubble.locator('img').first().waitFor(live);
    // Still closed: free text stays out of reach until she writes again.
    await page.getByText('Janela de 24 horas fechada').waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });
});
