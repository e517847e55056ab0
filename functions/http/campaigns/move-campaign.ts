import { campaignMovePayload } from '#contracts/campaigns.ts';
import { moveCampaign } from '#domain/campaigns/campaign-actions.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: campaignMovePayload }).handler(async ({ ports, session, params, body }) =>
  ok(await moveCampaign(ports, session, params.id, body.action)),
);
