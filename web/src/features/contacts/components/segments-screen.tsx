import { useState } from 'react';
import { ArrowLeft, Pencil, Plus, Trash2 } from 'lucide-react';
import type { Segment } from '#contracts/segments.ts';
import { Button, ButtonLink } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { actionsCellClass, ListTable, rowActionClass, tdClass } from '#web/components/ui/list-page.tsx';
import { useSession } from '#web/lib/auth.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { showToast } from '#web/lib/notify.ts';
import { useDeleteSegment, useSegments } from '#web/api/segments.ts';
import { SegmentEditor } from './segment-editor.tsx';

/**
 * 'Segmentos' (/contacts/segments, from Contatos): the account's saved contact filters with how many
 * contacts each matches now; admins create, edit and delete them, members read (ADR-0226).
 */
export function SegmentsScreen() {
  const { user } = useSession();
  const admin = !!user?.isAdmin;
  const segments = useSegments();
  const remove = useDeleteSegment();
  const [editing, setEditing] = useState<Segment | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Segment | null>(null);
  const rows = segments.data?.data ?? [];

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-fg">Segmentos</h1>
          <p className="mt-1 text-sm text-fg-muted">Filtros de contatos salvos, para campanhas e exportações. A contagem é a de agora.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to="/contacts" variant="outline">
            <ArrowLeft className="size-4" aria-hidden="true" /> Contatos
          </ButtonLink>
          {admin ? (
            <Button onClick={() => setEditing('new')}>
              <Plus className="size-4" aria-hidden="true" /> Novo segmento
            </Button>
          ) : null}
        </div>
      </div>
      <ListTable
        minWidth="min-w-[560px]"
        loading={segments.isPending}
        headings={['Nome', 'Contatos', 'Atualizado em']}
        hasActions={admin}
        scrollLabel={admin ? undefined : 'Segmentos'}
        pager={null}
      >
        {rows.map((segment) => (
          <tr key={segment.id} className="hover:bg-bg-subtle" data-testid="segment-row">
            <td className={`${tdClass} font-medium`}>{segment.name}</td>
            <td className={`${tdClass} tabular-nums`}>{segment.count}</td>
            <td className={`${tdClass} text-fg-muted`}>{formatDateTime(segment.updatedAt)}</td>
            {admin ? (
              <td className={`${tdClass} ${actionsCellClass} text-right whitespace-nowrap`}>
                <button type="button" className={rowActionClass} aria-label={`Editar ${segment.name}`} title="Editar" onClick={() => setEditing(segment)}>
                  <Pencil className="size-4" aria-hidden="true" />
                </button>
                <button type="button" className={rowActionClass} aria-label={`Excluir ${segment.name}`} title="Excluir" onClick={() => setDeleting(segment)}>
                  <Trash2 className="size-4" aria-hidden="true" />
                </button>
              </td>
            ) : null}
          </tr>
        ))}
      </ListTable>
      {editing ? <SegmentEditor segment={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title="Excluir segmento?"
          message={`O segmento '${deleting.name}' deixa de existir; os contatos continuam como estão.`}
          confirmLabel="Excluir"
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                showToast({ tone: 'success', title: 'Segmento excluído' });
                setDeleting(null);
              },
            })
          }
        />
      ) : null}
    </div>
  );
}
