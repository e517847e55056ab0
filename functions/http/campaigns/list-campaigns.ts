import { listCampaigns } from '#domain/campaigns/campaign-actions.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member' }).handler(async ({ ports, session }) => ok(await listCampaigns(ports, session)));
