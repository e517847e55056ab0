import { serviceCreatePayload } from '#contracts/services.ts';
import { createService } from '#domain/services/services.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: serviceCreatePayload }).handler(async ({ ports, session, body }) =>
  created(await createService(ports, session, body)),
);
