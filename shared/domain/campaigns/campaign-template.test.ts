/**
 * A campaign with a message template (ADR-0227, "Templates"), on the real table
 * (dynalite) and a fake clock: the plan refuses on its fields a template missing on a chosen
 * connection of the API oficial, one not approved, values that do not match its components, an
 * unknown variable, a template with no such connection, and no text for a QR connection beside it;
 * it answers the cost. Sent, a Cloud recipient whose window closed gets the template (its first name
 * in the body, the message as `send-message.ts` stores one) once, the QR recipient the text, and a
 * contact whose field leaves a value empty is skipped.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CampaignPayload, campaignPayload, campaignTexts } from '#contracts/campaigns.ts';
import { templateTexts, type MessageTemplate } from '#contracts/templates.ts';
import { templateFillTexts } from '#contracts/template-fill.ts';
import type { ContactFields } from '#db/contacts.ts';
import { keys } from '#db/keys.ts';
import type { MessageItem } from '#db/messages.ts';
import { messageTemplateItem, putMessageTemplate } from '#db/message-templates.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { adminSession, storedContact } from '../../../tests/support/campaign-fixtures.ts';
import { type LocalTable, startLocalTable } from '../../../tests/support/local-table.ts';
import { getCampaign } from './campaign-actions.ts';
import { createCampaign, planCampaign } from './plan-campaign.ts';
import { runCampaigns } from './run-campaigns.ts';

let local: LocalTable;
let ports: Ports;
let now = Date.parse('2026-12-01T13:00:00Z');
let ids = 0;

beforeAll(async () => {
  local = await startLocalTable('campaign-templates-test');
  // Only the Cloud adapter sends templates: all the plan and the lane ask of the registry.
  const cloud = { type: 'whatsapp_cloud', templates: {} } as unknown as ChannelAdapter;
  ports = {
    ...(local.ports as Ports),
    channels: { get: (type) => (type === 'whatsapp_cloud' ? cloud : undefined), all: () => [cloud] },
    clock: () => new Date(now),
    newId: (at?: number) => `${String(at ?? now).padStart(15, '0')}-${String(++ids).padStart(6, '0')}`,
  };
});

afterAll(async () => {
  await local.close();
});

const put = (item: object) => ports.table.doc.send(new PutCommand({ TableName: ports.table.name, Item: item as Record<string, unknown> }));

const template = (fields: Partial<MessageTemplate>): MessageTemplate => ({
  id: `tpl-${++ids}`,
  serviceId: 'C1',
  name: 'ofertas_natal',
  language: 'pt_BR',
  category: 'MARKETING',
  status: 'APPROVED',
  rejectionReason: null,
  headerFormat: null,
  header: null,
  body: 'Olá {{1}}, o Natal chegou com {{2}} de desconto!',
  examples: ['Joana', '20%'],
  footer: 'Responda SAIR para não receber mais',
  buttons: [],
  variableCount: 2,
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
  ...fields,
});

let accounts = 0;
/** An account with a Cloud connection C1 (its templates given), a QR one Q1, and contacts. */
async function world(templates: MessageTemplate[], contacts: (Partial<ContactFields> & { id: string })[]) {
  const accountId = `tacc${++accounts}`;
  const at = new Date(now).toISOString();
  for (const [id, channelType] of [
    ['C1', 'whatsapp_cloud'],
    ['Q1', 'whatsapp'],
  ] as const) {
    await put({ ...keys.service(accountId, id), type: 'Service', id, accountId, name: id, channelType, status: 'connected', createdAt: at, updatedAt: at });
  }
  for (const t of templates) await putMessageTemplate(ports.table, messageTemplateItem(accountId, t));
  for (const c of contacts) await put(storedContact(accountId, 'C1', at, { phoneNumber: '5511944443333', ...c }));
  return { accountId, session: adminSession(accountId) };
}

const payload = (contactIds: string[], message: unknown, serviceIds = ['C1']): CampaignPayload =>
  campaignPayload.parse({
    name: 'Natal',
    audience: { kind: 'contacts', contactIds },
    serviceIds,
    message,
    window: { kind: 'hours', start: '00:00', end: '24:00', weekdays: [0, 1, 2, 3, 4, 5, 6] },
    pace: { minGapSeconds: 1, maxGapSeconds: 1, dailyLimit: 100, dailyNewChats: 10 },
  });

