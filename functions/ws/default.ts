/**
 * $default: the realtime channel is server-to-client only; a client message that no route takes is
 * accepted and ignored. The keep-alive (`{"action":"ping"}`) never gets here: API Gateway answers it
 * on the `ping` route (a MOCK integration, functions/ws/routes.ts).
 */
import { observed } from '#lib/observability.ts';

export const handler = observed(async () => ({ statusCode: 200 }));
