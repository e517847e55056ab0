/**
 * POST /api/webhooks/whatsapp-cloud/{serviceId}: Meta delivers a WhatsApp (API oficial)
 * connection's webhooks here. Public; the body is not parsed here: the adapter checks
 * `X-Hub-Signature-256` on the raw bytes with the connection's app secret first (401 without the
 * right one, counted as `WebhookRejected` with source `whatsapp-cloud`), then stores what the
 * delivery brings (connectors/whatsapp-cloud/webhook.ts). A 2xx tells Meta it is handled; a failure
 * makes Meta deliver it again (a repeat stores nothing twice: messages are kept once per wamid).
 * A number whose quality falls to red counts `CloudQualityRed` (alarmed). Why one URL per
 * connection, checked before parsing and processed in the request: ADR-0211 and ADR-0207.
 */
import { z } from 'zod';
import { receiveWebhook } from '#domain/channels/webhook.ts';
import { DomainError } from '#domain/errors.ts';
import { api } from '#lib/api.ts';
import { count, logger } from '#lib/observability.ts';
import { noContent } from '#lib/responses.ts';

const params = z.object({ serviceId: z.string().min(1).max(64) });

export const handler = api({ auth: 'public', params, rawBody: true }).handler(async ({ ports, params, event }) => {
  const rawBody = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8')) : Buffer.alloc(0);
  try {
    await receiveWebhook(
      ports,
      'whatsapp_cloud',
      { serviceId: params.serviceId, headers: event.headers ?? {}, body: undefined, rawBody: new Uint8Array(rawBody) },
      {
        onMessageStored: () => count('InboundMessages', { channel: 'whatsapp_cloud' }),
        onQualityRed: (connection) => {
          count('CloudQualityRed', { channel: 'whatsapp_cloud' });
          logger.warn('WhatsApp (API oficial) number quality fell to red', connection);
        },
      },
    );
  } catch (error) {
    if (error instanceof DomainError && (error.kind === 'unauthorized' || error.kind === 'invalid')) count('WebhookRejected', { source: 'whatsapp-cloud' });
    throw error;
  }
  return noContent();
});
