/**
 * The local WebSocket gateway's connection limits and `@connections` DELETE, as API Gateway
 * behaves: a connection is closed after the maximum duration, and closing one through the
 * management API runs `$disconnect`; the runtime's own management client answered in process.
 * Handlers are tiny modules written for the test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { WsGateway } from '../../infra/local/ws-gateway.ts';
import { ManagementPort } from '../../infra/local/ws-management-port.ts';

declare global {
  var wsGatewayTestEvents: { route: string; connectionId: string }[];
}

let dir: string;
let server: Server;
let gateway: WsGateway;
let url: string;

beforeAll(async () => {
  globalThis.wsGatewayTestEvents = [];
  dir = mkdtempSync(join(tmpdir(), 'ws-gateway-'));
  const routes = Object.fromEntries(
    ['$connect', '$disconnect', '$default'].map((route) => {
      const file = join(dir, `${route.slice(1)}.mjs`);
      writeFileSync(
        file,
        `export const handler = async (event) => { globalThis.wsGatewayTestEvents.push({ route: ${JSON.stringify(route)}, connectionId: event.requestContext.connectionId }); return { statusCode: 200 }; };\n`,
      );
      return [route, file];
    }),
  ) as unknown as ConstructorParameters<typeof WsGateway>[0];
  gateway = new WsGateway(routes, 'local', 1500);
  await gateway.listenManagement();
  server = createServer();
  server.on('upgrade', (req, socket, head) => void gateway.upgrade(req, socket, head));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
});

afterAll(async () => {
  await gateway.close();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

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

  it('answers the SDK client in process: posts a frame, describes, closes, then Gone (its endpoint is a closed port)', async () => {
    globalThis.wsGatewayTestEvents = [];
    const client = new ApiGatewayManagementApiClient({
      endpoint: 'http://127.0.0.1:1/local',
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      requestHandler: new ManagementPort(gateway),
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
