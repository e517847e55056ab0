import { getSegment } from '#domain/contacts/segments.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam }).handler(async ({ ports, session, params }) => ok(await getSegment(ports, session, params.id)));
