import { describe, expect, it } from 'vitest';
import { menuTexts } from '#contracts/automations.ts';
import { type ConnectionMenuDraft, blankOption } from './menu-form.ts';
import { previewReply, startPreview } from './menu-preview.ts';

const draft: ConnectionMenuDraft = {
  enabled: true,
  menus: [
    {
      id: 'inicio',
      text: 'Olá, {{primeiro_nome}}! Escolha:',
      options: [
        { ...blankOption('1'), label: 'Financeiro', kind: 'submenu', menuId: 'menu-2' },
        { ...blankOption('2'), label: 'Falar com a Ana', kind: 'user', userId: 'ana' },
      ],
    },
    {
      id: 'menu-2',
      text: 'Financeiro:',
      options: [
        { ...blankOption('1'), label: 'Boletos', kind: 'department', departmentId: 'fin' },
        { ...blankOption('2'), label: 'Pix', kind: 'answer', text: 'Chave Pix: CNPJ' },
      ],
    },
  ],
  invalidText: 'Opção inválida.',
  maxInvalid: 2,
  timeoutMinutes: 10,
  timeoutDepartmentId: 'geral',
};
const names = { department: (id: string) => ({ fin: 'Financeiro', geral: 'Geral' })[id] ?? '?', user: (id: string) => (id === 'ana' ? 'Ana' : '?') };
const play = (...keys: string[]) => keys.reduce((s, k) => previewReply(draft, s, k, names), startPreview(draft));

describe('the menu preview', () => {
  it('sends the first menu with the sample name, and a submenu with 0 to go back', () => {
    expect(startPreview(draft).lines).toEqual([{ from: 'bot', text: 'Olá, Maria! Escolha:\n\n1 - Financeiro\n2 - Falar com a Ana' }]);
    const state = play(' 1 ');
    expect(state.path).toEqual(['inicio', 'menu-2']);
    expect(state.lines.at(-1)).toEqual({ from: 'bot', text: `Financeiro:\n\n1 - Boletos\n2 - Pix\n${menuTexts.back}` });
  });

  it('goes back with 0 (the first menu again at the top), answers a text and stays, ends at a department', () => {
    expect(play('1', '0').path).toEqual(['inicio']);
    expect(play('0').lines.at(-1)!.text).toContain('1 - Financeiro');
    const answered = play('1', '2');
    expect(answered.lines.at(-1)).toEqual({ from: 'bot', text: 'Chave Pix: CNPJ' });
    expect(answered.ended).toBe(false);
    const ended = play('1', '1');
    expect(ended.ended).toBe(true);
    expect(ended.lines.at(-1)).toEqual({ from: 'note', text: 'A conversa vai para a fila de Financeiro.' });
    expect(play('2').lines.at(-1)!.text).toBe('A conversa vai direto para Ana.');
  });

  it('answers an invalid key with the invalid text and the menu, then the timeout department after maxInvalid', () => {
    const once = play('7');
    expect(once.lines.slice(-2).map((l) => l.text)).toEqual(['Opção inválida.', 'Olá, Maria! Escolha:\n\n1 - Financeiro\n2 - Falar com a Ana']);
    const twice = play('7', 'oi');
    expect(twice.ended).toBe(true);
    expect(twice.lines.at(-1)!.text).toBe('2 opções inválidas seguidas: a conversa vai para a fila de Geral.');
    // A valid choice in between starts the count again.
    expect(play('7', '1', '9').ended).toBe(false);
  });
});
