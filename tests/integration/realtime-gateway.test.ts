import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import WebSocket from 'ws';
import { ApiGatewayManagementApiClient, DeleteConnectionCommand, GetConnectionCommand, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { accountConnections } from '#db/ws-connections.ts';
import { realtimeUrl, ticketUrl } from '../support/realtime-url.ts';
import { newOwner, register } from './api.ts';

async function open(token: string, url?: string): Promise<WebSocket> {
  const at = url ?? (await realtimeUrl(inject('baseUrl'), token));
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(at);
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(Object.assign(new Error('refused'), { status: res.statusCode })));
    socket.once('error', reject);
  });
}

const management = () =>
  new ApiGatewayManagementApiClient({
    endpoint: inject('wsManagementUrl'),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

const table = () => ({
  name: inject('tableName'),
  doc: DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: inject('dynamoUrl'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  ),
});

describe('the WebSocket gateway', () => {
  it('refuses a connection without a valid ticket, or of a user without an account', async () => {
    await expect(open('', ticketUrl(inject('baseUrl'), 'not-a-ticket'))).rejects.toMatchObject({ status: 401 });
    const person = await register();
    await expect(open(person.accessToken)).rejects.toMatchObject({ status: 403 });
  });

  it('records a connection under its account, and the management API reaches it', async () => {
    const owner = await newOwner();
    const socket = await open(owner.token);
    // Table events of the new account may arrive too; wait for the one posted here.
    const received = new Promise<string>((resolve) =>
      socket.on('message', (data) => {
        if (data.toString().includes('hello')) resolve(data.toString());
      }),
    );
    const now = Math.floor(Date.now() / 1000);
    const [connection] = await accountConnections(table(), owner.accountId, now);
    expect(connection).toMatchObject({ accountId: owner.accountId, userId: owner.user.id });

    const api = management();
    await api.send(new PostToConnectionCommand({ ConnectionId: connection!.connectionId, Data: JSON.stringify({ type: 'hello' }) }));
    expect(JSON.parse(await received)).toEqual({ type: 'hello' });
    const info = await api.send(new GetConnectionCommand({ ConnectionId: connection!.connectionId }));
    expect(info.ConnectedAt).toBeInstanceOf(Date);

    const closed = new Promise((resolve) => socket.once('close', resolve));
    await api.send(new DeleteConnectionCommand({ ConnectionId: connection!.connectionId }));
    await closed;
    await expect(api.send(new PostToConnectionCommand({ ConnectionId: connection!.connectionId, Data: 'x' }))).rejects.toMatchObject({ name: 'GoneException' });
    await new Promise((r) => setTimeout(r, 100));
    expect(await accountConnections(table(), owner.accountId, now)).toEqual([]);
  });
});
