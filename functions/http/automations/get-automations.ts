import { getAutomations } from '#domain/automations/settings.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member' }).handler(async ({ ports, session }) => ok(await getAutomations(ports, session)));
