/** Posting to WebSocket connections through the API Gateway Management API (the local emulator serves the same API). */
import { ApiGatewayManagementApiClient, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { Broadcaster } from '#domain/realtime/fan-out.ts';
import { traced } from './observability.ts';

let client: ApiGatewayManagementApiClient | undefined;

export function managementBroadcaster(endpoint = process.env.WS_MANAGEMENT_URL): Broadcaster {
  return {
    async post(connectionId, data) {
      if (!endpoint) throw new Error('WS_MANAGEMENT_URL is not set');
      client ??= traced(new ApiGatewayManagementApiClient({ endpoint }));
      try {
        await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: data }));
        return 'sent';
      } catch (error) {
        if ((error as { name?: string }).name === 'GoneException') return 'gone';
        throw error;
      }
    },
  };
}
