import { listTags, tagListRules } from '#domain/tags/tags.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', list: tagListRules }).handler(async ({ ports, session, list }) => ok(await listTags(ports, session, list)));
