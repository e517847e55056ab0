import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { WsGateway } from './ws-gateway.ts';
import { startGateway } from '../../../tests/support/ws-gateway-harness.ts';

declare global {
  var wsGatewayTestEvents: { route: string; connectionId: string }[];
}

let harness: Awaited<ReturnType<typeof startGateway>>;
let gateway: WsGateway;
let url: string;

beforeAll(async () => {
  globalThis.wsGatewayTestEvents = [];
  harness = await startGateway('wsGatewayTestEvents', {}, async (routes) => {
    const made = new WsGateway(routes, 'local', 1500);
    await made.listenManagement();
    return made;
  });
  ({ gateway, url } = harness);
});

afterAll(() => harness.close());

function connect(): Promise<{ socket: WebSocket; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const closed = new Promise<number>((r) => socket.once('close', (code) => r(code)));
    socket.once('open', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

const idOf = async () => {
  for (;;) {
    const last = globalThis.wsGatewayTestEvents.filter((e) => e.route === '$connect').at(-1);
    if (last) return last.connectionId;
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the local WebSocket gateway', () => {
  it('closes a connection after its maximum duration (1001, Going away) and runs $disconnect', async () => {
    globalThis.wsGatewayTestEvents = [];
    const started = Date.now();
    const { closed } = await connect();
    const connectionId = await idOf();
    expect(await closed).toBe(1001);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    await expect.poll(() => globalThis.wsGatewayTestEvents.some((e) => e.route === '$disconnect' && e.connectionId === connectionId)).toBe(true);
  });

  it('closes a connection on DELETE @connections/{id}, then answers 410 Gone for it', async () => {
    globalThis.wsGatewayTestEvents = [];
    const { closed } = await connect();
    const connectionId = await idOf();
    const target = `${gateway.managementUrl}/@connections/${encodeURIComponent(connectionId)}`;
    expect((await fetch(target, { method: 'DELETE' })).status).toBe(204);
    await closed;
    expect((await fetch(target, { method: 'DELETE' })).status).toBe(410);
    await expect.poll(() => globalThis.wsGatewayTestEvents.some((e) => e.route === '$disconnect' && e.connectionId === connectionId)).toBe(true);
  });

  it('answers the SDK client at its management endpoint: posts a frame, describes, closes, then Gone', async () => {
    globalThis.wsGatewayTestEvents = [];
    const client = new ApiGatewayManagementApiClient({
      endpoint: gateway.managementUrl,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    const { socket, closed } = await connect();
    const frames: string[] = [];
    socket.on('message', (data) => frames.push(String(data)));
    const connectionId = await idOf();
    await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: JSON.stringify({ event: 'message.CREATED', text: 'Olá, ção 🎉' }) }));
    await expect.poll(() => frames).toEqual([JSON.stringify({ event: 'message.CREATED', text: 'Olá, ção 🎉' })]);
    const described = await client.send(new GetConnectionCommand({ ConnectionId: connectionId }));
    expect(described.Identity?.SourceIp).toBe('127.0.0.1');
    expect(described.ConnectedAt).toBeInstanceOf(Date);
    await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    expect(await closed).toBe(1000);
    await expect(client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: 'x' }))).rejects.toBeInstanceOf(GoneException);
    await expect(client.send(new PostToConnectionCommand({ ConnectionId: 'nunca-existiu', Data: 'x' }))).rejects.toBeInstanceOf(GoneException);
  });
});
