import { businessHoursSchema } from '#contracts/business-hours.ts';
import { saveBusinessHours } from '#domain/business-hours/settings.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: businessHoursSchema }).handler(async ({ ports, session, body }) =>
  ok(await saveBusinessHours(ports, session, body)),
);
