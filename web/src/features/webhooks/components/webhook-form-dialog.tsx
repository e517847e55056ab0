import { useState } from 'react';
import {
  type WebhookEventType,
  type WebhookSubscription,
  type WebhookSubscriptionWithSecret,
  webhookEventLabels,
  webhookEventTypes,
  webhookSubscriptionPayload,
} from '#contracts/webhooks.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { CheckboxField, InputField } from '#web/components/ui/field.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { showToast } from '#web/lib/notify.ts';
import { useCreateWebhook, useUpdateWebhook } from '#web/features/webhooks/api/webhooks.ts';
import { WebhookSecretShownOnce } from './webhook-secret.tsx';

type Errors = Partial<Record<'url' | 'description' | 'eventTypes' | '', string>>;

const checkboxId = (type: WebhookEventType) => `webhook-event-${type.replace(/[._]/g, '-')}`;

/** 'Novo webhook' and 'Editar': address, description, events and whether it is on; a new one shows its secret once. */
export function WebhookFormDialog({ editing, onClose }: { editing?: WebhookSubscription; onClose: () => void }) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [url, setUrl] = useState(editing?.url ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [eventTypes, setEventTypes] = useState<WebhookEventType[]>(editing?.eventTypes ?? []);
  const [enabled, setEnabled] = useState(editing?.enabled ?? true);
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<WebhookSubscriptionWithSecret>();

  const toggle = (type: WebhookEventType, on: boolean) => setEventTypes((now) => (on ? [...now, type] : now.filter((t) => t !== type)));
  const showErrors = (found: Errors) => {
    setErrors(found);
    document.getElementById(found.url ? 'webhook-url' : found.description ? 'webhook-description' : checkboxId(webhookEventTypes[0]))?.focus();
  };
  const onError = (error: Error) => {
    if (!(error instanceof ApiError) || !error.details.length) return;
    const found: Errors = {};
    for (const d of error.details) found[d.path.split('.')[0] as keyof Errors] ??= d.message;
    showErrors(found);
  };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = webhookSubscriptionPayload.safeParse({ url, description, eventTypes, enabled });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0] ?? '') as keyof Errors] ??= issue.message;
      showErrors(found);
      return;
    }
    setErrors({});
    if (editing) {
      update.mutate(
        { id: editing.id, payload: parsed.data },
        {
          onSuccess: () => {
            showToast({ tone: 'success', title: 'Webhook salvo' });
            onClose();
          },
          onError,
        },
      );
    } else create.mutate(parsed.data, { onSuccess: setCreated, onError });
  };

  return (
    <Dialog open onClose={onClose} title={created ? 'Webhook criado' : editing ? 'Editar webhook' : 'Novo webhook'}>
      {created ? (
        <WebhookSecretShownOnce created={created} onClose={onClose} />
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <InputField
            id="webhook-url"
            label="URL de destino"
            type="url"
            inputMode="url"
            required
            autoComplete="off"
            placeholder="https://n8n.suaempresa.com.br/webhook/conversa"
            hint="Recebe um POST com o evento em JSON, assinado com o segredo do webhook."
            value={url}
            error={errors.url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <InputField
            id="webhook-description"
            label="Descrição"
            autoComplete="off"
            maxLength={200}
            hint="Para lembrar quem recebe, como n8n ou ERP."
            value={description}
            error={errors.description}
            onChange={(e) => setDescription(e.target.value)}
          />
          <fieldset className="space-y-2" aria-describedby={errors.eventTypes ? 'webhook-events-error' : undefined}>
            <legend className="mb-1 text-sm font-medium text-fg">
              Eventos <span className="text-danger">*</span>
            </legend>
            {webhookEventTypes.map((type) => (
              <CheckboxField
                key={type}
                id={checkboxId(type)}
                label={
                  <>
                    {webhookEventLabels[type]} <code className="text-xs text-fg-muted">{type}</code>
                  </>
                }
                checked={eventTypes.includes(type)}
                onChange={(e) => toggle(type, e.target.checked)}
              />
            ))}
            {errors.eventTypes ? (
              <p id="webhook-events-error" className="text-xs font-medium text-danger" role="alert">
                {errors.eventTypes}
              </p>
            ) : null}
          </fieldset>
          <CheckboxField
            id="webhook-enabled"
            label="Ativo (enviar eventos para este endereço)"
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          {errors[''] ? (
            <p className="text-sm font-medium text-danger" role="alert">
              {errors['']}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {editing ? 'Salvar' : 'Criar webhook'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
