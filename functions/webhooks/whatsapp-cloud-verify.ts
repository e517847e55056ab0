/**
 * GET /api/webhooks/whatsapp-cloud/{serviceId}: Meta's verification of the callback URL (when an
 * admin saves it in the Meta app's webhook settings): `hub.mode=subscribe`, the connection's verify
 * token and a challenge, answered with the challenge as plain text. A wrong token or an unknown
 * connection is refused (403) and counted as `WebhookRejected` with source `whatsapp-cloud`.
 */
import { z } from 'zod';
import { cloudWebhookHandshakeQuery } from '#contracts/services.ts';
import { answerWebhookHandshake } from '#domain/channels/webhook.ts';
import { DomainError } from '#domain/errors.ts';
import { api } from '#lib/api.ts';
import { count } from '#lib/observability.ts';

const params = z.object({ serviceId: z.string().min(1).max(64) });

export const handler = api({ auth: 'public', params, query: cloudWebhookHandshakeQuery }).handler(async ({ ports, params, query }) => {
  try {
    const challenge = await answerWebhookHandshake(ports, 'whatsapp_cloud', params.serviceId, query);
    return { statusCode: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: challenge };
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'forbidden') count('WebhookRejected', { source: 'whatsapp-cloud' });
    throw error;
  }
});
