import { campaignPayload } from '#contracts/campaigns.ts';
import { createCampaign } from '#domain/campaigns/plan-campaign.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: campaignPayload }).handler(async ({ ports, session, body }) =>
  created(await createCampaign(ports, session, body)),
);
