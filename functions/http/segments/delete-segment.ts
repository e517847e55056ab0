import { deleteSegment } from '#domain/contacts/segments.ts';
import { api, idParam } from '#lib/api.ts';
import { noContent } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) => {
  await deleteSegment(ports, session, params.id);
  return noContent();
});
