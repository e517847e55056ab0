import { contactTagsPayload } from '#contracts/tags.ts';
import { setContactTags } from '#domain/tags/tags.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: contactTagsPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await setContactTags(ports, session, params.id, body.tagIds)),
);
