import { useState } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, FileText, Plus, RefreshCw, Trash2 } from 'lucide-react';
import {
  marketingBillingNote,
  templateCategoryLabels,
  templateHeaderLabels,
  templateStatusLabels,
  type MessageTemplate,
  type TemplateStatus,
} from '#contracts/templates.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { ListTable, rowActionClass, tdClass } from '#web/components/ui/list-page.tsx';
import { Alert, Badge, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { useService } from '#web/features/services/api/get-service.ts';
import { useTemplates } from '#web/api/message-templates.ts';
import { useDeleteTemplate, useSyncTemplates } from '#web/features/services/api/templates.ts';
import { TemplateModal } from './template-form.tsx';

const statusTones: Record<TemplateStatus, 'success' | 'warning' | 'danger' | 'neutral'> = {
  APPROVED: 'success',
  PENDING: 'warning',
  REJECTED: 'danger',
  PAUSED: 'warning',
  DISABLED: 'neutral',
};

export function TemplateStatusBadge({ template }: { template: Pick<MessageTemplate, 'status'> }) {
  return <Badge tone={statusTones[template.status]}>{templateStatusLabels[template.status]}</Badge>;
}

function syncSummary(created: number, updated: number, removed: number): string {
  const parts = [
    created ? `${created} ${created === 1 ? 'novo' : 'novos'}` : '',
    updated ? `${updated} ${updated === 1 ? 'atualizado' : 'atualizados'}` : '',
    removed ? `${removed} ${removed === 1 ? 'removido' : 'removidos'}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'Nenhuma mudança';
}

function EmptyState({ isAdmin, onCreate, onSync, syncing }: { isAdmin: boolean; onCreate: () => void; onSync: () => void; syncing: boolean }) {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
      <FileText className="size-10 text-fg-muted" aria-hidden="true" />
      <h2 className="text-lg font-semibold text-fg">Nenhum modelo de mensagem ainda</h2>
      <p className="max-w-md text-sm text-fg-muted">
        Modelos aprovados pela Meta são a única forma de falar com um cliente depois de 24 horas sem resposta dele.
        {isAdmin ? ' Sincronize os modelos que já existem na sua conta da Meta ou crie um novo.' : ' Peça a um administrador para criá-los.'}
      </p>
      {isAdmin ? (
        <div className="flex flex-wrap justify-center gap-2">
          <Button variant="outline" onClick={onSync} loading={syncing}>
            <RefreshCw className="size-4" aria-hidden="true" /> Sincronizar
          </Button>
          <Button onClick={onCreate}>
            <Plus className="size-4" aria-hidden="true" /> Novo modelo
          </Button>
        </div>
      ) : null}
    </Card>
  );
}

/** 'Modelos de mensagem' of a WhatsApp (API oficial) connection (/services/{id}/templates). */
export function TemplatesScreen({ serviceId }: { serviceId: string }) {
  const { user } = useSession();
  const isAdmin = !!user?.isAdmin;
  const service = useService(serviceId);
  const templates = useTemplates(serviceId);
  const sync = useSyncTemplates(serviceId);
  const remove = useDeleteTemplate(serviceId);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<MessageTemplate | null>(null);
  const rows = templates.data?.data ?? [];
  const isCloud = service.data ? service.data.type === 'whatsapp_cloud' : true;

  const runSync = () =>
    sync.mutate(undefined, {
      onSuccess: (result) =>
        showToast({ tone: 'success', title: 'Modelos sincronizados', message: syncSummary(result.created, result.updated, result.removed) }),
    });

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <Link to="/services" className="inline-flex items-center gap-1 text-sm text-fg-muted hover:text-fg">
            <ArrowLeft className="size-4" aria-hidden="true" /> Conexões
          </Link>
          <h1 className="mt-2 text-2xl font-semibold tracking-tight text-fg">Modelos de mensagem</h1>
          <p className="mt-1 text-sm text-fg-muted">
            {service.data ? `${service.data.name}${service.data.displayPhoneNumber ? ` · ${service.data.displayPhoneNumber}` : ''}` : '\u00a0'}
          </p>
        </div>
        {isAdmin && isCloud && rows.length ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={runSync} loading={sync.isPending}>
              <RefreshCw className="size-4" aria-hidden="true" /> Sincronizar
            </Button>
            <Button onClick={() => setCreating(true)}>
              <Plus className="size-4" aria-hidden="true" /> Novo modelo
            </Button>
          </div>
        ) : null}
      </div>

      {!isCloud ? (
        <Alert tone="info">Modelos de mensagem existem só nas conexões do WhatsApp (API oficial).</Alert>
      ) : templates.isPending ? (
        <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando...
        </p>
      ) : rows.length === 0 ? (
        <EmptyState isAdmin={isAdmin} onCreate={() => setCreating(true)} onSync={runSync} syncing={sync.isPending} />
      ) : (
        <>
          <p className="text-sm text-fg-muted">{marketingBillingNote}</p>
          <ListTable
            minWidth="min-w-[680px]"
            loading={false}
            headings={['Nome', 'Categoria', 'Status', 'Texto']}
            hasActions={isAdmin}
            scrollLabel={isAdmin ? undefined : 'Modelos de mensagem'}
            pager={null}
          >
            {rows.map((template) => (
              <tr key={template.id} className="align-top hover:bg-bg-subtle" data-testid="template-row">
                <td className={tdClass}>
                  <p className="font-mono text-[13px] font-medium">
                    {template.name.split('_').map((part, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one name, in order
                      <span key={i}>
                        {i ? '_' : ''}
                        {i ? <wbr /> : null}
                        {part}
                      </span>
                    ))}
                  </p>
                  <p className="mt-0.5 text-xs text-fg-muted">{template.language}</p>
                </td>
                <td className={tdClass}>{templateCategoryLabels[template.category]}</td>
                <td className={tdClass}>
                  <TemplateStatusBadge template={template} />
                  {template.rejectionReason ? <p className="mt-1 text-xs text-fg-muted">Motivo: {template.rejectionReason}</p> : null}
                </td>
                <td className={`${tdClass} max-w-sm text-fg-muted`}>
                  {template.headerFormat && template.headerFormat !== 'TEXT' ? (
                    <p className="mb-1 text-xs">Cabeçalho: {templateHeaderLabels[template.headerFormat]}</p>
                  ) : null}
                  <p className="line-clamp-3 whitespace-pre-line">{template.body}</p>
                </td>
                {isAdmin ? (
                  <td className={`${tdClass} py-2 text-right`}>
                    <button
                      type="button"
                      className={rowActionClass}
                      onClick={() => setDeleting(template)}
                      aria-label={`Excluir ${template.name} (${template.language})`}
                      title="Excluir"
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </ListTable>
        </>
      )}

      {creating ? <TemplateModal serviceId={serviceId} onClose={() => setCreating(false)} onSaved={() => setCreating(false)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title="Excluir modelo?"
          message={`O modelo "${deleting.name}" será excluído também na Meta, em todos os idiomas. Esta ação não pode ser desfeita.`}
          confirmLabel="Excluir"
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                showToast({ tone: 'success', title: 'Modelo excluído' });
                setDeleting(null);
              },
            })
          }
        />
      ) : null}
    </div>
  );
}
