/** Posting to and closing WebSocket connections through the API Gateway Management API (the local emulator serves the same API). */
import { ApiGatewayManagementApiClient, DeleteConnectionCommand, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { Broadcaster } from '#domain/realtime/fan-out.ts';
import { traced } from './observability.ts';

let client: ApiGatewayManagementApiClient | undefined;

const isGone = (error: unknown) => (error as { name?: string }).name === 'GoneException';

/**
 * The process's management client, shared by every broadcaster (made on first use). The local
 * runtime's is its WebSocket gateway's management endpoint on loopback (infra/local/emulators/ws-gateway.ts).
 */
export function managementClient(endpoint = process.env.WS_MANAGEMENT_URL): ApiGatewayManagementApiClient {
  if (!endpoint) throw new Error('WS_MANAGEMENT_URL is not set');
  client ??= traced(new ApiGatewayManagementApiClient({ endpoint }));
  return client;
}

export function managementBroadcaster(endpoint = process.env.WS_MANAGEMENT_URL): Broadcaster {
  const api = () => managementClient(endpoint);
  return {
    async post(connectionId, data) {
      try {
        await api().send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: data }));
        return 'sent';
      } catch (error) {
        if (isGone(error)) return 'gone';
        throw error;
      }
    },
    async close(connectionId) {
      try {
        await api().send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch (error) {
        // Already gone is what closing wants.
        if (!isGone(error)) throw error;
      }
    },
  };
}
