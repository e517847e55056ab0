import { type WebhookDelivery, webhookDeliveryStateLabels, webhookOutcomeLabels } from '#contracts/webhooks.ts';
import { Alert, Badge } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useWebhookDeliveries } from '#web/features/webhooks/api/webhooks.ts';

const stateTone = { pending: 'warning', delivered: 'success', failed: 'danger', cancelled: 'neutral' } as const;

/** One delivery: its event, state, and every attempt with the receiver's status and time. */
function DeliveryItem({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <li className="space-y-2 rounded-lg border border-border p-3" data-testid="webhook-delivery">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium text-fg">
          <code>{delivery.eventType}</code> <span className="text-xs text-fg-muted">em {formatDateTime(delivery.createdAt)}</span>
        </p>
        <Badge tone={stateTone[delivery.state]}>{webhookDeliveryStateLabels[delivery.state]}</Badge>
      </div>
      <p className="break-all font-mono text-xs text-fg-muted">{delivery.eventId}</p>
      <ol className="space-y-1 text-sm" aria-label={`Tentativas do evento ${delivery.eventId}`}>
        {delivery.attempts.map((attempt) => (
          <li key={attempt.attempt} className="flex flex-wrap gap-x-3 gap-y-0.5">
            <span className="text-fg-muted">{attempt.attempt}ª tentativa</span>
            <span className="text-fg">{attempt.status === null ? 'Sem resposta' : `HTTP ${attempt.status}`}</span>
            <span className="text-fg-muted">{attempt.ms} ms</span>
            <span className={attempt.outcome === 'success' ? 'text-success' : 'text-danger'}>{webhookOutcomeLabels[attempt.outcome]}</span>
            {attempt.detail && attempt.outcome !== 'success' ? <span className="w-full break-all text-xs text-fg-muted">{attempt.detail}</span> : null}
          </li>
        ))}
      </ol>
      {delivery.nextAttemptAt ? <p className="text-xs text-fg-muted">Próxima tentativa: {formatDateTime(delivery.nextAttemptAt)}</p> : null}
    </li>
  );
}

/** 'Entregas': the webhook's last 50 deliveries, newest first. */
export function WebhookDeliveries({ id }: { id: string }) {
  const deliveries = useWebhookDeliveries(id);
  if (deliveries.isError) return <Alert tone="danger">Não foi possível carregar as entregas.</Alert>;
  if (deliveries.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
        <Spinner className="size-4 text-brand" /> Carregando entregas...
      </p>
    );
  }
  if (!deliveries.data.length) return <p className="text-sm text-fg-muted">Nenhuma entrega ainda. Use 'Enviar evento de teste' para conferir o destino.</p>;
  return (
    <ul className="space-y-2" aria-label="Entregas">
      {deliveries.data.map((delivery) => (
        <DeliveryItem key={delivery.id} delivery={delivery} />
      ))}
    </ul>
  );
}
