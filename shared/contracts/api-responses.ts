/**
 * What the routes an API token can reach answer, as zod schemas (ADR-0238): the
 * OpenAPI document (scripts/openapi/) shows them, and tests/integration/api-responses.test.ts
 * checks real answers of the local runtime against them, so neither can drift from the handlers.
 * The entities are the realtime contract's schemas (realtime.ts), which the entity interfaces are
 * checked against; the other routes are documented as answering a JSON value without a schema.
 */
import { z } from 'zod';
import type { ApiErrorBody } from './errors.ts';
import { messageTypes } from './messages.ts';
import type { UploadAnswer } from './files.ts';
import { contactSchema, messageSchema } from './realtime.ts';
import { type WebhookDelivery, webhookEventTypes, type WebhookSubscription, type WebhookSubscriptionWithSecret, webhookTestEventType } from './webhooks.ts';

/** The body of every error answer (docs/product.md#error-catalogue). */
export const apiErrorBodySchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** A page of a list route: `{ data, totalCount }`. */
const listAnswer = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), totalCount: z.number().int() });

/** GET /contacts pages by cursor: `nextCursor` is the next page's `after`, null after the last. */
const contactListSchema = listAnswer(contactSchema).extend({
  nextCursor: z.string().nullable().describe('O `after` da próxima página; null depois da última.'),
});
const messageListSchema = listAnswer(messageSchema);

/** POST /files/generate-url-to-upload: PUT the bytes to `urlToUpload`, then send the message with `file.id`. */
const uploadAnswerSchema = z.object({
  urlToUpload: z.string().describe('Envie os bytes do arquivo para este endereço com PUT e o mesmo Content-Type.'),
  file: z.object({
    id: z.string().describe('O `fileId` da mensagem que envia o arquivo (POST /messages/send).'),
    type: z.enum(messageTypes),
    mimetype: z.string(),
  }),
});

const webhookSubscriptionSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.enum(webhookEventTypes)),
  enabled: z.boolean(),
  status: z.enum(['active', 'auto_disabled', 'paused']),
  disabledAt: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** The answers of create and rotate: the only ones with the whole signing secret. */
const webhookSubscriptionWithSecretSchema = webhookSubscriptionSchema.extend({
  secret: z.string().describe('O segredo que assina as entregas (cabeçalho `Conversa-Signature`); mostrado só nesta resposta.'),
});
const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.enum([...webhookEventTypes, webhookTestEventType]),
  state: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
  attempts: z.array(
    z.object({
      attempt: z.number().int(),
      at: z.string(),
      outcome: z.enum([
        'success',
        'http_error',
        'bad_url',
        'blocked_address',
        'dns',
        'timeout',
        'too_large',
        'network',
        'too_many_redirects',
        'subscription_off',
      ]),
      status: z.number().int().nullable(),
      ms: z.number(),
      detail: z.string(),
    }),
  ),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});

/**
 * The named schemas of the answers, as the document's `components.schemas` holds them. A route's
 * answer names one of these in `routeAnswers`.
 */
export const answerSchemas = {
  Contact: contactSchema,
  ContactList: contactListSchema,
  Message: messageSchema,
  MessageList: messageListSchema,
  UploadAnswer: uploadAnswerSchema,
  WebhookSubscription: webhookSubscriptionSchema,
  WebhookSubscriptionWithSecret: webhookSubscriptionWithSecretSchema,
  WebhookSubscriptionList: listAnswer(webhookSubscriptionSchema),
  WebhookDelivery: webhookDeliverySchema,
  WebhookDeliveryList: listAnswer(webhookDeliverySchema),
} as const;
export type AnswerName = keyof typeof answerSchemas;

/**
 * The success answer's schema of each documented route (`METHOD /path` as routes.ts writes it).
 * Every route with a `tokenScope` must be here, or answer 204 (tests/unit/openapi-document.test.ts),
 * and every route here is called by tests/integration/api-responses.test.ts.
 */
export const routeAnswers: Readonly<Record<string, AnswerName>> = {
  'GET /contacts': 'ContactList',
  'POST /contacts': 'Contact',
  'GET /contacts/{id}': 'Contact',
  'PUT /contacts/{id}': 'Contact',
  'GET /messages': 'MessageList',
  'POST /messages/send': 'Message',
  'POST /files/generate-url-to-upload': 'UploadAnswer',
  'GET /webhook-subscriptions': 'WebhookSubscriptionList',
  'POST /webhook-subscriptions': 'WebhookSubscriptionWithSecret',
  'GET /webhook-subscriptions/{id}': 'WebhookSubscription',
  'PUT /webhook-subscriptions/{id}': 'WebhookSubscription',
  'POST /webhook-subscriptions/{id}/rotate-secret': 'WebhookSubscriptionWithSecret',
  'POST /webhook-subscriptions/{id}/enable': 'WebhookSubscription',
  'GET /webhook-subscriptions/{id}/deliveries': 'WebhookDeliveryList',
  'POST /webhook-subscriptions/{id}/test': 'WebhookDelivery',
};

// The schemas and the contracts' interfaces must describe the same shape: a field added to one and not the other fails the type check here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** @public a compile-time check, used by nothing at run time */
export type AnswerSchemasMatchContracts = [
  Assert<Same<z.infer<typeof apiErrorBodySchema>, ApiErrorBody>>,
  Assert<Same<z.infer<typeof uploadAnswerSchema>, UploadAnswer>>,
  Assert<Same<z.infer<typeof webhookSubscriptionSchema>, WebhookSubscription>>,
  Assert<Same<z.infer<typeof webhookSubscriptionWithSecretSchema>, WebhookSubscriptionWithSecret>>,
  Assert<Same<z.infer<typeof webhookDeliverySchema>, WebhookDelivery>>,
];
