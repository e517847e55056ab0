/**
 * WhatsApp (API oficial) message templates over HTTP, against a local runtime of the file's own
 * (its clock moved by the test) with the Graph API double standing in for Meta: a template created
 * from the form's fields reaches Meta PENDING, Meta's webhook approves it live (a realtime
 * `template.UPDATED`), and it goes to a customer whose 24-hour window closed while free text does
 * not; one not approved is refused before it is stored; Meta's 132001 (deleted at Meta) and 132000
 * (parameter count) fail the message with their pt-BR reasons; a document header goes uploaded and
 * by id with a URL button's suffix, the file checked against the header's format first; a sync reads every page of Meta's
 * list and drops what Meta deleted; bad input answers the catalogue's texts; members read and
 * cannot write.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { errorTexts } from '#contracts/errors.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { templateFillTexts } from '#contracts/template-fill.ts';
import { templateTexts } from '#contracts/templates.ts';
import { cloudErrorMeaning } from '#connectors/whatsapp-cloud/errors.ts';
import { keys } from '#db/keys.ts';
import { SERVICE_WINDOW_MS } from '../support/fake-graph-api.ts';
import { realtimeUrl } from '../support/realtime-url.ts';
import { strongPassword, uniqueEmail } from './api.ts';
import { cloudGraphWorld } from './cloud-graph-world.ts';
import { eventually } from './worker.ts';

const APP_SECRET = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const CUSTOMER = { waId: '5511944443333', name: 'Joana Souza' };
const START = Math.floor(Date.now() / 1000) * 1000;
const HOUR = 60 * 60 * 1000;

const world = cloudGraphWorld('conversa-cloud-templates-', { appSecret: APP_SECRET, start: START });
const { own, serverClockAt } = world;
const call = own.call;

let seq = 0;

/** An owner (Pro, so it may add a member) with a started WhatsApp (API oficial) connection. */
async function newLine() {
  const person = await call('POST', '/auth/register', { body: { name: 'Dona da Doceria', email: uniqueEmail('cloudtpl'), password: strongPassword } });
  const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: 'Doceria' } });
  const token = account.body.accessToken as string;
  const accountId = account.body.id as string;
  await own.ports().table.doc.send(
    new UpdateCommand({
      TableName: own.ports().table.name,
      Key: keys.account(accountId),
      UpdateExpression: 'SET #plan = :plan',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': { productName: 'Pro', users: 5, connections: 5, contacts: 1000 } },
    }),
  );
  const accessToken = `EAAGtemplates${++seq}x${Date.now()}`;
  world.fake().addToken(accessToken);
  const number = world.fake().addNumber({ displayPhoneNumber: `+55 11 3${String(seq).padStart(3, '0')}-4000`, verifiedName: 'Doceria da Ana' });
  const created = await call('POST', '/services', {
    token,
    body: { name: 'Oficial', type: 'whatsapp_cloud', phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken, appSecret: APP_SECRET },
  });
  expect(created.status).toBe(201);
  expect((await call('POST', `/services/${created.body.id}/start`, { token })).status).toBe(200);
  const memberEmail = uniqueEmail('membro');
  const member = await call('POST', '/users', { token, body: { name: 'Membro', email: memberEmail, password: strongPassword, isAdmin: false } });
  expect(member.status).toBe(201);
  const login = await call('POST', '/auth/login', { body: { email: memberEmail, password: strongPassword, accountId } });
  return {
    token,
    accountId,
    memberToken: login.body.accessToken as string,
    number,
    serviceId: created.body.id as string,
    url: `${own.runtime().url}${created.body.webhook.path}`,
  };
}
type Line = Awaited<ReturnType<typeof newLine>>;

const pedido = {
  name: 'pedido_enviado',
  category: 'UTILITY',
  body: 'Olá {{1}}, seu pedido {{2}} saiu para entrega.',
  examples: ['Joana', '1234'],
  footer: 'Doceria da Ana',
  buttons: [{ type: 'QUICK_REPLY', text: 'Obrigado' }],
};

async function messages(line: Line, contactId: string): Promise<any[]> {
  const page = await call('GET', `/messages${listQueryString({ where: { contactId }, perPage: 50 })}`, { token: line.token });
  expect(page.status).toBe(200);
  return page.body.data;
}