const natal = { name: 'ofertas_natal', language: 'pt_BR', parameters: ['{{primeiro_nome}}', '20%'] };

async function messagesOf(accountId: string, contactId: string): Promise<MessageItem[]> {
  const { pk, skPrefix } = keys.contactMessages(accountId, contactId);
  const { Items } = await ports.table.doc.send(
    new QueryCommand({
      TableName: ports.table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
    }),
  );
  return ((Items ?? []) as MessageItem[]).filter((m) => m.campaign);
}

describe('a campaign with a message template', () => {
  it('is refused on its fields when the template does not fit the chosen connections', async () => {
    const { session } = await world([template({}), template({ name: 'em_analise', status: 'PENDING' })], [{ id: 'k1' }]);
    const refusal = (message: unknown, serviceIds?: string[]) =>
      planCampaign(ports, session, payload(['k1'], message, serviceIds)).then(
        () => null,
        (error: { details?: unknown }) => error.details,
      );
    expect(await refusal({ template: { ...natal, name: 'nao_existe' } })).toEqual([{ path: 'message.template.name', message: templateTexts.templateNotFound }]);
    expect(await refusal({ template: { ...natal, name: 'em_analise' } })).toEqual([
      { path: 'message.template.name', message: templateTexts.templateNotApproved('PENDING') },
    ]);
    expect(await refusal({ template: { ...natal, parameters: ['{{primeiro_nome}}'] } })).toEqual([
      { path: 'message.template.parameters', message: templateTexts.parameterCount(2) },
    ]);
    expect(await refusal({ template: { ...natal, parameters: ['Oi', ' '] } })).toEqual([
      { path: 'message.template.parameters.1', message: templateTexts.parameterEmpty(2) },
    ]);
    expect(await refusal({ template: natal, fileId: null }, ['Q1'])).toEqual([{ path: 'message.template.name', message: campaignTexts.templateWithoutCloud }]);
    expect(await refusal({ template: natal }, ['C1', 'Q1'])).toEqual([{ path: 'message.text', message: campaignTexts.textForOtherConnections }]);
    // A variable the campaigns do not know is the schema's to refuse, on the value's own field.
    const unknown = campaignPayload.safeParse({
      ...payload(['k1'], { template: natal }),
      message: { template: { ...natal, parameters: ['{{cidade}}', '1'] } },
    });
    expect(unknown.error?.issues.map((i) => i.path.join('.'))).toEqual(['message.template.parameters.0']);
  });

  it('checks a media header against the file, and a coupon button for its code', async () => {
    const coupon = template({
      name: 'cupom',
      body: 'Seu cupom chegou, {{1}}!',
      examples: ['Joana'],
      variableCount: 1,
      buttons: [{ type: 'COPY_CODE', text: 'Copiar código' }],
    });
    const image = template({ name: 'vitrine', headerFormat: 'IMAGE', body: 'Novidades, {{1}}!', examples: ['Joana'], variableCount: 1 });
    const { session } = await world([coupon, image], [{ id: 'k1' }]);
    const details = (message: unknown) =>
      planCampaign(ports, session, payload(['k1'], message)).then(
        () => null,
        (error: { details?: unknown }) => error.details,
      );
    expect(await details({ template: { name: 'cupom', parameters: ['{{nome}}'], buttons: ['CODIGO-LONGO-DEMAIS-20'] } })).toEqual([
      { path: 'message.template.buttons.0', message: templateFillTexts.couponTooLong },
    ]);
    expect(await details({ template: { name: 'vitrine', parameters: ['{{nome}}'] } })).toEqual([
      { path: 'message.fileId', message: templateFillTexts.mediaMissing('IMAGE') },
    ]);
    expect(await details({ template: { name: 'cupom', parameters: ['{{nome}}'], buttons: ['NATAL10'] } })).toBeNull();
  });

  it('sends the template on the Cloud lane, its window closed, and the text on the QR lane; answers the cost', async () => {
    const closed = '2026-11-20T12:00:00Z'; // 11 days before: the 24-hour window closed long ago
    const { accountId, session } = await world(
      [template({})],
      [
        { id: 'joana', name: 'Joana Souza', lastInboundAt: closed },
        { id: 'sem-email', name: 'Pedro Lima', lastInboundAt: closed, phoneNumber: '16502530000' },
        { id: 'qr', name: 'Rita Alves', serviceId: 'Q1', idFromService: 'qr@s.whatsapp.net', lastInboundAt: closed },
      ],
    );
    const contactIds = ['joana', 'sem-email', 'qr'];
    const message = { text: 'Oi {{primeiro_nome}}, feliz Natal!', template: natal };
    const plan = await planCampaign(ports, session, payload(contactIds, message, ['C1', 'Q1']));
    expect(plan).toMatchObject({ recipients: 3 });
    // Only the Cloud lane's two numbers are charged: Brazil's and the United States' marketing rates.
    expect(plan.cost).toMatchObject({ currency: 'USD', category: 'MARKETING', total: 0.0875 });
    expect(plan.cost?.byCountry.map((c) => [c.country, c.recipients, c.unitPrice])).toEqual([
      ['BR', 1, 0.0625],
      ['US', 1, 0.025],
    ]);

    const campaign = await createCampaign(ports, session, payload(contactIds, message, ['C1', 'Q1']));
    // Two pollers at once: each recipient still once.
    const until = now + 60_000;
    const sleep = async (ms: number) => {
      now = Math.max(now, Math.min(until, now + ms));
      for (const id of contactIds) {
        for (const m of await messagesOf(accountId, id)) {
          if (m.ack === 0) await put({ ...m, ack: 1 });
        }
      }
    };
    await Promise.all([1, 2].map(() => runCampaigns(ports, { until, sleep, random: () => 0.5 })));

    const [joana, ...more] = await messagesOf(accountId, 'joana');
    expect(more).toEqual([]);
    expect(joana).toMatchObject({
      text: 'Olá Joana, o Natal chegou com 20% de desconto!\n\nResponda SAIR para não receber mais',
      messageType: 'text',
      file: null,
      template: { name: 'ofertas_natal', language: 'pt_BR', parameters: ['Joana', '20%'] },
    });
    expect(await messagesOf(accountId, 'sem-email')).toHaveLength(1);
    const [qr, ...qrMore] = await messagesOf(accountId, 'qr');
    expect(qrMore).toEqual([]);
    expect(qr?.template).toBeUndefined();
    expect(qr?.text).toMatch(/^Oi Rita, feliz Natal!/);
    expect((await getCampaign(ports, session, campaign.id)).counts).toMatchObject({ sent: 3, skipped: 0, queued: 0 });
  });

  it('skips a recipient whose field leaves a value empty, and one whose template is no longer approved', async () => {
    const closed = '2026-11-20T12:00:00Z';
    const withEmail = { ...natal, parameters: ['{{primeiro_nome}}', '{{email}}'] };
    const { accountId, session } = await world(
      [template({})],
      [
        { id: 'com', name: 'Ana', email: 'ana@exemplo.com', lastInboundAt: closed },
        { id: 'sem', name: 'Bia', lastInboundAt: closed },
      ],
    );
    const campaign = await createCampaign(ports, session, payload(['com', 'sem'], { template: withEmail }));
    await runCampaigns(ports, {
      until: now + 60_000,
      random: () => 0.5,
      sleep: async (ms) => {
        now += ms;
        for (const m of await messagesOf(accountId, 'com')) if (m.ack === 0) await put({ ...m, ack: 1 });
      },
    });
    expect((await messagesOf(accountId, 'com'))[0]?.template?.parameters).toEqual(['Ana', 'ana@exemplo.com']);
    expect(await messagesOf(accountId, 'sem')).toEqual([]);
    expect((await getCampaign(ports, session, campaign.id)).counts).toMatchObject({ sent: 1, skipped: 1 });

    // Paused at Meta after the campaign was created: the lane skips instead of sending what Meta refuses.
    const approved = template({});
    const other = await world([approved], [{ id: 'x', lastInboundAt: closed }]);
    const later = await createCampaign(ports, other.session, payload(['x'], { template: natal }));
    await putMessageTemplate(ports.table, messageTemplateItem(other.accountId, { ...approved, status: 'PAUSED' }));
    await runCampaigns(ports, {
      until: now + 10_000,
      random: () => 0.5,
      sleep: async (ms) => {
        now += ms;
      },
    });
    expect(await messagesOf(other.accountId, 'x')).toEqual([]);
    expect((await getCampaign(ports, other.session, later.id)).counts).toMatchObject({ sent: 0, skipped: 1, queued: 0 });
  });
});
