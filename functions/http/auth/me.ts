import { presentUser } from '#domain/auth/sessions.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'signedIn' }).handler(async ({ ports, session }) => ok({ user: await presentUser(ports, session.user) }));
