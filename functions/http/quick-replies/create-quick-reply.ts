import { quickReplyPayload } from '#contracts/quick-replies.ts';
import { createQuickReply } from '#domain/quick-replies/quick-replies.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: quickReplyPayload }).handler(async ({ ports, session, body }) =>
  created(await createQuickReply(ports, session, body)),
);
