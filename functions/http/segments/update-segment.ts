import { segmentPayload } from '#contracts/segments.ts';
import { updateSegment } from '#domain/contacts/segments.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: segmentPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await updateSegment(ports, session, params.id, body)),
);
