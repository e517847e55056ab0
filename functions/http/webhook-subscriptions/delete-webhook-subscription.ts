import { removeWebhookSubscription } from '#domain/webhooks/subscriptions.ts';
import { api, idParam } from '#lib/api.ts';
import { noContent } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) => {
  await removeWebhookSubscription(ports, session, params.id);
  return noContent();
});
