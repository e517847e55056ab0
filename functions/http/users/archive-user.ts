import { userArchivePayload } from '#contracts/users.ts';
import { archiveUser } from '#domain/users/users.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: userArchivePayload }).handler(async ({ ports, session, params, body }) =>
  ok(await archiveUser(ports, session, params.id, body.archive)),
);
