/** GET /api/campaigns/{id}/recipients?outcome=&after=: who did not get the campaign's message, and why. */
import { campaignRecipientsQuery } from '#contracts/campaigns.ts';
import { listCampaignRecipients } from '#domain/campaigns/campaign-recipients.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, query: campaignRecipientsQuery }).handler(async ({ ports, session, params, query }) =>
  ok(await listCampaignRecipients(ports, session, params.id, query)),
);
