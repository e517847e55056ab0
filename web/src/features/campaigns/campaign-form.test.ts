import { describe, expect, it } from 'vitest';
import { checkForm, type CampaignForm, defaultPace, emptyForm, errorsOf, planSummary, toPayload, withServices } from './campaign-form.ts';

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
