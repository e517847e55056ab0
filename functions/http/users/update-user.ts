import { userUpdatePayload } from '#contracts/users.ts';
import { updateUser } from '#domain/users/users.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: userUpdatePayload }).handler(async ({ ports, session, params, body }) =>
  ok(await updateUser(ports, session, params.id, body)),
);
