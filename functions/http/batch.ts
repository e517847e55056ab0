/**
 * POST /batch: several GETs of this function's routes as one request, each answered as it would be
 * alone (functions/lib/read-batch.ts, docs/api.md#read-batch). Any session may send one; each GET
 * then checks the session against its own route's gate.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { batchPayload } from '#contracts/batch-payload.ts';
import { api } from '#lib/api.ts';
import { readBatch } from '#lib/read-batch.ts';
import { ok } from '#lib/responses.ts';

/** The invocation's context, for the GETs run under it (api() hands the glue the event only). */
const contexts = new WeakMap<APIGatewayProxyEventV2, Context>();

const batch = api({ auth: 'signedIn', body: batchPayload }).handler(async ({ body, event }) =>
  ok({ responses: await readBatch(event, contexts.get(event)!, body.requests) }),
);

export const handler = Object.assign(
  (event: APIGatewayProxyEventV2, context: Context) => {
    contexts.set(event, context);
    return batch(event, context);
  },
  { contract: batch.contract },
);
