import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiGatewayManagementApiClient, PayloadTooLargeException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { WsGateway } from './ws-gateway.ts';
import { startGateway } from '../../../tests/support/ws-gateway-harness.ts';
import { maxFrameBytes, maxMessageBytes } from './ws-frame-limit.ts';

declare global {
  var wsLimitEvents: { route: string; connectionId: string; bodyLength?: number }[];
}

let harness: Awaited<ReturnType<typeof startGateway>>;
let gateway: WsGateway;
let url: string;

beforeAll(async () => {
  globalThis.wsLimitEvents = [];
  harness = await startGateway('wsLimitEvents', { bodyLength: 'event.body?.length' }, async (routes) => {
    const made = new WsGateway(routes);
    await made.listenManagement();
    return made;
  });
  ({ gateway, url } = harness);
});

afterAll(() => harness.close());

async function connect(): Promise<{ socket: WebSocket; connectionId: string; closed: Promise<number> }> {
  const before = globalThis.wsLimitEvents.filter((e) => e.route === '$connect').length;
  const socket = new WebSocket(url);
  const closed = new Promise<number>((r) => socket.once('close', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  await expect.poll(() => globalThis.wsLimitEvents.filter((e) => e.route === '$connect').length).toBe(before + 1);
  const connectionId = globalThis.wsLimitEvents.filter((e) => e.route === '$connect').at(-1)!.connectionId;
  return { socket, connectionId, closed };
}

/** Sends `text` as frames of at most `frameBytes` (the `ws` client sends one frame per call). */
function sendInFrames(socket: WebSocket, text: string, frameBytes: number) {
  for (let at = 0; at < text.length; at += frameBytes) {
    socket.send(text.slice(at, at + frameBytes), { fin: at + frameBytes >= text.length });
  }
}

const delivered = (connectionId: string) => globalThis.wsLimitEvents.filter((e) => e.route === '$default' && e.connectionId === connectionId);

describe('the local WebSocket gateway’s size quotas', () => {
  it('delivers a frame of exactly 32 KB, and a message of exactly 128 KB sent in frames of 32 KB', async () => {
    const { socket, connectionId } = await connect();
    socket.send('a'.repeat(maxFrameBytes));
    sendInFrames(socket, 'b'.repeat(maxMessageBytes), maxFrameBytes);
    // A last small message: once it is in, the two before it were handled (one socket keeps its order).
    socket.send('fim');
    await expect.poll(() => delivered(connectionId).map((e) => e.bodyLength)).toEqual([maxFrameBytes, maxMessageBytes, 3]);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it('closes with 1009 on a frame over 32 KB (a message under 128 KB), which never reaches $default', async () => {
    const { socket, connectionId, closed } = await connect();
    socket.send('a'.repeat(maxFrameBytes + 1));
    expect(await closed).toBe(1009);
    await expect.poll(() => globalThis.wsLimitEvents.some((e) => e.route === '$disconnect' && e.connectionId === connectionId)).toBe(true);
    expect(delivered(connectionId)).toEqual([]);
  });

  it('closes with 1009 on a message over 128 KB sent in frames of 32 KB, which never reaches $default', async () => {
    const { socket, connectionId, closed } = await connect();
    sendInFrames(socket, 'c'.repeat(maxMessageBytes + 1), maxFrameBytes);
    expect(await closed).toBe(1009);
    await expect.poll(() => globalThis.wsLimitEvents.some((e) => e.route === '$disconnect' && e.connectionId === connectionId)).toBe(true);
    expect(delivered(connectionId)).toEqual([]);
  });

  it('refuses a @connections post over 128 KB with 413 PayloadTooLargeException, over HTTP and in process; 128 KB is posted', async () => {
    const { socket, connectionId } = await connect();
    const received: number[] = [];
    socket.on('message', (data) => received.push(String(data).length));
    const target = `${gateway.managementUrl}/@connections/${encodeURIComponent(connectionId)}`;

    const overHttp = await fetch(target, { method: 'POST', body: 'x'.repeat(maxMessageBytes + 1) });
    expect(overHttp.status).toBe(413);
    expect(overHttp.headers.get('x-amzn-errortype')).toBe('PayloadTooLargeException');

    const client = new ApiGatewayManagementApiClient({
      endpoint: gateway.managementUrl,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    await expect(client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: 'y'.repeat(maxMessageBytes + 1) }))).rejects.toBeInstanceOf(
      PayloadTooLargeException,
    );
    await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: 'z'.repeat(maxMessageBytes) }));
    expect((await fetch(target, { method: 'POST', body: 'w'.repeat(maxMessageBytes) })).status).toBe(200);
    await expect.poll(() => received).toEqual([maxMessageBytes, maxMessageBytes]);
    socket.close();
  });
});
