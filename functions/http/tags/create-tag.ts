import { tagPayload } from '#contracts/tags.ts';
import { createTag } from '#domain/tags/tags.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: tagPayload }).handler(async ({ ports, session, body }) => created(await createTag(ports, session, body)));
