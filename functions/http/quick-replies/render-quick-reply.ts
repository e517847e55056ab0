import { quickReplyRenderPayload } from '#contracts/quick-replies.ts';
import { renderQuickReply } from '#domain/quick-replies/quick-replies.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: quickReplyRenderPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await renderQuickReply(ports, session, params.id, body.contactId)),
);
