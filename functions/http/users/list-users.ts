import { listUsers, userListRules } from '#domain/users/users.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', list: userListRules }).handler(async ({ ports, session, list }) => ok(await listUsers(ports, session, list)));
