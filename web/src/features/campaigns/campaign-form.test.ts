import { describe, expect, it } from 'vitest';
import type { MessageTemplate } from '#contracts/templates.ts';
import type { CampaignCost } from './api/campaigns.ts';
import {
  checkForm,
  type CampaignForm,
  costRows,
  costSummary,
  defaultPace,
  emptyForm,
  errorsOf,
  planSummary,
  templateChoice,
  toPayload,
  withServices,
} from './campaign-form.ts';

const filled = (over: Partial<CampaignForm> = {}): CampaignForm => ({
  ...emptyForm(),
  name: 'Ofertas da semana',
  contactIds: ['C1', 'C2'],
  serviceIds: ['S1'],
  text: 'Oi {{primeiro_nome}}, temos novidades!',
  ...over,
});

describe('the campaign form', () => {
  it('sends a filled form as the payload: start now, business hours, the opt-out hint on', () => {
    const checked = checkForm(filled());
    expect(checked).toEqual({
      ok: true,
      payload: {
        name: 'Ofertas da semana',
        audience: { kind: 'contacts', contactIds: ['C1', 'C2'] },
        serviceIds: ['S1'],
        message: { text: 'Oi {{primeiro_nome}}, temos novidades!', fileId: null },
        startAt: null,
        window: { kind: 'business-hours' },
        pace: { minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 200, dailyNewChats: 30 },
        optOutHint: true,
      },
    });
  });

  it('puts the messages of an empty form on its fields', () => {
    const checked = checkForm({ ...emptyForm(), minGapSeconds: '' });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(Object.keys(checked.errors).sort()).toEqual(['audience', 'name', 'pace.minGapSeconds', 'serviceIds', 'text']);
    expect(checked.errors.audience).toBe('Escolha pelo menos um contato');
    expect(checked.errors.serviceIds).toBe('Escolha pelo menos uma conexão');
    expect(checked.errors.text).toBe('Escreva a mensagem ou anexe um arquivo');
  });

  it('refuses an unknown variable, a gap out of order, hours out of order and no weekday', () => {
    const checked = checkForm(
      filled({ text: 'Oi {{apelido}}', minGapSeconds: '60', maxGapSeconds: '20', windowKind: 'hours', windowStart: '18:00', windowEnd: '08:00', weekdays: [] }),
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.text).toMatch(/^Variável desconhecida: \{\{apelido\}\}/);
    expect(checked.errors['pace.maxGapSeconds']).toBe('O intervalo máximo deve ser maior ou igual ao mínimo');
    expect(checked.errors['window.weekdays']).toBe('Escolha pelo menos um dia da semana');
  });

  it('sends its own hours with midnight as 24:00, and a start date as an instant', () => {
    const payload = toPayload(
      filled({
        windowKind: 'hours',
        windowStart: '09:00',
        windowEnd: '00:00',
        weekdays: [6, 1],
        startMode: 'later',
        startDate: '2030-03-04',
        startTime: '09:30',
      }),
    );
    expect(payload.window).toEqual({ kind: 'hours', start: '09:00', end: '24:00', weekdays: [6, 1] });
    expect(payload.startAt).toBe(new Date('2030-03-04T09:30').toISOString());
    const noDate = checkForm(filled({ startMode: 'later', startDate: '', startTime: '' }));
    expect(noDate.ok ? null : noDate.errors.startAt).toBe('Use uma data e hora válidas');
  });

  it('sends a segment as the audience', () => {
    expect(toPayload(filled({ audienceKind: 'segment', segmentId: 'G1' })).audience).toEqual({ kind: 'segment', segmentId: 'G1' });
  });

  it('paces by the chosen connections, the most careful type winning, until the pace is edited', () => {
    expect(defaultPace(['whatsapp_cloud'])).toEqual({ minGapSeconds: 1, maxGapSeconds: 3, dailyLimit: 1000, dailyNewChats: 250 });
    expect(defaultPace(['telegram'])).toEqual({ minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 200, dailyNewChats: 30 });
    expect(defaultPace(['whatsapp_cloud', 'whatsapp'])).toEqual({ minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 200, dailyNewChats: 30 });
    const types = { A: 'whatsapp_cloud', B: 'whatsapp' } as const;
    const typeOf = (id: string) => types[id as keyof typeof types];
    const cloud = withServices(emptyForm(), ['A'], typeOf);
    expect([cloud.minGapSeconds, cloud.maxGapSeconds, cloud.dailyLimit]).toEqual(['1', '3', '1000']);
    const edited = withServices({ ...cloud, minGapSeconds: '2', paceEdited: true }, ['A', 'B'], typeOf);
    expect([edited.minGapSeconds, edited.maxGapSeconds, edited.serviceIds]).toEqual(['2', '3', ['A', 'B']]);
  });

  it("puts the server's details on the fields they name", () => {
    expect(
      errorsOf([
        { path: 'audience', message: 'Nenhum contato das conexões escolhidas' },
        { path: 'message.fileId', message: 'Arquivo não encontrado' },
        { path: 'startAt', message: 'Escolha um horário de início no futuro' },
        { path: 'pace.dailyNewChats', message: 'Use no máximo 10000' },
      ]),
    ).toEqual({
      audience: 'Nenhum contato das conexões escolhidas',
      file: 'Arquivo não encontrado',
      startAt: 'Escolha um horário de início no futuro',
      'pace.dailyNewChats': 'Use no máximo 10000',
    });
  });
});

