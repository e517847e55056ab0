/**
 * The 'Menu de atendimento' form's state and its mapping to the API's `ConnectionMenu`: an option
 * keeps what was typed for every kind of action, so switching its action back and forth loses
 * nothing; menu ids are made here ('inicio', 'menu-2', ...), never typed. Field messages (the
 * schema's, or the server's `details`) are keyed by the payload's paths.
 */
import { type ConnectionMenu, connectionMenuSchema } from '#contracts/automations.ts';

export type OptionKind = ConnectionMenu['menus'][number]['options'][number]['action']['kind'];

export interface OptionDraft {
  key: string;
  label: string;
  kind: OptionKind;
  departmentId: string;
  menuId: string;
  text: string;
  userId: string;
}
export interface MenuDraft {
  id: string;
  text: string;
  options: OptionDraft[];
}
export interface ConnectionMenuDraft {
  enabled: boolean;
  menus: MenuDraft[];
  invalidText: string;
  maxInvalid: number;
  timeoutMinutes: number;
  /** '' for none. */
  timeoutDepartmentId: string;
}

export const optionKindLabels: Record<OptionKind, string> = {
  department: 'Enviar para um departamento',
  submenu: 'Abrir um submenu',
  answer: 'Responder com um texto',
  user: 'Enviar para uma pessoa',
};

export const blankOption = (key: string): OptionDraft => ({ key, label: '', kind: 'department', departmentId: '', menuId: '', text: '', userId: '' });

/** A menu to start from when the connection has none. */
export function starterMenu(): ConnectionMenuDraft {
  return {
    enabled: false,
    menus: [{ id: 'inicio', text: 'Olá, {{primeiro_nome}}! Digite o número da opção desejada:', options: [blankOption('1')] }],
    invalidText: 'Opção inválida. Digite apenas o número de uma das opções abaixo.',
    maxInvalid: 3,
    timeoutMinutes: 10,
    timeoutDepartmentId: '',
  };
}

export function toDraft(menu: ConnectionMenu | null): ConnectionMenuDraft {
  if (!menu) return starterMenu();
  return {
    enabled: menu.enabled,
    menus: menu.menus.map((m) => ({
      id: m.id,
      text: m.text,
      options: m.options.map(({ key, label, action }) => ({ ...blankOption(key), label, ...action })),
    })),
    invalidText: menu.invalidText,
    maxInvalid: menu.maxInvalid,
    timeoutMinutes: menu.timeoutMinutes,
    timeoutDepartmentId: menu.timeoutDepartmentId ?? '',
  };
}

function actionOf(o: OptionDraft): ConnectionMenu['menus'][number]['options'][number]['action'] {
  switch (o.kind) {
    case 'department':
      return { kind: 'department', departmentId: o.departmentId };
    case 'submenu':
      return { kind: 'submenu', menuId: o.menuId };
    case 'answer':
      return { kind: 'answer', text: o.text };
    case 'user':
      return { kind: 'user', userId: o.userId };
  }
}

export function toPayload(draft: ConnectionMenuDraft): ConnectionMenu {
  return {
    enabled: draft.enabled,
    menus: draft.menus.map((m) => ({ id: m.id, text: m.text, options: m.options.map((o) => ({ key: o.key, label: o.label, action: actionOf(o) })) })),
    invalidText: draft.invalidText,
    maxInvalid: draft.maxInvalid,
    timeoutMinutes: draft.timeoutMinutes,
    timeoutDepartmentId: draft.timeoutDepartmentId || null,
  };
}

export type FieldErrors = Record<string, string>;

/** The first message per path, from the server's `details` or the schema's issues. */
export function errorsOf(details: { path: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const d of details) errors[d.path] ??= d.message;
  return errors;
}

export function checkMenu(draft: ConnectionMenuDraft): { ok: true; payload: ConnectionMenu } | { ok: false; errors: FieldErrors } {
  const parsed = connectionMenuSchema.safeParse(toPayload(draft));
  if (parsed.success) return { ok: true, payload: parsed.data };
  return { ok: false, errors: errorsOf(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))) };
}

/** An id for a new menu, not used by another one. */
export function newMenuId(draft: ConnectionMenuDraft): string {
  for (let n = draft.menus.length + 1; ; n++) if (!draft.menus.some((m) => m.id === `menu-${n}`)) return `menu-${n}`;
}

/** The first key from 1 to 9 no option of the menu uses ('' when all are taken). */
export function freeKey(menu: MenuDraft): string {
  return ['1', '2', '3', '4', '5', '6', '7', '8', '9'].find((k) => !menu.options.some((o) => o.key.trim() === k)) ?? '';
}

/** How a menu is named on the screen: 'Menu inicial', or 'Submenu 2 · <its first line>'. */
export function menuName(draft: ConnectionMenuDraft, id: string): string {
  const index = draft.menus.findIndex((m) => m.id === id);
  if (index < 0) return 'Submenu removido';
  if (index === 0) return 'Menu inicial';
  const first = draft.menus[index]!.text.split('\n')[0]!.trim();
  return `Submenu ${index + 1}${first ? ` · ${first.length > 40 ? `${first.slice(0, 40)}…` : first}` : ''}`;
}

/** Removes a menu and every option that opened it (those become department options to choose again). */
export function withoutMenu(draft: ConnectionMenuDraft, id: string): ConnectionMenuDraft {
  return {
    ...draft,
    menus: draft.menus
      .filter((m) => m.id !== id)
      .map((m) => ({ ...m, options: m.options.map((o) => (o.kind === 'submenu' && o.menuId === id ? { ...o, kind: 'department' as const, menuId: '' } : o)) })),
  };
}
