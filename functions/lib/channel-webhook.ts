/** The handler of a channel's webhook route: the delivery goes to the channel's adapter through the domain. */
import { z } from 'zod';
import type { ServiceType } from '#contracts/services.ts';
import { receiveWebhook } from '#domain/channels/webhook.ts';
import { api } from './api.ts';
import { noContent } from './responses.ts';

const params = z.object({ serviceId: z.string().min(1).max(64) });

export function channelWebhook(type: ServiceType) {
  return api({ auth: 'public', params }).handler(async ({ ports, params, event, body }) => {
    await receiveWebhook(ports, type, { serviceId: params.serviceId, headers: event.headers ?? {}, body });
    return noContent();
  });
}
