/**
 * The handler of a channel's webhook route: the delivery goes to the channel's adapter through the
 * domain. Counts `InboundMessages` (new messages stored) and `WebhookRejected` (deliveries refused:
 * a wrong secret token, a body that is no update) by channel.
 */
import { z } from 'zod';
import type { ServiceType } from '#contracts/services.ts';
import { receiveWebhook } from '#domain/channels/webhook.ts';
import { DomainError } from '#domain/errors.ts';
import { api } from './api.ts';
import { count } from './observability.ts';
import { noContent } from './responses.ts';

const params = z.object({ serviceId: z.string().min(1).max(64) });

export function channelWebhook(type: ServiceType) {
  return api({ auth: 'public', params }).handler(async ({ ports, params, event, body }) => {
    try {
      await receiveWebhook(
        ports,
        type,
        { serviceId: params.serviceId, headers: event.headers ?? {}, body },
        { onMessageStored: () => count('InboundMessages', { channel: type }) },
      );
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'unauthorized' || error.kind === 'invalid')) count('WebhookRejected', { source: type });
      throw error;
    }
    return noContent();
  });
}
