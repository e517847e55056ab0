/** The body of `POST /batch` (docs/api.md#read-batch); the texts and limits are batch.ts's. */
import { z } from 'zod';
import { batchMethodText, batchPathText, batchQueryText, batchSizeText, maxBatchRequests } from './batch.ts';

/** One GET: its path under /api (`/contacts/01J…`) and its URL query parameters, unencoded. */
const batchRequest = z.strictObject({
  /** Only GET; may be left out. */
  method: z.literal('GET', { error: batchMethodText }).optional(),
  path: z
    .string({ error: batchPathText })
    .min(1, { error: batchPathText })
    .max(512, { error: batchPathText })
    .regex(/^\/[^?#]*$/, { error: batchPathText }),
  query: z.record(z.string(), z.string({ error: batchQueryText }).max(4096, { error: batchQueryText }), { error: batchQueryText }).optional(),
});

export const batchPayload = z.strictObject({
  requests: z.array(batchRequest, { error: batchSizeText }).min(1, { error: batchSizeText }).max(maxBatchRequests, { error: batchSizeText }),
});
