import { useState } from 'react';
import { Link } from 'react-router';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { defaultPerPage } from '#contracts/list-query.ts';
import type { Tag } from '#contracts/tags.ts';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { actionsCellClass, FiltersCard, ListPageHeader, ListTable, tdClass } from '#web/components/ui/list-page.tsx';
import { Pagination } from '#web/components/ui/pagination.tsx';
import { TagChip } from '#web/components/ui/tag-chip.tsx';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { useListFilters } from '#web/lib/use-list-filters.ts';
import { useRefreshFlag } from '#web/lib/use-refresh-flag.ts';
import { tagsQuery, useDeleteTag, useTags } from '#web/features/tags/api/tags.ts';

const iconLink =
  'inline-flex size-8 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-40';

const empty = { name: '' };

/** 'Etiquetas': the account's palette of named, coloured tags; admins create, edit and delete them. */
export function TagsTable() {
  const { user: me } = useSession();
  const list = useListFilters(empty);
  const tags = useTags(tagsQuery(list.applied.name, list.page));
  const remove = useDeleteTag();
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const rows = tags.data?.data ?? [];

  useRefreshFlag('/tags', tags.refetch);

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
      <ListPageHeader
        title="Etiquetas"
        description="Etiquetas coloridas para marcar e filtrar contatos, como VIP ou Atacado."
        filtersOpen={list.open}
        onToggleFilters={list.toggle}
        onRefresh={() => void tags.refetch()}
        refreshing={tags.isFetching}
        actions={
          me?.isAdmin ? (
            <ButtonLink to="/tags/create">
              <Plus className="size-4" aria-hidden="true" /> Nova etiqueta
            </ButtonLink>
          ) : null
        }
      />
      {list.open ? (
        <FiltersCard columns="sm:grid-cols-[1fr_auto]" onApply={list.apply}>
          <InputField id="tags-filter-name" label="Nome" value={list.draft.name} onChange={(e) => list.setDraft({ name: e.target.value })} />
        </FiltersCard>
      ) : null}
      <ListTable
        minWidth="min-w-[480px]"
        loading={tags.isPending}
        headings={['#', 'Etiqueta', 'Cor']}
        pinActions={!!me?.isAdmin}
        scrollLabel={me?.isAdmin ? undefined : 'Lista de etiquetas'}
        pager={<Pagination page={list.page} perPage={defaultPerPage} total={tags.data?.totalCount ?? 0} onPageChange={list.setPage} idPrefix="tags-pager" />}
      >
        {rows.map((tag, i) => (
          <tr key={tag.id} className="hover:bg-bg-subtle" data-testid="tag-row">
            <td className={`${tdClass} text-fg-muted tabular-nums`}>{list.page * defaultPerPage + i + 1}</td>
            <td className={tdClass}>
              <TagChip name={tag.name} color={tag.color} className="text-sm" />
            </td>
            <td className={`${tdClass} text-fg-muted`}>
              <span className="inline-flex items-center gap-2 font-mono text-xs">
                <span className="size-4 rounded border border-border" style={{ backgroundColor: tag.color }} aria-hidden="true" />
                {tag.color}
              </span>
            </td>
            <td className={`${tdClass} ${actionsCellClass} py-2`}>
              {me?.isAdmin ? (
                <div className="flex justify-end gap-0.5">
                  <Link to={`/tags/${tag.id}/edit`} className={iconLink} aria-label={`Editar ${tag.name}`} title="Editar">
                    <Pencil className="size-4" aria-hidden="true" />
                  </Link>
                  <button type="button" className={iconLink} onClick={() => setDeleting(tag)} aria-label={`Excluir ${tag.name}`} title="Excluir">
                    <Trash2 className="size-4" aria-hidden="true" />
                  </button>
                </div>
              ) : null}
            </td>
          </tr>
        ))}
      </ListTable>
      {deleting ? (
        <ConfirmDialog
          title="Excluir etiqueta?"
          message={`A etiqueta ${deleting.name} sai de todos os contatos que a usam. Isso não pode ser desfeito.`}
          confirmLabel="Excluir"
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                showToast({ tone: 'success', title: 'Etiqueta excluída' });
                setDeleting(null);
              },
            })
          }
        />
      ) : null}
    </div>
  );
}
