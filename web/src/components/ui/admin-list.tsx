import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { defaultPerPage } from '#contracts/list-query.ts';
import { useRefreshFlag } from '#web/lib/use-refresh-flag.ts';
import { ButtonLink } from './button.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { InputField } from './field.tsx';
import { actionsCellClass, FiltersCard, ListPageHeader, ListTable, rowActionClass, tdClass } from './list-page.tsx';
import { Pagination } from './pagination.tsx';

/** The list's filters and page, as `useListFilters` keeps them; the one filter field is the screen's. */
interface ListState {
  open: boolean;
  toggle: () => void;
  apply: () => void;
  page: number;
  setPage: (page: number) => void;
}

/** The list query, as TanStack Query returns it. */
interface ListQuery<Row> {
  data?: { data: Row[]; totalCount: number };
  isPending: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/** 'Excluir' on each row, then a question ('Excluir etiqueta?') before the delete and a toast after it. */
interface RowRemoval<Row> {
  mutate: (id: string, options: { onSuccess: () => void }) => void;
  isPending: boolean;
  title: string;
  message: (row: Row) => string;
  onDeleted: () => void;
}

/**
 * A small admin list screen (departments, tags, quick replies): the header with the admin's create
 * button, a one-field filter, the numbered rows with the admin's actions ('Editar' and the screen's
 * own, or 'Excluir' with its question) and the pager. Members see the same list read only, without
 * the 'Ações' column, so the sideways-scrolling region takes the focus. A saved modal refreshes the list.
 */
export function AdminList<Row extends { id: string }>({
  path,
  title,
  description,
  createLabel,
  isAdmin,
  list,
  filter,
  query,
  minWidth,
  headings,
  memberScrollLabel,
  pagerId,
  rowTestId,
  rowLabel,
  cells,
  rowAction,
  remove,
  settings,
}: {
  /** The list's address ('/tags'): 'create' and '{id}/edit' hang below it. */
  path: string;
  title: string;
  description: string;
  createLabel: string;
  isAdmin: boolean;
  list: ListState;
  filter: { id: string; label: string; value: string; onChange: (value: string) => void };
  query: ListQuery<Row>;
  minWidth: string;
  headings: string[];
  memberScrollLabel: string;
  pagerId: string;
  rowTestId: string;
  /** How the actions name the row: 'Editar {label}'. */
  rowLabel: (row: Row) => string;
  /** The row's cells after its number. */
  cells: (row: Row) => ReactNode;
  /** The screen's own action after 'Editar'. */
  rowAction?: (row: Row) => ReactNode;
  remove?: RowRemoval<Row>;
  /** Shown to admins between the header and the filters. */
  settings?: ReactNode;
}) {
  const [deleting, setDeleting] = useState<Row | null>(null);
  const rows = query.data?.data ?? [];

  useRefreshFlag(path, query.refetch);

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
      <ListPageHeader
        title={title}
        description={description}
        filtersOpen={list.open}
        onToggleFilters={list.toggle}
        onRefresh={() => void query.refetch()}
        refreshing={query.isFetching}
        actions={
          isAdmin ? (
            <ButtonLink to={`${path}/create`}>
              <Plus className="size-4" aria-hidden="true" /> {createLabel}
            </ButtonLink>
          ) : null
        }
      />
      {isAdmin ? settings : null}
      {list.open ? (
        <FiltersCard columns="sm:grid-cols-[1fr_auto]" onApply={list.apply}>
          <InputField id={filter.id} label={filter.label} value={filter.value} onChange={(e) => filter.onChange(e.target.value)} />
        </FiltersCard>
      ) : null}
      <ListTable
        minWidth={minWidth}
        loading={query.isPending}
        headings={headings}
        pinActions={isAdmin}
        hasActions={isAdmin}
        scrollLabel={isAdmin ? undefined : memberScrollLabel}
        pager={<Pagination page={list.page} perPage={defaultPerPage} total={query.data?.totalCount ?? 0} onPageChange={list.setPage} idPrefix={pagerId} />}
      >
        {rows.map((row, i) => (
          <tr key={row.id} className="hover:bg-bg-subtle" data-testid={rowTestId}>
            <td className={`${tdClass} text-fg-muted tabular-nums`}>{list.page * defaultPerPage + i + 1}</td>
            {cells(row)}
            {isAdmin ? (
              <td className={`${tdClass} ${actionsCellClass} py-2`}>
                <div className="flex justify-end gap-0.5">
                  <Link to={`${path}/${row.id}/edit`} className={rowActionClass} aria-label={`Editar ${rowLabel(row)}`} title="Editar">
                    <Pencil className="size-4" aria-hidden="true" />
                  </Link>
                  {rowAction?.(row)}
                  {remove ? (
                    <button type="button" className={rowActionClass} onClick={() => setDeleting(row)} aria-label={`Excluir ${rowLabel(row)}`} title="Excluir">
                      <Trash2 className="size-4" aria-hidden="true" />
                    </button>
                  ) : null}
                </div>
              </td>
            ) : null}
          </tr>
        ))}
      </ListTable>
      {remove && deleting ? (
        <ConfirmDialog
          title={remove.title}
          message={remove.message(deleting)}
          confirmLabel="Excluir"
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                remove.onDeleted();
                setDeleting(null);
              },
            })
          }
        />
      ) : null}
    </div>
  );
}
