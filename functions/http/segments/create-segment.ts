import { segmentPayload } from '#contracts/segments.ts';
import { createSegment } from '#domain/contacts/segments.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: segmentPayload }).handler(async ({ ports, session, body }) =>
  created(await createSegment(ports, session, body)),
);
