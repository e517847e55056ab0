import { describe, expect, it } from 'vitest';
import { type ConnectionMenu, menuTexts } from '#contracts/automations.ts';
import { checkMenu, freeKey, menuName, newMenuId, starterMenu, toDraft, toPayload, withoutMenu } from './menu-form.ts';

const saved: ConnectionMenu = {
  enabled: true,
  menus: [
    {
      id: 'inicio',
      text: 'Escolha:',
      options: [
        { key: '1', label: 'Financeiro', action: { kind: 'submenu', menuId: 'menu-2' } },
        { key: '2', label: 'Ana', action: { kind: 'user', userId: 'ana' } },
      ],
    },
    { id: 'menu-2', text: 'Financeiro:\nEscolha', options: [{ key: '1', label: 'Pix', action: { kind: 'answer', text: 'CNPJ' } }] },
  ],
  invalidText: 'Opção inválida.',
  maxInvalid: 3,
  timeoutMinutes: 10,
  timeoutDepartmentId: null,
};

describe('the menu form', () => {
  it('round-trips a saved menu, keeping what an option had typed for another action', () => {
    const draft = toDraft(saved);
    expect(toPayload(draft)).toEqual(saved);
    // Switched to a department and back to a person: the person is still chosen.
    const option = draft.menus[0]!.options[1]!;
    const back = {
      ...draft,
      menus: [
        { ...draft.menus[0]!, options: [draft.menus[0]!.options[0]!, { ...{ ...option, kind: 'department' as const }, kind: 'user' as const }] },
        draft.menus[1]!,
      ],
    };
    expect(toPayload(back).menus[0]!.options[1]!.action).toEqual({ kind: 'user', userId: 'ana' });
    expect(draft.timeoutDepartmentId).toBe('');
  });

  it('starts a connection without a menu from a model the schema takes once its option has a department', () => {
    const starter = starterMenu();
    expect(checkMenu(starter)).toEqual({
      ok: false,
      errors: { 'menus.0.options.0.action.departmentId': 'Campo obrigatório', 'menus.0.options.0.label': 'Campo obrigatório' },
    });
    const filled = { ...starter, menus: [{ ...starter.menus[0]!, options: [{ ...starter.menus[0]!.options[0]!, label: 'Vendas', departmentId: 'd' }] }] };
    expect(checkMenu(filled).ok).toBe(true);
  });

  it('names menus, finds free ids and keys, and turns options that opened a removed submenu back into department options', () => {
    const draft = toDraft(saved);
    expect(menuName(draft, 'inicio')).toBe('Menu inicial');
    expect(menuName(draft, 'menu-2')).toBe('Submenu 2 · Financeiro:');
    expect(newMenuId(draft)).toBe('menu-3');
    expect(freeKey(draft.menus[0]!)).toBe('3');
    const without = withoutMenu(draft, 'menu-2');
    expect(without.menus.map((m) => m.id)).toEqual(['inicio']);
    expect(without.menus[0]!.options[0]).toMatchObject({ kind: 'department', menuId: '' });
    const repeated = {
      ...draft,
      menus: [{ ...draft.menus[0]!, options: [draft.menus[0]!.options[0]!, { ...draft.menus[0]!.options[1]!, key: '1' }] }, draft.menus[1]!],
    };
    expect(checkMenu(repeated)).toEqual({ ok: false, errors: { 'menus.0.options.1.key': menuTexts.keyRepeated } });
  });
});
