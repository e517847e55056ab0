import { listQuickReplies, quickReplyListRules } from '#domain/quick-replies/quick-replies.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', list: quickReplyListRules }).handler(async ({ ports, session, list }) =>
  ok(await listQuickReplies(ports, session, list)),
);
