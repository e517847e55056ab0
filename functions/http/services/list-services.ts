import { listServices, serviceListRules } from '#domain/services/services.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', list: serviceListRules }).handler(async ({ ports, session, list }) =>
  ok(await listServices(ports, session, list)),
);
