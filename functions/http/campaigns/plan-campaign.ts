import { campaignPayload } from '#contracts/campaigns.ts';
import { planCampaign } from '#domain/campaigns/plan-campaign.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';
import { templatePrices } from '#lib/template-prices.ts';

export const handler = api({ auth: 'admin', body: campaignPayload }).handler(async ({ ports, session, body }) =>
  ok(await planCampaign(ports, session, body, templatePrices())),
);
