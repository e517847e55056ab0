/** $disconnect: forgets the connection. */
import { forgetConnection } from '#db/ws-connections.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';

export const handler = observed(async (event: { requestContext: { connectionId: string } }) => {
  await forgetConnection(defaultPorts().table, event.requestContext.connectionId);
  return { statusCode: 200 };
});
