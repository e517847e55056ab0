import { useState } from 'react';
import { Plus, Webhook } from 'lucide-react';
import {
  type WebhookSubscription,
  type WebhookSubscriptionWithSecret,
  webhookEventLabels,
  webhookOutcomeLabels,
  webhookStatusLabels,
} from '#contracts/webhooks.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { Alert, Badge, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession } from '#web/lib/auth.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { showToast } from '#web/lib/notify.ts';
import {
  useDeleteWebhook,
  useEnableWebhook,
  useRotateWebhookSecret,
  useSendWebhookTest,
  useWebhookSubscriptions,
} from '#web/features/webhooks/api/webhooks.ts';
import { WebhookDeliveries } from './webhook-deliveries.tsx';
import { WebhookFormDialog } from './webhook-form-dialog.tsx';
import { WebhookSecretShownOnce } from './webhook-secret.tsx';

const statusTone = { active: 'success', auto_disabled: 'danger', paused: 'neutral' } as const;

function WebhookCard({
  webhook,
  onEdit,
  onDelete,
  onRotated,
}: {
  webhook: WebhookSubscription;
  onEdit: () => void;
  onDelete: () => void;
  onRotated: (created: WebhookSubscriptionWithSecret) => void;
}) {
  const [showLog, setShowLog] = useState(false);
  const test = useSendWebhookTest();
  const enable = useEnableWebhook();
  const rotate = useRotateWebhookSecret();
  const logId = `webhook-log-${webhook.id}`;
  const name = webhook.description || webhook.url;
  const sendTest = () =>
    test.mutate(webhook.id, {
      onSuccess: (delivery) => {
        const attempt = delivery.attempts[0];
        const answered = attempt?.status === null || attempt?.status === undefined ? '' : ` (HTTP ${attempt.status}, ${attempt.ms} ms)`;
        showToast(
          delivery.state === 'delivered'
            ? { tone: 'success', title: 'Evento de teste entregue', message: `O destino respondeu${answered}.` }
            : { tone: 'error', title: 'O evento de teste falhou', message: `${attempt ? webhookOutcomeLabels[attempt.outcome] : ''}${answered}.` },
        );
        setShowLog(true);
      },
    });
  return (
    <li data-testid="webhook-row">
      <Card className="space-y-3 p-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="truncate text-base font-semibold text-fg">{name}</h2>
            <p className="break-all font-mono text-xs text-fg-muted">{webhook.url}</p>
          </div>
          <Badge tone={statusTone[webhook.status]}>{webhookStatusLabels[webhook.status]}</Badge>
        </div>
        {webhook.status === 'auto_disabled' ? (
          <Alert tone="danger">
            Desativado em {formatDateTime(webhook.disabledAt!)}: as entregas falharam por 24 horas seguidas. Corrija o destino, envie um evento de teste e
            reative.
          </Alert>
        ) : null}
        <ul className="flex flex-wrap gap-1.5" aria-label={`Eventos de ${name}`}>
          {webhook.eventTypes.map((type) => (
            <li key={type}>
              <Badge tone="neutral">{webhookEventLabels[type]}</Badge>
            </li>
          ))}
        </ul>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <div className="flex gap-1">
            <dt className="text-fg-muted">Última entrega</dt>
            <dd className="text-fg">{webhook.lastSuccessAt ? formatDateTime(webhook.lastSuccessAt) : 'Nenhuma ainda'}</dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-fg-muted">Falhas seguidas</dt>
            <dd className="text-fg">{webhook.consecutiveFailures}</dd>
          </div>
        </dl>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" loading={test.isPending} onClick={sendTest}>
            Enviar evento de teste
          </Button>
          <Button variant="outline" size="sm" aria-expanded={showLog} aria-controls={logId} onClick={() => setShowLog((v) => !v)}>
            {showLog ? 'Ocultar entregas' : 'Entregas'}
          </Button>
          {webhook.enabled ? null : (
            <Button
              size="sm"
              loading={enable.isPending}
              onClick={() => enable.mutate(webhook.id, { onSuccess: () => showToast({ tone: 'success', title: 'Webhook reativado' }) })}
            >
              Reativar
            </Button>
          )}
          <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Editar o webhook ${name}`}>
            Editar
          </Button>
          <Button variant="outline" size="sm" loading={rotate.isPending} onClick={() => rotate.mutate(webhook.id, { onSuccess: onRotated })}>
            Gerar novo segredo
          </Button>
          <Button variant="outline" size="sm" className="text-danger" onClick={onDelete} aria-label={`Excluir o webhook ${name}`}>
            Excluir
          </Button>
        </div>
        <div id={logId} hidden={!showLog}>
          {showLog ? <WebhookDeliveries id={webhook.id} /> : null}
        </div>
      </Card>
    </li>
  );
}

/**
 * 'Webhooks' (/webhooks, docs/product.md#webhooks): the account's subscriptions to its events
 * (ADR-0233), each with its status, events and delivery log; admins create,
 * edit, test, re-enable, rotate the secret of and delete them. A secret is shown once.
 */
export function WebhooksScreen() {
  const { user } = useSession();
  const admin = !!user?.isAdmin;
  const webhooks = useWebhookSubscriptions(admin);
  const remove = useDeleteWebhook();
  const [form, setForm] = useState<{ editing?: WebhookSubscription }>();
  const [deleting, setDeleting] = useState<WebhookSubscription>();
  const [rotated, setRotated] = useState<WebhookSubscriptionWithSecret>();
  const rows = webhooks.data ?? [];

  const create = (
    <Button onClick={() => setForm({})}>
      <Plus className="size-4" aria-hidden="true" /> Novo webhook
    </Button>
  );

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-fg">Webhooks</h1>
          <p className="mt-1 text-sm text-fg-muted">Avise o n8n, o seu ERP ou outro sistema a cada mensagem, contato, conversa ou campanha.</p>
        </div>
        {admin && rows.length > 0 ? create : null}
      </div>
      {!admin ? (
        <Alert tone="info">Só administradores podem ver e criar webhooks.</Alert>
      ) : webhooks.isError ? (
        <Alert tone="danger">Não foi possível carregar os webhooks.</Alert>
      ) : webhooks.isPending ? (
        <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando...
        </p>
      ) : rows.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <Webhook className="size-10 text-brand" aria-hidden="true" />
          <h2 className="text-lg font-semibold text-fg">Nenhum webhook ainda</h2>
          <p className="max-w-md text-sm text-fg-muted">
            Um webhook envia cada evento que você escolher (mensagens, contatos, conversas, campanhas) para um endereço seu, assinado para que o destino confira
            que veio do Conversa. Se o destino falhar, tentamos de novo por 24 horas.
          </p>
          {create}
        </Card>
      ) : (
        <ul className="space-y-4" aria-label="Webhooks">
          {rows.map((webhook) => (
            <WebhookCard
              key={webhook.id}
              webhook={webhook}
              onEdit={() => setForm({ editing: webhook })}
              onDelete={() => setDeleting(webhook)}
              onRotated={setRotated}
            />
          ))}
        </ul>
      )}
      {form ? <WebhookFormDialog editing={form.editing} onClose={() => setForm(undefined)} /> : null}
      {rotated ? (
        <Dialog open onClose={() => setRotated(undefined)} title="Novo segredo gerado">
          <p className="mb-4 text-sm text-fg-muted">
            Por 24 horas, cada entrega leva também a assinatura com o segredo anterior, para você trocar sem perder eventos.
          </p>
          <WebhookSecretShownOnce created={rotated} onClose={() => setRotated(undefined)} />
        </Dialog>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Excluir webhook?"
          message={`O endereço ${deleting.url} deixa de receber eventos. As entregas que esperavam nova tentativa são canceladas. Isso não pode ser desfeito.`}
          confirmLabel="Excluir"
          busy={remove.isPending}
          onClose={() => setDeleting(undefined)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                showToast({ tone: 'success', title: 'Webhook excluído' });
                setDeleting(undefined);
              },
            })
          }
        />
      ) : null}
    </div>
  );
}