/** The customer wrote at `at` (both clocks there), then both clocks move to `now`; answers the contact's id. */
async function customerWrote(line: Line, at: number, now: number): Promise<string> {
  serverClockAt(at);
  world.fake().setNow(at);
  const { payload } = world.fake().inbound(line.number.phoneNumberId, CUSTOMER, { type: 'text', body: 'Cadê meu pedido?' });
  const [d] = await world.fake().deliver(payload, { url: line.url });
  expect(d!.status).toBe(204);
  serverClockAt(now);
  world.fake().setNow(now);
  const contacts = await call('GET', '/contacts', { token: line.token });
  return contacts.body.data[0].id as string;
}

describe('WhatsApp (API oficial) message templates', () => {
  it('are created PENDING at Meta, approved live by the webhook, and sent after the window closed where free text is not', async () => {
    serverClockAt(START);
    world.fake().setNow(START);
    const line = await newLine();

    const created = await call('POST', `/services/${line.serviceId}/templates`, { token: line.token, body: pedido });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'pedido_enviado', language: 'pt_BR', category: 'UTILITY', status: 'PENDING', variableCount: 2 });
    const atMeta = world.fake().templates.get(created.body.id);
    expect(atMeta).toMatchObject({ name: 'pedido_enviado', language: 'pt_BR', status: 'PENDING' });
    expect(atMeta!.components.find((c) => c.type === 'BODY')).toMatchObject({ text: pedido.body, example: { body_text: [['Joana', '1234']] } });
    expect(atMeta!.components.find((c) => c.type === 'BUTTONS')?.buttons).toEqual([{ type: 'QUICK_REPLY', text: 'Obrigado' }]);

    // Approved at Meta: the webhook moves the stored template, and the screen hears of it.
    const ws = new WebSocket(await realtimeUrl(own.runtime().url, line.memberToken));
    const events: { event: string; data: any }[] = [];
    ws.on('message', (data) => events.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      const [d] = await world.fake().deliver(world.fake().approveTemplate(created.body.id), { url: line.url });
      expect(d!.status).toBe(204);
      const live = await eventually(async () => events.find((e) => e.event === 'template.UPDATED' && e.data.id === created.body.id), 10_000);
      expect(live.data).toMatchObject({ status: 'APPROVED', name: 'pedido_enviado' });
    } finally {
      ws.close();
    }
    // Members read the templates (to send one).
    const listed = await call('GET', `/services/${line.serviceId}/templates`, { token: line.memberToken });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: created.body.id, status: 'APPROVED' })]);

    // The customer wrote 25 hours ago: the window is closed on both clocks.
    const contactId = await customerWrote(line, START + HOUR, START + HOUR + SERVICE_WINDOW_MS + HOUR);
    const free = await call('POST', '/messages/send', { token: line.memberToken, body: { contactId, serviceId: line.serviceId, text: 'Oi, Joana!' } });
    // Refused before Meta: the server knows the window (ADR-0212).
    expect(free.status).toBe(400);
    expect(free.body.message).toBe(errorTexts.customerWindowClosed);
    expect(world.fake().sent.filter((s) => s.phoneNumberId === line.number.phoneNumberId)).toEqual([]);

    const sent = await call('POST', '/messages/send', {
      token: line.memberToken,
      body: { contactId, serviceId: line.serviceId, template: { name: 'pedido_enviado', language: 'pt_BR', parameters: ['{{primeiro_nome}}', '1234'] } },
    });
    expect(sent.status).toBe(201);
    // The conversation shows the buttons as text under the footer.
    expect(sent.body.text).toBe('Olá Joana, seu pedido 1234 saiu para entrega.\n\nDoceria da Ana\n\n[Obrigado]');
    const delivered = await eventually(async () => (await messages(line, contactId)).find((m) => m.id === sent.body.id && m.ack === 1), 10_000);
    expect(delivered.error).toBeNull();
    const wire = world.fake().accepted.find((s) => s.phoneNumberId === line.number.phoneNumberId && s.body.type === 'template');
    expect(wire?.body).toMatchObject({
      to: CUSTOMER.waId,
      template: {
        name: 'pedido_enviado',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Joana' },
              { type: 'text', text: '1234' },
            ],
          },
        ],
      },
    });

    // The parameters are checked against the stored template before anything is stored.
    const short = await call('POST', '/messages/send', {
      token: line.memberToken,
      body: { contactId, serviceId: line.serviceId, template: { name: 'pedido_enviado', parameters: ['Joana'] } },
    });
    expect(short.status).toBe(400);
    expect(short.body.details).toEqual([{ path: 'template.parameters', message: templateTexts.parameterCount(2) }]);
    const unknown = await call('POST', '/messages/send', {
      token: line.memberToken,
      body: { contactId, serviceId: line.serviceId, template: { name: 'nao_existe', parameters: [] } },
    });
    expect(unknown.body.details).toEqual([{ path: 'template.name', message: templateTexts.templateNotFound }]);
    const empty = await call('POST', '/messages/send', {
      token: line.memberToken,
      body: { contactId, serviceId: line.serviceId, template: { name: 'pedido_enviado', parameters: ['{{email}}', '1'] } },
    });
    expect(empty.body.details).toEqual([{ path: 'template.parameters.0', message: templateTexts.parameterEmpty(1) }]);

    // One not approved yet is refused before anything is stored: Meta would refuse it too.
    const pending = await call('POST', `/services/${line.serviceId}/templates`, {
      token: line.token,
      body: { name: 'promocao_natal', category: 'MARKETING', body: 'Feliz Natal! Use o cupom NATAL na loja.' },
    });
    expect(pending.body.status).toBe('PENDING');
    const early = await call('POST', '/messages/send', {
      token: line.memberToken,
      body: { contactId, serviceId: line.serviceId, template: { name: 'promocao_natal' } },
    });
    expect(early.status).toBe(400);
    expect(early.body.details).toEqual([{ path: 'template.name', message: templateTexts.templateNotApproved('PENDING') }]);
    expect((await messages(line, contactId)).some((m) => m.text?.startsWith('Feliz Natal'))).toBe(false);

    // Meta's own refusals land on the bubble: approved here, deleted at Meta since (132001) ...
    const [approval] = await world.fake().deliver(world.fake().approveTemplate(pending.body.id), { url: line.url });
    expect(approval!.status).toBe(204);
    await eventually(
      async () =>
        (await call('GET', `/services/${line.serviceId}/templates`, { token: line.token })).body.data.find(
          (t: any) => t.id === pending.body.id && t.status === 'APPROVED',
        ),
      10_000,
    );
    world.fake().templates.delete(pending.body.id);
    const gone = await call('POST', '/messages/send', {
      token: line.memberToken,
      body: { contactId, serviceId: line.serviceId, template: { name: 'promocao_natal' } },
    });
    expect(gone.status).toBe(201);
    const refused = await eventually(async () => (await messages(line, contactId)).find((m) => m.id === gone.body.id && m.ack === -2), 10_000);
    expect(refused.error).toBe(cloudErrorMeaning(132001).text);
    // A failed template may be tried again with the window closed (free text may not).
    const again = await call('POST', `/messages/${gone.body.id}/retry`, { token: line.memberToken, body: { contactId } });
    expect(again.status).toBe(200);
    expect(again.body.ack).toBe(0);
    await eventually(async () => (await messages(line, contactId)).find((m) => m.id === gone.body.id && m.ack === -2), 10_000);
    // ... and a template edited at Meta to a third variable our copy does not know (132000).
    const body = world
      .fake()
      .templates.get(created.body.id)!
      .components.find((c) => c.type === 'BODY')!;
    body.text = 'Olá {{1}}, seu pedido {{2}} saiu para entrega em {{3}}.';
    const stale = await call('POST', '/messages/send', {
      token: line.memberToken,
      body: { contactId, serviceId: line.serviceId, template: { name: 'pedido_enviado', parameters: ['Joana', '1234'] } },
    });
    expect(stale.status).toBe(201);
    const mismatch = await eventually(async () => (await messages(line, contactId)).find((m) => m.id === stale.body.id && m.ack === -2), 10_000);
    expect(mismatch.error).toBe(cloudErrorMeaning(132000).text);
  }, 60_000);

  it('sends a document header by upload and a URL button suffix, refuses a missing or mistyped file, and shows Meta’s 132000 on the bubble', async () => {
    serverClockAt(START);
    world.fake().setNow(START);
    const line = await newLine();
    const atMeta = world.fake().addTemplate(line.number.wabaId, {
      name: 'boleto_pronto',
      language: 'pt_BR',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'DOCUMENT', example: { header_handle: ['4::cGRm'] } },
        { type: 'BODY', text: 'Olá {{1}}, seu boleto de {{2}} está pronto.', example: { body_text: [['Joana', 'R$ 80']] } },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Pagar', url: 'https://loja.example.com/boleto/{{1}}', example: ['https://loja.example.com/boleto/123'] },
            { type: 'QUICK_REPLY', text: 'Já paguei' },
          ],
        },
      ],
    });
    expect((await call('POST', `/services/${line.serviceId}/templates/sync`, { token: line.token })).status).toBe(200);
    const listed = (await call('GET', `/services/${line.serviceId}/templates`, { token: line.memberToken })).body.data[0];
    expect(listed).toMatchObject({ name: 'boleto_pronto', headerFormat: 'DOCUMENT', header: null, variableCount: 2 });
    expect(listed.buttons).toEqual([
      { type: 'URL', text: 'Pagar', url: 'https://loja.example.com/boleto/{{1}}' },
      { type: 'QUICK_REPLY', text: 'Já paguei' },
    ]);
    const contactId = await customerWrote(line, START + HOUR, START + HOUR + SERVICE_WINDOW_MS + HOUR);
    const upload = async (name: string, mimetype: string, bytes: Buffer) => {
      const request = await call('POST', '/files/generate-url-to-upload', {
        token: line.memberToken,
        body: { name, mimetype, serviceId: line.serviceId, length: bytes.length, isPtt: false },
      });
      expect((await fetch(request.body.urlToUpload, { method: 'PUT', headers: { 'content-type': mimetype }, body: new Uint8Array(bytes) })).status).toBe(200);
      return request.body.file.id as string;
    };
    const template = { name: 'boleto_pronto', parameters: ['{{primeiro_nome}}', 'R$ 80'], buttons: ['98765', ''] };

    // The dialog's own checks, on the route: the header's file and the link's final part are required ...
    const bare = await call('POST', '/messages/send', {
      token: line.memberToken,
      body: { contactId, serviceId: line.serviceId, template: { ...template, buttons: [] } },
    });
    expect(bare.status).toBe(400);
    expect(bare.body.details).toEqual([
      { path: 'fileId', message: templateFillTexts.mediaMissing('DOCUMENT') },
      { path: 'template.buttons.0', message: templateFillTexts.urlSuffixEmpty('Pagar') },
    ]);
    // ... and a file of the header's type (an image for a document header is refused).
    const png = await upload('boleto.png', 'image/png', Buffer.from('89504e470d0a1a0a', 'hex'));
    const wrong = await call('POST', '/messages/send', { token: line.memberToken, body: { contactId, serviceId: line.serviceId, template, fileId: png } });
    expect(wrong.body.details).toEqual([{ path: 'fileId', message: templateFillTexts.mediaWrongType('DOCUMENT') }]);
    expect(world.fake().sent.filter((s) => s.phoneNumberId === line.number.phoneNumberId)).toEqual([]);

    const pdf = Buffer.from('%PDF-1.4\n% boleto de Joana\n');
    const sent = await call('POST', '/messages/send', {
      token: line.memberToken,
      body: { contactId, serviceId: line.serviceId, template, fileId: await upload('boleto.pdf', 'application/pdf', pdf) },
    });
    expect(sent.status).toBe(201);
    // The conversation shows the header as the message's file and the buttons as text.
    expect(sent.body).toMatchObject({ type: 'document', file: { name: 'boleto.pdf', mimetype: 'application/pdf' } });
    expect(sent.body.text).toBe('Olá Joana, seu boleto de R$ 80 está pronto.\n\n[Pagar] https://loja.example.com/boleto/98765\n[Já paguei]');
    await eventually(async () => (await messages(line, contactId)).find((m) => m.id === sent.body.id && m.ack === 1), 10_000);
    const wire = world.fake().accepted.find((s) => s.phoneNumberId === line.number.phoneNumberId && s.body.type === 'template');
    const [header, body, button] = wire!.body.template.components;
    expect(header).toEqual({ type: 'header', parameters: [{ type: 'document', document: { id: expect.any(String), filename: 'boleto.pdf' } }] });
    expect(world.fake().media.get(header.parameters[0].document.id)?.bytes).toEqual(pdf);
    expect(body.parameters).toEqual([
      { type: 'text', text: 'Joana' },
      { type: 'text', text: 'R$ 80' },
    ]);
    expect(button).toEqual({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '98765' }] });

    // A coupon button added at Meta that our copy does not know yet: Meta counts 0 of 1 (132000), on the bubble.
    atMeta.components.find((c) => c.type === 'BUTTONS')!.buttons!.push({ type: 'COPY_CODE', text: 'Copiar código' });
    const stale = await call('POST', '/messages/send', {
      token: line.memberToken,
      body: { contactId, serviceId: line.serviceId, template, fileId: await upload('boleto.pdf', 'application/pdf', pdf) },
    });
    expect(stale.status).toBe(201);
    const refused = await eventually(async () => (await messages(line, contactId)).find((m) => m.id === stale.body.id && m.ack === -2), 10_000);
    expect(refused.error).toBe(cloudErrorMeaning(132000).text);
    expect(world.fake().sent.at(-1)!.answer.error.error_data.details).toBe(
      'button at index 2 of sub_type copy_code: number of localizable_params (0) does not match the expected number of params (1)',
    );
  }, 60_000);

  it('syncs every page of Meta’s list, with rejection reasons, and drops what Meta deleted', async () => {
    serverClockAt(START);
    world.fake().setNow(START);
    const line = await newLine();
    for (let i = 0; i < 104; i++) {
      world.fake().addTemplate(line.number.wabaId, {
        name: `aviso_${String(i).padStart(3, '0')}`,
        language: 'pt_BR',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: `Aviso ${i}: seu boleto vence em {{1}}.`, example: { body_text: [['10/12']] } }],
      });
    }
    const rejected = world.fake().addTemplate(line.number.wabaId, {
      name: 'oferta',
      language: 'pt_BR',
      category: 'MARKETING',
      status: 'REJECTED',
      rejected_reason: 'INVALID_FORMAT',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Oferta' },
        { type: 'BODY', text: 'Só hoje!' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Ver', url: 'https://loja.example.com' }] },
      ],
    });

    const first = await call('POST', `/services/${line.serviceId}/templates/sync`, { token: line.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: 105, updated: 0, removed: 0 });
    expect(first.body.data).toHaveLength(105);
    const list = await call('GET', `/services/${line.serviceId}/templates`, { token: line.token });
    expect(list.body.data).toHaveLength(105);
    expect(list.body.data.find((t: any) => t.name === 'aviso_103')).toMatchObject({ variableCount: 1, examples: ['10/12'], status: 'APPROVED' });
    expect(list.body.data.find((t: any) => t.id === rejected.id)).toMatchObject({
      status: 'REJECTED',
      rejectionReason: 'formato inválido',
      header: 'Oferta',
      buttons: [{ type: 'URL', text: 'Ver', url: 'https://loja.example.com' }],
    });

    // Deleted in Meta's manager, another approved there: the next sync follows.
    const gone = [...world.fake().templates.values()].find((t) => t.wabaId === line.number.wabaId && t.name === 'aviso_000')!;
    world.fake().templates.delete(gone.id);
    world.fake().setTemplateStatus(rejected.id, 'APPROVED');
    const second = await call('POST', `/services/${line.serviceId}/templates/sync`, { token: line.token });
    expect(second.body).toMatchObject({ created: 0, updated: 1, removed: 1 });
    expect(second.body.data).toHaveLength(104);

    // Deleting one here deletes it at Meta.
    const removed = await call('DELETE', `/services/${line.serviceId}/templates/${rejected.id}`, { token: line.token });
    expect(removed.status).toBe(204);
    expect(world.fake().templates.has(rejected.id)).toBe(false);
    expect((await call('GET', `/services/${line.serviceId}/templates`, { token: line.token })).body.data).toHaveLength(103);
    expect((await call('DELETE', `/services/${line.serviceId}/templates/${rejected.id}`, { token: line.token })).status).toBe(404);
  }, 60_000);

  it('answers bad input with the catalogue’s texts, a name taken with 409, and keeps members from writing', async () => {
    serverClockAt(START);
    world.fake().setNow(START);
    const line = await newLine();
    const path = `/services/${line.serviceId}/templates`;

    const bad = await call('POST', path, { token: line.token, body: { ...pedido, name: 'Pedido Enviado', examples: ['Joana'] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: errorTexts.invalidParams });
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: templateTexts.name },
        { path: 'examples.1', message: templateTexts.exampleMissing },
      ]),
    );
    const edge = await call('POST', path, { token: line.token, body: { ...pedido, body: '{{1}} chegou' } });
    expect(edge.body.details).toEqual([{ path: 'body', message: templateTexts.variableAtEdge }]);
    const noBody = await call('POST', path, { token: line.token, body: { name: 'x', category: 'UTILITY' } });
    expect(noBody.body.details).toEqual([{ path: 'body', message: 'Campo obrigatório' }]);
    expect([...world.fake().templates.values()].filter((t) => t.wabaId === line.number.wabaId)).toEqual([]);

    const member = await call('POST', path, { token: line.memberToken, body: pedido });
    expect(member.status).toBe(403);
    expect((await call('POST', `${path}/sync`, { token: line.memberToken })).status).toBe(403);
    expect([...world.fake().templates.values()].filter((t) => t.wabaId === line.number.wabaId)).toEqual([]);

    expect((await call('POST', path, { token: line.token, body: pedido })).status).toBe(201);
    const again = await call('POST', path, { token: line.token, body: pedido });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(errorTexts.templateExists);
    const made = (await call('GET', path, { token: line.token })).body.data[0];
    expect((await call('DELETE', `${path}/${made.id}`, { token: line.memberToken })).status).toBe(403);
  }, 60_000);
});
