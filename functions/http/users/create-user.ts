import { userCreatePayload } from '#contracts/users.ts';
import { createUser } from '#domain/users/users.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: userCreatePayload }).handler(async ({ ports, session, body }) =>
  created(await createUser(ports, session, body)),
);
