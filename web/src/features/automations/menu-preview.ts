/**
 * The 'Testar' panel's conversation: the menu played as the customer sees it, from the form's
 * current values, following the lifecycle's menu rules (docs/conversation-lifecycle.md#events--states):
 * each menu sent as `menuMessage`, '0' one level up (the first menu again at the top), a text
 * answer sent while the menu stays, an unknown key the invalid-option text and the menu again, and
 * after `maxInvalid` in a row the timeout department. Nothing is sent anywhere.
 */
import { fillAutomationText, menuMessage } from '#contracts/automations.ts';
import type { ConnectionMenuDraft } from './menu-form.ts';
import { toPayload } from './menu-form.ts';

export interface PreviewLine {
  from: 'bot' | 'customer' | 'note';
  text: string;
}
export interface PreviewState {
  path: string[];
  invalid: number;
  /** The conversation left the menu (a department, a person, too many invalid options). */
  ended: boolean;
  lines: PreviewLine[];
}
export interface PreviewNames {
  department(id: string): string;
  user(id: string): string;
}

/** The sample customer the preview fills the variables for. */
const sample = { contact: { name: 'Maria Silva' }, department: null, protocol: '20261127-0001', agent: null };
const fill = (text: string) => fillAutomationText(text, sample);

function menuLine(draft: ConnectionMenuDraft, path: string[]): PreviewLine[] {
  const menus = toPayload(draft).menus;
  const node = menus.find((m) => m.id === path[path.length - 1]);
  return node ? [{ from: 'bot', text: fill(menuMessage(node, path.length === 1)) }] : [];
}

export function startPreview(draft: ConnectionMenuDraft): PreviewState {
  const first = draft.menus[0];
  if (!first) return { path: [], invalid: 0, ended: true, lines: [{ from: 'note', text: 'Cadastre pelo menos um menu para testar.' }] };
  return { path: [first.id], invalid: 0, ended: false, lines: menuLine(draft, [first.id]) };
}

export function previewReply(draft: ConnectionMenuDraft, state: PreviewState, typed: string, names: PreviewNames): PreviewState {
  if (state.ended) return state;
  const key = typed.trim();
  const lines: PreviewLine[] = [...state.lines, { from: 'customer', text: typed }];
  const node = draft.menus.find((m) => m.id === state.path[state.path.length - 1]);
  const end = (text: string): PreviewState => ({ ...state, ended: true, lines: [...lines, { from: 'note', text }] });
  if (!node) return end('Este menu foi removido.');
  if (key === '0') {
    const path = state.path.length > 1 ? state.path.slice(0, -1) : state.path;
    return { path, invalid: 0, ended: false, lines: [...lines, ...menuLine(draft, path)] };
  }
  const option = node.options.find((o) => o.key.trim() === key);
  if (!option) {
    const invalid = state.invalid + 1;
    if (invalid >= draft.maxInvalid) {
      const where = draft.timeoutDepartmentId ? `a fila de ${names.department(draft.timeoutDepartmentId)}` : 'a fila sem departamento';
      return end(`${invalid} opções inválidas seguidas: a conversa vai para ${where}.`);
    }
    return { ...state, invalid, lines: [...lines, { from: 'bot', text: fill(draft.invalidText) }, ...menuLine(draft, state.path)] };
  }
  switch (option.kind) {
    case 'department':
      return end(`A conversa vai para a fila de ${names.department(option.departmentId)}.`);
    case 'user':
      return end(`A conversa vai direto para ${names.user(option.userId)}.`);
    case 'answer':
      return { ...state, invalid: 0, lines: [...lines, { from: 'bot', text: fill(option.text) }] };
    case 'submenu': {
      if (!draft.menus.some((m) => m.id === option.menuId)) return end('Escolha o submenu desta opção.');
      const path = [...state.path, option.menuId];
      return { path, invalid: 0, ended: false, lines: [...lines, ...menuLine(draft, path)] };
    }
  }
}
