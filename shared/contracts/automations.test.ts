import { describe, expect, it } from 'vitest';
import { menu } from '../../tests/support/lifecycle-world.ts';
import {
  automationSettingsSchema,
  connectionMenuSchema,
  defaultAutomationSettings,
  fillAutomationText,
  menuMessage,
  menuTexts,
  unknownVariableText,
} from './automations.ts';

const text = (t: string) => ({ enabled: true, text: t });
const valid = {
  greeting: text('Olá, {{primeiro_nome}}!'),
  outOfHours: text('Fora do horário.'),
  noAnswer: { enabled: false, minutes: 10, text: 'Já vamos responder.' },
  closing: text('Protocolo {{ PROTOCOLO }} encerrado.'),
  waitingTooLong: { enabled: false, minutes: 60, departmentId: 'geral' },
  inactivity: { enabled: true, closeAfterHours: 2, warnBeforeMinutes: 30, warningText: 'Vamos encerrar em breve.' },
  rating: { enabled: true, question: 'Nota de 1 a 5?', thanks: 'Obrigado!' },
  roundRobin: { enabled: true, maxOpenPerAgent: 5 },
};
const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('automated message texts', () => {
  it('fills the four variables, reusing the quick replies’ filling', () => {
    const filled = fillAutomationText('Oi {{primeiro_nome}}, {{atendente}} do {{departamento}} atende o protocolo {{protocolo}}.', {
      contact: { name: '  Maria da Silva' },
      department: { name: 'Financeiro' },
      protocol: '20261127-0042',
      agent: { name: 'Ana' },
    });
    expect(filled).toBe('Oi Maria, Ana do Financeiro atende o protocolo 20261127-0042.');
  });

  it('leaves a variable with no value empty (nobody assigned, no department)', () => {
    expect(fillAutomationText('[{{atendente}}][{{departamento}}]', { contact: { name: 'Jo' }, department: null, protocol: null, agent: null })).toBe('[][]');
  });

  it('takes valid settings, reopening to the last agent by default', () => {
    expect(automationSettingsSchema.parse(valid).reopenToLastAgent).toBe(true);
  });

  it('refuses a variable it does not know, naming the ones it does, in pt-BR', () => {
    const result = automationSettingsSchema.safeParse({ ...valid, greeting: text('Olá {{nome}}') });
    expect(messages(result)).toEqual([`greeting.text: ${unknownVariableText('nome')}`]);
    expect(unknownVariableText('nome')).toBe('Variável desconhecida: {{nome}}. Use {{primeiro_nome}}, {{departamento}}, {{protocolo}}, {{atendente}}');
  });

  it('refuses a blank text and a warning that does not come before the closing', () => {
    expect(messages(automationSettingsSchema.safeParse({ ...valid, closing: text('  ') }))).toEqual(['closing.text: Campo obrigatório']);
    const late = { ...valid.inactivity, closeAfterHours: 1, warnBeforeMinutes: 60 };
    expect(messages(automationSettingsSchema.safeParse({ ...valid, inactivity: late }))).toEqual([
      'inactivity.warnBeforeMinutes: O aviso deve vir antes do encerramento',
    ]);
  });
});

describe('a connection’s menu', () => {
  it('is sent as its text and one line an option, with 0 to go back below the first menu', () => {
    expect(menuMessage(menu.menus[1]!, false)).toBe('Financeiro:\n\n1 - Boletos\n2 - Pix\n0 - Voltar');
  });

  it('refuses 0 as an option, a repeated key, a missing submenu and a repeated menu id', () => {
    const broken = {
      ...menu,
      menus: [
        {
          id: 'inicio',
          text: 'Escolha:',
          options: [
            { key: '0', label: 'Zero', action: { kind: 'department', departmentId: 'd' } },
            { key: '1', label: 'Um', action: { kind: 'submenu', menuId: 'sumiu' } },
            { key: '1', label: 'Outro um', action: { kind: 'answer', text: 'Oi' } },
          ],
        },
        { id: 'inicio', text: 'De novo', options: [{ key: '1', label: 'Pessoa', action: { kind: 'user', userId: 'u' } }] },
      ],
    };
    expect(messages(connectionMenuSchema.safeParse(broken))).toEqual([
      `menus.0.options.0.key: ${menuTexts.key}`,
      `menus.0.options.1.action.menuId: ${menuTexts.submenuMissing}`,
      `menus.0.options.2.key: ${menuTexts.keyRepeated}`,
      `menus.1.id: ${menuTexts.menuRepeated}`,
    ]);
  });
});

describe('the default automations', () => {
  it('are valid, all switched off, reopening to the last agent, and keep their texts when switched on', () => {
    const parsed = automationSettingsSchema.parse(defaultAutomationSettings);
    expect(parsed).toEqual(defaultAutomationSettings);
    const rules = ['greeting', 'outOfHours', 'noAnswer', 'closing', 'waitingTooLong', 'inactivity', 'rating', 'roundRobin'] as const;
    expect(rules.filter((r) => defaultAutomationSettings[r].enabled)).toEqual([]);
    const on = Object.fromEntries(rules.filter((r) => r !== 'waitingTooLong').map((r) => [r, { ...defaultAutomationSettings[r], enabled: true }]));
    expect(messages(automationSettingsSchema.safeParse({ ...defaultAutomationSettings, ...on }))).toEqual([]);
  });

  it('does not require a switched-off rule’s fields, and does once it is switched on', () => {
    const off = { ...valid, waitingTooLong: { enabled: false, minutes: Number.NaN, departmentId: '' }, greeting: { enabled: false, text: '' } };
    const parsed = automationSettingsSchema.parse(off);
    expect(parsed.waitingTooLong).toEqual({ enabled: false, minutes: 60, departmentId: '' });
    expect(parsed.greeting).toEqual({ enabled: false, text: '' });
    const on = { ...off, waitingTooLong: { ...off.waitingTooLong, enabled: true }, greeting: { enabled: true, text: '' } };
    expect(messages(automationSettingsSchema.safeParse(on))).toEqual([
      'greeting.text: Campo obrigatório',
      'waitingTooLong.minutes: Campo obrigatório',
      'waitingTooLong.departmentId: Campo obrigatório',
    ]);
    expect(messages(automationSettingsSchema.safeParse({ ...valid, greeting: { text: 'Oi' } }))).toEqual(['greeting.enabled: Campo obrigatório']);
  });
});
