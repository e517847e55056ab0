import { loginPayload } from '#contracts/auth.ts';
import { login } from '#domain/auth/login.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'public', body: loginPayload }).handler(async ({ ports, body, address }) => ok(await login(ports, body, address)));
