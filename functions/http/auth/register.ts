import { registerPayload } from '#contracts/auth.ts';
import { register } from '#domain/auth/register.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'public', body: registerPayload }).handler(async ({ ports, body, address }) =>
  created(await register(ports, body, address)),
);
