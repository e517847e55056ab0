import { deleteTag } from '#domain/tags/tags.ts';
import { api, idParam } from '#lib/api.ts';
import { noContent } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) => {
  await deleteTag(ports, session, params.id);
  return noContent();
});
