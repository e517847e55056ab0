import type { ReactNode } from 'react';
import { Archive, ArchiveRestore, Filter, RefreshCw } from 'lucide-react';
import { Button } from './button.tsx';
import { Card } from './misc.tsx';
import { Spinner } from './spinner.tsx';

/** The frame of the list screens: title, the filter toggle, refresh and the screen's own actions. */
export function ListPageHeader({
  title,
  description,
  filtersOpen,
  onToggleFilters,
  onRefresh,
  refreshing,
  actions,
}: {
  title: string;
  description?: string;
  filtersOpen: boolean;
  onToggleFilters: () => void;
  onRefresh: () => void;
  refreshing?: boolean;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-fg">{title}</h1>
        {description ? <p className="mt-1 text-sm text-fg-muted">{description}</p> : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={onToggleFilters} aria-expanded={filtersOpen} aria-controls="list-filters">
          <Filter className="size-4" aria-hidden="true" />
          {filtersOpen ? 'Esconder filtros' : 'Mostrar filtros'}
        </Button>
        <Button variant="outline" onClick={onRefresh} aria-label="Atualizar" disabled={refreshing}>
          <RefreshCw className={refreshing ? 'size-4 animate-spin' : 'size-4'} aria-hidden="true" />
          <span className="max-sm:sr-only">Atualizar</span>
        </Button>
        {actions}
      </div>
    </div>
  );
}

/**
 * The table of a list screen in its card: the column headings and the actions column ('Ações',
 * pinned to the right edge on phones unless `pinActions` is false: a row with many actions would
 * cover the row), the rows (or 'Carregando...' and 'Nenhum registro encontrado' while there are
 * none) and the pager below. `minWidth` is a literal Tailwind class: the table scrolls sideways below it.
 */
export function ListTable({
  minWidth,
  headings,
  pinActions = true,
  hasActions = true,
  scrollLabel,
  loading,
  pager,
  children,
}: {
  minWidth: string;
  headings: string[];
  pinActions?: boolean;
  /** False for rows without actions (a member's read-only list): no 'Ações' column then. */
  hasActions?: boolean;
  /**
   * For a table whose rows may hold nothing focusable (a member's read-only list): names the
   * sideways-scrolling region and makes it focusable, so keyboards can scroll it on a phone.
   */
  scrollLabel?: string;
  loading: boolean;
  pager: ReactNode;
  children: ReactNode[];
}) {
  return (
    <Card className="overflow-hidden">
      <div className="overflow-x-auto" {...(scrollLabel ? { tabIndex: 0, role: 'region', 'aria-label': scrollLabel } : {})}>
        <table className={`w-full ${minWidth}`}>
          <thead className="border-b border-border bg-bg-subtle">
            <tr>
              {headings.map((heading) => (
                <th key={heading} scope="col" className={thClass}>
                  {heading}
                </th>
              ))}
              {hasActions ? (
                <th scope="col" className={`${thClass} ${pinActions ? actionsHeadClass : ''} text-right`}>
                  Ações
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {children.length === 0 ? <TableState colSpan={headings.length + (hasActions ? 1 : 0)} loading={loading} /> : children}
          </tbody>
        </table>
      </div>
      {/* Not under the first 'Carregando...': the rows would push it down as they arrive (a layout shift). */}
      {loading && children.length === 0 ? null : pager}
    </Card>
  );
}

/** The table's body states: 'Carregando...' and 'Nenhum registro encontrado'. */
export function TableState({ colSpan, loading }: { colSpan: number; loading: boolean }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-10 text-center text-sm text-fg-muted">
        {loading ? (
          <span className="inline-flex items-center gap-2" role="status">
            <Spinner className="size-4 text-brand" /> Carregando...
          </span>
        ) : (
          'Nenhum registro encontrado'
        )}
      </td>
    </tr>
  );
}

const thClass = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-fg-muted uppercase';
export const tdClass = 'px-4 py-3 text-sm text-fg';
/**
 * The actions column of a table: on a phone, where the table scrolls sideways, it stays pinned to
 * the right edge so editing never needs a scroll.
 */
export const actionsCellClass = 'sticky right-0 bg-surface shadow-[-10px_0_10px_-10px_rgb(0_0_0/0.25)] sm:static sm:shadow-none';
const actionsHeadClass = 'sticky right-0 bg-bg-subtle sm:static';
/** The icon links and buttons in a row's actions cell ('Editar', 'Excluir'...). */
export const rowActionClass =
  'inline-flex size-8 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-40';

/** 'Arquivar {name}' or, on an archived row, 'Desarquivar {name}', among a row's actions. */
export function ArchiveRowAction({ name, archived, busy, onToggle }: { name: string; archived: boolean; busy: boolean; onToggle: () => void }) {
  const label = archived ? 'Desarquivar' : 'Arquivar';
  return (
    <button type="button" className={rowActionClass} disabled={busy} onClick={onToggle} aria-label={`${label} ${name}`} title={label}>
      {archived ? <ArchiveRestore className="size-4" aria-hidden="true" /> : <Archive className="size-4" aria-hidden="true" />}
    </button>
  );
}

/**
 * The filter panel the list header toggles ('Mostrar filtros'): its fields, then 'Aplicar filtros'.
 * `columns` is the grid of the fields plus the button (a literal Tailwind class).
 */
export function FiltersCard({ columns, onApply, children }: { columns: string; onApply: () => void; children: ReactNode }) {
  return (
    <Card id="list-filters" className="p-4">
      <form
        className={`grid gap-4 ${columns} sm:items-end`}
        onSubmit={(e) => {
          e.preventDefault();
          onApply();
        }}
      >
        {children}
        <Button type="submit">Aplicar filtros</Button>
      </form>
    </Card>
  );
}
