import { rotateWebhookSecret } from '#domain/webhooks/subscriptions.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

/** A new secret, answered whole this once; the previous one still signs beside it for a day. */
export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await rotateWebhookSecret(ports, session, params.id)),
);
