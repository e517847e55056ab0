/** $default: the realtime channel is server-to-client only; client messages (keep-alive pings) are accepted and ignored. */
import { observed } from '#lib/observability.ts';

export const handler = observed(async () => ({ statusCode: 200 }));
