import { servicePairingPayload } from '#contracts/pairing.ts';
import { pairByPhoneNumber } from '#domain/services/services.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: servicePairingPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await pairByPhoneNumber(ports, session, params.id, body)),
);
