import { useState } from 'react';
import { Link } from 'react-router';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { defaultPerPage } from '#contracts/list-query.ts';
import type { QuickReply } from '#contracts/quick-replies.ts';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { actionsCellClass, FiltersCard, ListPageHeader, ListTable, tdClass } from '#web/components/ui/list-page.tsx';
import { Pagination } from '#web/components/ui/pagination.tsx';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { useListFilters } from '#web/lib/use-list-filters.ts';
import { useRefreshFlag } from '#web/lib/use-refresh-flag.ts';
import { quickRepliesQuery, useDeleteQuickReply, useQuickReplies } from '#web/features/quick-replies/api/quick-replies.ts';

const iconLink =
  'inline-flex size-8 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-40';

const empty = { shortcut: '' };

/** 'Respostas rápidas': saved texts typed as /atalho in the chat; admins create, edit and delete them. */
export function QuickRepliesTable() {
  const { user: me } = useSession();
  const list = useListFilters(empty);
  const replies = useQuickReplies(quickRepliesQuery(list.applied.shortcut, list.page));
  const remove = useDeleteQuickReply();
  const [deleting, setDeleting] = useState<QuickReply | null>(null);
  const rows = replies.data?.data ?? [];

  useRefreshFlag('/quick-replies', replies.refetch);

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
      <ListPageHeader
        title="Respostas rápidas"
        description="Textos prontos que a equipe envia digitando /atalho no chat."
        filtersOpen={list.open}
        onToggleFilters={list.toggle}
        onRefresh={() => void replies.refetch()}
        refreshing={replies.isFetching}
        actions={
          me?.isAdmin ? (
            <ButtonLink to="/quick-replies/create">
              <Plus className="size-4" aria-hidden="true" /> Nova resposta
            </ButtonLink>
          ) : null
        }
      />
      {list.open ? (
        <FiltersCard columns="sm:grid-cols-[1fr_auto]" onApply={list.apply}>
          <InputField
            id="quick-replies-filter-shortcut"
            label="Atalho"
            value={list.draft.shortcut}
            onChange={(e) => list.setDraft({ shortcut: e.target.value })}
          />
        </FiltersCard>
      ) : null}
      <ListTable
        minWidth="min-w-[560px]"
        loading={replies.isPending}
        headings={['#', 'Atalho', 'Texto']}
        pinActions={!!me?.isAdmin}
        scrollLabel={me?.isAdmin ? undefined : 'Lista de respostas rápidas'}
        pager={
          <Pagination
            page={list.page}
            perPage={defaultPerPage}
            total={replies.data?.totalCount ?? 0}
            onPageChange={list.setPage}
            idPrefix="quick-replies-pager"
          />
        }
      >
        {rows.map((reply, i) => (
          <tr key={reply.id} className="hover:bg-bg-subtle" data-testid="quick-reply-row">
            <td className={`${tdClass} text-fg-muted tabular-nums`}>{list.page * defaultPerPage + i + 1}</td>
            <td className={`${tdClass} font-mono font-medium whitespace-nowrap`}>/{reply.shortcut}</td>
            <td className={`${tdClass} text-fg-muted`}>
              <span className="line-clamp-2 max-w-xl whitespace-pre-line">{reply.text}</span>
            </td>
            <td className={`${tdClass} ${actionsCellClass} py-2`}>
              {me?.isAdmin ? (
                <div className="flex justify-end gap-0.5">
                  <Link to={`/quick-replies/${reply.id}/edit`} className={iconLink} aria-label={`Editar /${reply.shortcut}`} title="Editar">
                    <Pencil className="size-4" aria-hidden="true" />
                  </Link>
                  <button type="button" className={iconLink} onClick={() => setDeleting(reply)} aria-label={`Excluir /${reply.shortcut}`} title="Excluir">
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
          title="Excluir resposta rápida?"
          message={`O atalho /${deleting.shortcut} deixa de funcionar no chat. Isso não pode ser desfeito.`}
          confirmLabel="Excluir"
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                showToast({ tone: 'success', title: 'Resposta rápida excluída' });
                setDeleting(null);
              },
            })
          }
        />
      ) : null}
    </div>
  );
}
