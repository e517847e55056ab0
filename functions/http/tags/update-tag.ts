import { tagPayload } from '#contracts/tags.ts';
import { updateTag } from '#domain/tags/tags.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: tagPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await updateTag(ports, session, params.id, body)),
);
