/**
 * Outbound webhooks ('Webhooks', ADR-0233): an account's subscriptions to
 * event types, each delivered as a signed POST (shared/domain/webhooks/webhook-signature.ts) with
 * the JSON body `{ id, type, createdAt, accountId, data }`, `data` being the entity as the API
 * answers it. Admins manage them; the delivery log shows every attempt's answer.
 */
import { z } from 'zod';
import { requiredText } from './fields.ts';

export const webhookEventTypes = [
  'message.created',
  'message.updated',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'conversation.status_changed',
  'conversation.assigned',
  'campaign.progress',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** The event 'Enviar evento de teste' delivers: to one subscription, whatever types it takes. */
export const webhookTestEventType = 'ping';

/** The event types as the screen lists them. */
export const webhookEventLabels: Record<WebhookEventType, string> = {
  'message.created': 'Mensagem criada',
  'message.updated': 'Mensagem atualizada (confirmações de entrega e leitura, edições)',
  'contact.created': 'Contato criado',
  'contact.updated': 'Contato atualizado',
  'contact.deleted': 'Contato excluído',
  'conversation.status_changed': 'Status da conversa alterado',
  'conversation.assigned': 'Conversa atribuída ou transferida',
  'campaign.progress': 'Progresso de campanha',
};

/** The body of every delivery; `id` stays the same across the retries of one event (receivers dedupe by it). */
export interface WebhookEventBody<D = unknown> {
  id: string;
  type: WebhookEventType | typeof webhookTestEventType;
  createdAt: string;
  accountId: string;
  data: D;
}

/** active: delivering; auto_disabled: switched off after a day of failures; paused: switched off by an admin. */
export type WebhookSubscriptionStatus = 'active' | 'auto_disabled' | 'paused';

export const webhookStatusLabels: Record<WebhookSubscriptionStatus, string> = {
  active: 'Ativo',
  auto_disabled: 'Desativado automaticamente',
  paused: 'Pausado',
};

export interface WebhookSubscription {
  id: string;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  status: WebhookSubscriptionStatus;
  /** When the product switched it off (a day of failed deliveries), or null. */
  disabledAt: string | null;
  /** Failed attempts since the last success. */
  consecutiveFailures: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A subscription with its whole secret: only the answers of create, rotate and 'Revelar segredo'. */
export interface WebhookSubscriptionWithSecret extends WebhookSubscription {
  secret: string;
}

/**
 * How one attempt ended. answered: the receiver answered (2xx is success, anything else a
 * failure); refused reasons come from the sender (no request left, or none completed).
 */
export type WebhookAttemptOutcome =
  | 'success'
  | 'http_error'
  | 'bad_url'
  | 'blocked_address'
  | 'dns'
  | 'timeout'
  | 'too_large'
  | 'network'
  | 'too_many_redirects'
  | 'subscription_off';

export const webhookOutcomeLabels: Record<WebhookAttemptOutcome, string> = {
  success: 'Entregue',
  http_error: 'O destino respondeu com erro',
  bad_url: 'Endereço inválido',
  blocked_address: 'Endereço bloqueado (rede privada ou interna)',
  dns: 'O nome do destino não foi encontrado',
  timeout: 'O destino demorou demais para responder',
  too_large: 'A resposta do destino é grande demais',
  network: 'Falha de conexão com o destino',
  too_many_redirects: 'Redirecionamentos demais',
  subscription_off: 'Não enviado: o webhook estava desativado',
};

export interface WebhookAttempt {
  attempt: number;
  at: string;
  outcome: WebhookAttemptOutcome;
  /** The receiver's HTTP status, when it answered. */
  status: number | null;
  ms: number;
  /** The start of the receiver's answer, or the refusal's detail (for the log). */
  detail: string;
}

/** pending: waiting for its next attempt; delivered: a 2xx came; failed: retries ran out (a day); cancelled: the subscription went off first. */
export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

export const webhookDeliveryStateLabels: Record<WebhookDeliveryState, string> = {
  pending: 'Aguardando nova tentativa',
  delivered: 'Entregue',
  failed: 'Falhou (tentativas esgotadas)',
  cancelled: 'Cancelada',
};

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: WebhookEventType | typeof webhookTestEventType;
  state: WebhookDeliveryState;
  attempts: WebhookAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
}

export const webhookTexts = {
  eventTypesRequired: 'Escolha pelo menos um evento',
  urlInvalid: 'Informe um endereço http:// ou https:// válido',
  tooMany: 'Uma conta pode ter no máximo 10 webhooks',
  changedMeanwhile: 'O webhook foi alterado por outra pessoa. Tente de novo.',
} as const;

/** How many subscriptions an account may hold (each event is delivered to each of them). */
export const maxWebhookSubscriptions = 10;

const urlField = z
  .string({ error: requiredText })
  .trim()
  .min(1, { error: requiredText })
  .max(2000, { error: 'Use no máximo 2000 caracteres' })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
      } catch {
        return false;
      }
    },
    { error: webhookTexts.urlInvalid },
  );

export const webhookSubscriptionPayload = z.object({
  url: urlField,
  description: z.string({ error: requiredText }).trim().max(200, { error: 'Use no máximo 200 caracteres' }).default(''),
  eventTypes: z
    .array(z.enum(webhookEventTypes, { error: webhookTexts.eventTypesRequired }), { error: webhookTexts.eventTypesRequired })
    .min(1, { error: webhookTexts.eventTypesRequired })
    .max(webhookEventTypes.length)
    .transform((types) => webhookEventTypes.filter((t) => types.includes(t))),
  enabled: z.boolean({ error: requiredText }).default(true),
});
export type WebhookSubscriptionPayload = z.input<typeof webhookSubscriptionPayload>;
