import { sendWebhookTestEvent } from '#domain/webhooks/deliver-webhooks.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

/** 'Enviar evento de teste': a `ping` posted now; the answer is the delivery with its one attempt. */
export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await sendWebhookTestEvent(ports, session, params.id)),
);
