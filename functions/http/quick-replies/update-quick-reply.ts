import { quickReplyPayload } from '#contracts/quick-replies.ts';
import { updateQuickReply } from '#domain/quick-replies/quick-replies.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: quickReplyPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await updateQuickReply(ports, session, params.id, body)),
);
