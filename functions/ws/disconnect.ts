/** $disconnect: forgets the connection. */
import { forgetConnection } from '#db/ws-connections.ts';
import { defaultPorts } from '#lib/ports.ts';

export async function handler(event: { requestContext: { connectionId: string } }) {
  await forgetConnection(defaultPorts().table, event.requestContext.connectionId);
  return { statusCode: 200 };
}
