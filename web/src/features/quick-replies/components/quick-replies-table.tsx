import { AdminList } from '#web/components/ui/admin-list.tsx';
import { tdClass } from '#web/components/ui/list-page.tsx';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { useListFilters } from '#web/lib/use-list-filters.ts';
import { quickRepliesQuery, useDeleteQuickReply, useQuickReplies } from '#web/features/quick-replies/api/quick-replies.ts';

const empty = { shortcut: '' };

/** 'Respostas rápidas': saved texts typed as /atalho in the chat; admins create, edit and delete them. */
export function QuickRepliesTable() {
  const { user: me } = useSession();
  const list = useListFilters(empty);
  const replies = useQuickReplies(quickRepliesQuery(list.applied.shortcut, list.page));
  const remove = useDeleteQuickReply();

  return (
    <AdminList
      path="/quick-replies"
      title="Respostas rápidas"
      description="Textos prontos que a equipe envia digitando /atalho no chat."
      createLabel="Nova resposta"
      isAdmin={!!me?.isAdmin}
      list={list}
      filter={{ id: 'quick-replies-filter-shortcut', label: 'Atalho', value: list.draft.shortcut, onChange: (shortcut) => list.setDraft({ shortcut }) }}
      query={replies}
      minWidth="min-w-[560px]"
      headings={['#', 'Atalho', 'Texto']}
      memberScrollLabel="Lista de respostas rápidas"
      pagerId="quick-replies-pager"
      rowTestId="quick-reply-row"
      rowLabel={(reply) => `/${reply.shortcut}`}
      cells={(reply) => (
        <>
          <td className={`${tdClass} font-mono font-medium whitespace-nowrap`}>/{reply.shortcut}</td>
          <td className={`${tdClass} text-fg-muted`}>
            <span className="line-clamp-2 max-w-xl whitespace-pre-line">{reply.text}</span>
          </td>
        </>
      )}
      remove={{
        mutate: remove.mutate,
        isPending: remove.isPending,
        title: 'Excluir resposta rápida?',
        message: (reply) => `O atalho /${reply.shortcut} deixa de funcionar no chat. Isso não pode ser desfeito.`,
        onDeleted: () => showToast({ tone: 'success', title: 'Resposta rápida excluída' }),
      }}
    />
  );
}
