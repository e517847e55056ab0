import { describe, expect, it } from 'vitest';
import { campaignPayload } from './campaigns.ts';

const valid = {
  name: 'Ofertas',
  audience: { kind: 'contacts', contactIds: ['c1', 'c1', 'c2'] },
  serviceIds: ['s1'],
  message: { text: 'Oi {{primeiro_nome}}' },
  window: { kind: 'hours', start: '09:00', end: '18:00', weekdays: [5, 1, 1] },
  pace: { minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 200, dailyNewChats: 30 },
};

const problems = (input: unknown) => {
  const parsed = campaignPayload.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('a campaign as the form and the route take it', () => {
  it('keeps each contact and weekday once, starts now and carries the opt-out hint by default', () => {
    const parsed = campaignPayload.parse(valid);
    expect(parsed.audience).toEqual({ kind: 'contacts', contactIds: ['c1', 'c2'] });
    expect(parsed.window).toMatchObject({ weekdays: [1, 5] });
    expect(parsed).toMatchObject({ startAt: null, optOutHint: true, message: { fileId: null } });
  });

  it('says in pt-BR what is wrong, on its field', () => {
    expect(problems({ ...valid, serviceIds: Array.from({ length: 51 }, (_, i) => `s${i}`) })).toEqual(['serviceIds: Escolha no máximo 50 conexões']);
    expect(problems({ ...valid, serviceIds: [] })).toEqual(['serviceIds: Escolha pelo menos uma conexão']);
    expect(problems({ ...valid, pace: { ...valid.pace, maxGapSeconds: 10 } })).toEqual([
      'pace.maxGapSeconds: O intervalo máximo deve ser maior ou igual ao mínimo',
    ]);
    expect(problems({ ...valid, window: { ...valid.window, end: '08:00' } })).toEqual(['window.end: O fim da janela deve ser depois do início']);
    expect(problems({ ...valid, message: { text: 'Oi {{apelido}}' } })[0]).toMatch(/^message\.text: Variável desconhecida: \{\{apelido\}\}/);
    expect(problems({ ...valid, message: { text: '  ' } })).toEqual(['message.text: Escreva a mensagem ou anexe um arquivo']);
    expect(problems({ ...valid, audience: { kind: 'contacts', contactIds: [] } })).toEqual(['audience.contactIds: Escolha pelo menos um contato']);
  });
});
