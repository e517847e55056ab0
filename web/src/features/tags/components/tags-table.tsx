import { AdminList } from '#web/components/ui/admin-list.tsx';
import { tdClass } from '#web/components/ui/list-page.tsx';
import { TagChip } from '#web/components/ui/tag-chip.tsx';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { useListFilters } from '#web/lib/use-list-filters.ts';
import { tagsQuery, useDeleteTag, useTags } from '#web/features/tags/api/tags.ts';

const empty = { name: '' };

/** 'Etiquetas': the account's palette of named, coloured tags; admins create, edit and delete them. */
export function TagsTable() {
  const { user: me } = useSession();
  const list = useListFilters(empty);
  const tags = useTags(tagsQuery(list.applied.name, list.page));
  const remove = useDeleteTag();

  return (
    <AdminList
      path="/tags"
      title="Etiquetas"
      description="Etiquetas coloridas para marcar e filtrar contatos, como VIP ou Atacado."
      createLabel="Nova etiqueta"
      isAdmin={!!me?.isAdmin}
      list={list}
      filter={{ id: 'tags-filter-name', label: 'Nome', value: list.draft.name, onChange: (name) => list.setDraft({ name }) }}
      query={tags}
      minWidth="min-w-[480px]"
      headings={['#', 'Etiqueta', 'Cor']}
      memberScrollLabel="Lista de etiquetas"
      pagerId="tags-pager"
      rowTestId="tag-row"
      rowLabel={(tag) => tag.name}
      cells={(tag) => (
        <>
          <td className={tdClass}>
            <TagChip name={tag.name} color={tag.color} className="text-sm" />
          </td>
          <td className={`${tdClass} text-fg-muted`}>
            <span className="inline-flex items-center gap-2 font-mono text-xs">
              <span className="size-4 rounded border border-border" style={{ backgroundColor: tag.color }} aria-hidden="true" />
              {tag.color}
            </span>
          </td>
        </>
      )}
      remove={{
        mutate: remove.mutate,
        isPending: remove.isPending,
        title: 'Excluir etiqueta?',
        message: (tag) => `A etiqueta ${tag.name} sai de todos os contatos que a usam. Isso não pode ser desfeito.`,
        onDeleted: () => showToast({ tone: 'success', title: 'Etiqueta excluída' }),
      }}
    />
  );
}
