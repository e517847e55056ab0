import { listSegments, segmentListRules } from '#domain/contacts/segments.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', list: segmentListRules }).handler(async ({ ports, session, list }) =>
  ok(await listSegments(ports, session, list)),
);
