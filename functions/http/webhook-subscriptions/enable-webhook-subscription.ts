import { enableWebhookSubscription } from '#domain/webhooks/subscriptions.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

/** 'Reativar': a paused or automatically disabled subscription delivers new events again. */
export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await enableWebhookSubscription(ports, session, params.id)),
);
