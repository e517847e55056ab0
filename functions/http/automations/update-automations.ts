import { automationSettingsSchema } from '#contracts/automations.ts';
import { saveAutomations } from '#domain/automations/settings.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: automationSettingsSchema }).handler(async ({ ports, session, body }) =>
  ok(await saveAutomations(ports, session, body)),
);