describe('the plan summary', () => {
  it('says who receives it, who is left out, the first messages and the estimated finish', () => {
    const at = new Date(2026, 10, 28, 9, 5).toISOString();
    expect(planSummary({ recipients: 120, leftOut: 3, firstMessages: 40, estimatedFinishAt: at, startAt: at })).toBe(
      '120 destinatários, 3 ficam de fora, 40 primeiras mensagens, término estimado 28/11/2026 09:05',
    );
    expect(planSummary({ recipients: 1, leftOut: 1, firstMessages: 1, estimatedFinishAt: at, startAt: at })).toBe(
      '1 destinatário, 1 fica de fora, 1 primeira mensagem, término estimado 28/11/2026 09:05',
    );
    expect(planSummary({ recipients: 1200, leftOut: 0, firstMessages: 0, estimatedFinishAt: at, startAt: at })).toMatch(
      /^1\.200 destinatários, 0 ficam de fora/,
    );
  });

  it('gives the reason when there is no estimate, and when nobody would receive it', () => {
    const at = new Date().toISOString();
    expect(planSummary({ recipients: 5, leftOut: 0, firstMessages: 5, estimatedFinishAt: null, startAt: at })).toBe(
      '5 destinatários, 0 ficam de fora, 5 primeiras mensagens. Sem término estimado: alguns destinatários nunca receberiam a mensagem com estas regras (permita conversas novas por dia ou abra mais a janela de envio).',
    );
    expect(planSummary({ recipients: 0, leftOut: 2, firstMessages: 0, estimatedFinishAt: null, startAt: at })).toBe(
      '0 destinatários, 2 ficam de fora, 0 primeiras mensagens: nenhum contato receberia esta campanha.',
    );
  });
});

