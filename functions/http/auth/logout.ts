import { logout } from '#domain/auth/logout.ts';
import { api } from '#lib/api.ts';
import { noContent } from '#lib/responses.ts';

export const handler = api({ auth: 'signedIn' }).handler(async ({ ports, session }) => {
  await logout(ports, session);
  return noContent();
});
