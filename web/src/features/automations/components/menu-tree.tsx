import type { ReactNode } from 'react';
import { type ConnectionMenuDraft, menuName, optionKindLabels } from '#web/features/automations/menu-form.ts';
import type { PreviewNames } from '#web/features/automations/menu-preview.ts';

/**
 * The menus as a tree, from the first one: each option with where it leads, a submenu's options
 * under it (a submenu already on the way is shown once, not followed again). Submenus no option
 * opens are listed apart.
 */
export function MenuTree({ draft, names }: { draft: ConnectionMenuDraft; names: PreviewNames }) {
  const reached = new Set<string>();
  const branch = (id: string, trail: string[]): ReactNode => {
    const node = draft.menus.find((m) => m.id === id);
    reached.add(id);
    if (!node) return null;
    return (
      <ul className="mt-1 space-y-1 border-l border-border pl-3">
        {node.options.map((o, j) => {
          const lead =
            o.kind === 'department'
              ? `Fila: ${o.departmentId ? names.department(o.departmentId) : '—'}`
              : o.kind === 'user'
                ? `Pessoa: ${o.userId ? names.user(o.userId) : '—'}`
                : o.kind === 'answer'
                  ? 'Resposta em texto'
                  : menuName(draft, o.menuId);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: options have no id; the tree is redrawn whole on each change.
            <li key={j} className="text-sm">
              <span className="font-mono font-semibold text-brand">{o.key || '?'}</span> <span className="text-fg">{o.label || 'Sem nome'}</span>{' '}
              <span className="text-xs text-fg-muted" title={optionKindLabels[o.kind]}>
                → {lead}
              </span>
              {o.kind === 'submenu' && o.menuId && !trail.includes(o.menuId) ? branch(o.menuId, [...trail, o.menuId]) : null}
            </li>
          );
        })}
      </ul>
    );
  };
  const first = draft.menus[0];
  const tree = first ? branch(first.id, [first.id]) : null;
  const loose = draft.menus.slice(1).filter((m) => !reached.has(m.id));
  return (
    <div className="space-y-3" data-testid="menu-tree">
      <div>
        <p className="text-sm font-semibold text-fg">Menu inicial</p>
        {tree}
      </div>
      {loose.length ? (
        <div>
          <p className="text-sm font-semibold text-fg">Submenus que nenhuma opção abre</p>
          <ul className="mt-1 list-disc pl-5 text-sm text-fg-muted">
            {loose.map((m) => (
              <li key={m.id}>{menuName(draft, m.id)}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
