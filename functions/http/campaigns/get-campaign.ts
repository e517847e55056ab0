import { getCampaign } from '#domain/campaigns/campaign-actions.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam }).handler(async ({ ports, session, params }) => ok(await getCampaign(ports, session, params.id)));