/** An approved marketing template with a text header's {{1}}, two body variables, a URL suffix and a coupon. */
const promo: MessageTemplate = {
  id: 'T9',
  serviceId: 'A',
  name: 'promo_natal',
  language: 'pt_BR',
  category: 'MARKETING',
  status: 'APPROVED',
  rejectionReason: null,
  headerFormat: 'TEXT',
  header: 'Oferta para {{1}}',
  body: 'Olá {{1}}, use o cupom até {{2}}.',
  examples: ['Maria', 'domingo'],
  footer: null,
  buttons: [
    { type: 'URL', text: 'Ver loja', url: 'https://loja.example.com/{{1}}' },
    { type: 'COPY_CODE', text: 'Copiar cupom' },
    { type: 'QUICK_REPLY', text: 'Parar' },
  ],
  variableCount: 2,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

describe('the campaign template', () => {
  const types = { A: 'whatsapp_cloud', B: 'telegram' } as const;
  const typeOf = (id: string) => types[id as keyof typeof types];
  const chosen = (over: Partial<CampaignForm> = {}): CampaignForm => ({
    ...filled({ serviceIds: ['A'], text: '', useTemplate: true }),
    template: {
      ...templateChoice(promo),
      header: '{{primeiro_nome}}',
      parameters: ['{{primeiro_nome}}', 'domingo'],
      buttons: ['natal?c={{telefone}}', 'NATAL10', ''],
    },
    ...over,
  });

  it('starts empty for the chosen template: one value per body variable, the header and each button', () => {
    expect(templateChoice(promo)).toEqual({ name: 'promo_natal', language: 'pt_BR', parameters: ['', ''], header: '', buttons: ['', '', ''] });
    expect(templateChoice({ ...promo, headerFormat: 'IMAGE', header: null, buttons: [] }).header).toBeNull();
  });

  it('sends the template and no text when every connection is of the API oficial', () => {
    const checked = checkForm(chosen({ text: 'ignored here' }), { typeOf, template: promo, agent: 'Rita' });
    expect(checked.ok ? checked.payload.message : checked.errors).toEqual({
      text: '',
      fileId: null,
      template: {
        name: 'promo_natal',
        language: 'pt_BR',
        parameters: ['{{primeiro_nome}}', 'domingo'],
        header: '{{primeiro_nome}}',
        buttons: ['natal?c={{telefone}}', 'NATAL10', ''],
      },
    });
  });

  it('asks the text for a Telegram or QR connection beside it, and sends both', () => {
    const without = checkForm(chosen({ serviceIds: ['A', 'B'] }), { typeOf, template: promo });
    expect(without.ok ? null : without.errors).toEqual({
      text: 'Escreva a mensagem das conexões que não são da API oficial (elas não enviam o modelo)',
    });
    const both = checkForm(chosen({ serviceIds: ['A', 'B'], text: 'Oi {{primeiro_nome}}!' }), { typeOf, template: promo });
    expect(both.ok && both.payload.message.text).toBe('Oi {{primeiro_nome}}!');
    expect(both.ok && both.payload.message.template?.name).toBe('promo_natal');
  });

  it('refuses no template chosen, empty values, a long coupon and an unknown variable on their fields', () => {
    const none = checkForm(chosen({ template: null }), { typeOf });
    expect(none.ok ? null : none.errors).toEqual({ template: 'Escolha um dos modelos aprovados' });
    const wrong = checkForm(chosen({ template: { ...templateChoice(promo), parameters: ['{{apelido}}', ''], buttons: ['', 'CUPOM-LONGO-DEMAIS', ''] } }), {
      typeOf,
      template: promo,
    });
    expect(wrong.ok ? null : wrong.errors).toEqual({
      'template.parameters.0': 'Variável desconhecida: {{apelido}}. Use {{nome}}, {{primeiro_nome}}, {{telefone}}, {{email}}, {{atendente}}',
      'template.parameters.1': 'A variável {{2}} ficou vazia para este contato',
      'template.header': 'A variável {{1}} do cabeçalho ficou vazia para este contato',
      'template.buttons.0': 'Preencha o final do link do botão “Ver loja”',
      'template.buttons.1': 'O código pode ter no máximo 15 caracteres',
    });
  });

  it("puts the server's template details on their fields", () => {
    expect(
      errorsOf([
        { path: 'message.template.name', message: 'Só modelos aprovados podem ser enviados' },
        { path: 'message.template.parameters.1', message: 'Preencha a variável {{2}}' },
        { path: 'message.template.buttons.0', message: 'Preencha o final do link' },
        { path: 'message.template.header', message: 'Preencha o cabeçalho' },
      ]),
    ).toEqual({
      template: 'Só modelos aprovados podem ser enviados',
      'template.parameters.1': 'Preencha a variável {{2}}',
      'template.buttons.0': 'Preencha o final do link',
      'template.header': 'Preencha o cabeçalho',
    });
  });

  it('goes when no connection of the API oficial is left, and stays off the payload while switched off', () => {
    const left = withServices(chosen({ serviceIds: ['A', 'B'] }), ['B'], typeOf);
    expect([left.useTemplate, left.template]).toEqual([false, null]);
    expect(toPayload(chosen({ useTemplate: false, text: 'Oi' }), typeOf).message).toEqual({ text: 'Oi', fileId: null });
  });
});

describe('the cost summary', () => {
  const cost: CampaignCost = {
    currency: 'USD',
    category: 'MARKETING',
    total: 6.3125,
    byCountry: [
      { country: 'US', recipients: 2, unitPrice: 0.025, total: 0.05, defaultRate: false },
      { country: 'BR', recipients: 100, unitPrice: 0.0625, total: 6.25, defaultRate: false },
      { country: 'JP', recipients: 1, unitPrice: 0.0125, total: 0.0125, defaultRate: true },
      { country: null, recipients: 0, unitPrice: 0.0125, total: 0, defaultRate: true },
    ],
  };

  it('says the total in dollars and the category', () => {
    expect(costSummary(cost)).toBe('Custo estimado na Meta: US$ 6,3125 (categoria: Marketing)');
    expect(costSummary({ ...cost, category: 'UTILITY', total: 1200 })).toBe('Custo estimado na Meta: US$ 1.200,00 (categoria: Utilidade)');
  });

  it('lists each country in pt-BR with its recipients, price and total, the default rate told', () => {
    expect(costRows(cost)).toEqual([
      { key: 'US', country: 'Estados Unidos', recipients: '2', unitPrice: 'US$ 0,025', total: 'US$ 0,05' },
      { key: 'BR', country: 'Brasil', recipients: '100', unitPrice: 'US$ 0,0625', total: 'US$ 6,25' },
      { key: 'JP', country: 'Japão (preço padrão)', recipients: '1', unitPrice: 'US$ 0,0125', total: 'US$ 0,0125' },
      { key: 'none', country: 'País não identificado (preço padrão)', recipients: '0', unitPrice: 'US$ 0,0125', total: 'US$ 0,00' },
    ]);
  });
});
