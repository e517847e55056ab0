/**
 * Template components as the Cloud API takes them (ADR-0222): the builder's
 * shapes for a text or media header, the body, URL / copy-code / quick-reply buttons, and the
 * adapter sending them to the Graph API double, which checks them as Graph does (132000 for a
 * count that differs, 132012 for a header of another format).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TemplateSendSpec } from '#contracts/template-fill.ts';
import { cloudCredentialsToken } from '#domain/channels/cloud-credentials.ts';
import { ChannelSendError, type ChannelConnection, type OutboundMessage } from '#domain/channels/port.ts';
import { type FakeGraphApi, type FakeNumber, startFakeGraphApi } from '../../tests/support/fake-graph-api.ts';
import { cloudErrorMeaning } from './errors.ts';
import { sendWhatsappCloud } from './send.ts';
import { templateBody, templateComponents } from './template-components.ts';

describe('templateComponents', () => {
  it('builds a text header, the body in order and a URL suffix and a copy code by button index', () => {
    const spec: TemplateSendSpec = {
      name: 'pedido_saiu',
      language: 'pt_BR',
      parameters: ['Joana', '1234'],
      header: { type: 'text', text: '1234' },
      buttons: [
        { index: 1, subType: 'url', value: '1234' },
        { index: 2, subType: 'copy_code', value: 'VOLTE10' },
      ],
    };
    expect(templateComponents(spec, null)).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: '1234' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Joana' },
          { type: 'text', text: '1234' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: '1234' }] },
      { type: 'button', sub_type: 'copy_code', index: '2', parameters: [{ type: 'coupon_code', coupon_code: 'VOLTE10' }] },
    ]);
  });

  it('sends a media header by its uploaded id, a document with its file name, and a quick reply payload', () => {
    const image: TemplateSendSpec = { name: 'promo', language: 'pt_BR', parameters: [], header: { type: 'image' } };
    expect(templateComponents(image, { id: '777', filename: 'banner.png' })).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { id: '777' } }] },
    ]);
    const doc: TemplateSendSpec = {
      name: 'boleto',
      language: 'pt_BR',
      parameters: ['Joana'],
      header: { type: 'document' },
      buttons: [{ index: 0, subType: 'quick_reply', value: 'PAGO' }],
    };
    expect(templateComponents(doc, { id: '778', filename: 'boleto.pdf' })).toEqual([
      { type: 'header', parameters: [{ type: 'document', document: { id: '778', filename: 'boleto.pdf' } }] },
      { type: 'body', parameters: [{ type: 'text', text: 'Joana' }] },
      { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'PAGO' }] },
    ]);
  });

  it('leaves components out when a template takes no values', () => {
    expect(templateBody({ name: 'boas_vindas', language: 'pt_BR', parameters: [] }, null)).toEqual({
      type: 'template',
      template: { name: 'boas_vindas', language: { code: 'pt_BR' } },
    });
  });
});

describe('template sends against the Graph double', () => {
  const TOKEN = 'EAAGtemplatecomponents0123456789';
  const APP_SECRET = '0123456789abcdef0123456789abcdef';
  const CUSTOMER = { waId: '5511987654321', name: 'Joana Souza' };
  let fake: FakeGraphApi & { close(): Promise<void> };
  let number: FakeNumber;
  let connection: ChannelConnection;

  beforeAll(async () => {
    fake = await startFakeGraphApi({ appSecret: APP_SECRET });
    process.env.WHATSAPP_CLOUD_GRAPH_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.WHATSAPP_CLOUD_GRAPH_URL;
    await fake.close();
  });
  beforeEach(() => {
    fake.addToken(TOKEN);
    number = fake.addNumber({ displayPhoneNumber: '+55 11 3000-2000', verifiedName: 'Loja Serra Azul' });
    connection = {
      accountId: 'A1',
      serviceId: 'S1',
      type: 'whatsapp_cloud',
      token: cloudCredentialsToken({ phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken: TOKEN, appSecret: APP_SECRET }),
    };
    fake.addTemplate(number.wabaId, {
      name: 'boleto_pronto',
      language: 'pt_BR',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'DOCUMENT' },
        { type: 'BODY', text: 'Olá {{1}}, seu boleto está pronto.' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Pagar', url: 'https://loja.example.com/boleto/{{1}}' },
            { type: 'QUICK_REPLY', text: 'Já paguei' },
          ],
        },
      ],
    });
  });

  const pdf = {
    name: 'boleto.pdf',
    mimetype: 'application/pdf',
    size: 9,
    read: async () => new Uint8Array(Buffer.from('%PDF-1.4\n')),
    url: 'https://bucket.example/boleto.pdf',
  };
  const message = (template: TemplateSendSpec, file: OutboundMessage['file']): OutboundMessage => ({
    messageId: 'm1',
    to: CUSTOMER.waId,
    type: file ? 'document' : 'text',
    text: '',
    file,
    replyTo: null,
    template,
  });
  const spec: TemplateSendSpec = {
    name: 'boleto_pronto',
    language: 'pt_BR',
    parameters: ['Joana'],
    header: { type: 'document' },
    buttons: [{ index: 0, subType: 'url', value: '98765' }],
  };

  it('uploads the header file and sends it by id with the URL suffix; Meta takes it', async () => {
    const sent = await sendWhatsappCloud(connection, message(spec, pdf));
    expect(sent.channelMessageId).toMatch(/^wamid\./);
    const wire = fake.sent.at(-1)!;
    expect(wire.status).toBe(200);
    const header = wire.body.template.components[0];
    expect(header).toEqual({ type: 'header', parameters: [{ type: 'document', document: { id: expect.any(String), filename: 'boleto.pdf' } }] });
    expect(fake.media.get(header.parameters[0].document.id)?.mimeType).toBe('application/pdf');
    expect(wire.body.template.components[2]).toEqual({ type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '98765' }] });
  });

  it('answers 132000 for a count that differs and 132012 for a header of another format, final on the bubble', async () => {
    const noSuffix = await sendWhatsappCloud(connection, message({ ...spec, buttons: [] }, pdf)).catch((e: unknown) => e);
    expect(noSuffix).toBeInstanceOf(ChannelSendError);
    expect((noSuffix as ChannelSendError).message).toBe(cloudErrorMeaning(132000).text);
    expect(fake.sent.at(-1)!.answer).toMatchObject({
      error: { code: 132000, message: '(#132000) Number of parameters does not match the expected number of params' },
    });
    expect(fake.sent.at(-1)!.answer.error.error_data.details).toBe(
      'button at index 0 of sub_type url: number of localizable_params (0) does not match the expected number of params (1)',
    );

    const png = { ...pdf, name: 'boleto.png', mimetype: 'image/png', read: async () => new Uint8Array(Buffer.from('\x89PNG')) };
    const asImage = await sendWhatsappCloud(connection, message({ ...spec, header: { type: 'image' } }, png)).catch((e: unknown) => e);
    expect((asImage as ChannelSendError).message).toBe(cloudErrorMeaning(132012).text);
    expect(fake.sent.at(-1)!.answer.error.error_data.details).toBe('header: Format mismatch, expected DOCUMENT, received IMAGE');

    const noHeader = await sendWhatsappCloud(connection, message({ ...spec, header: undefined }, null)).catch((e: unknown) => e);
    expect((noHeader as ChannelSendError).message).toBe(cloudErrorMeaning(132000).text);
  });
});
