import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { pingMessage, pongMessage } from '#contracts/realtime-link.ts';
import { WsGateway } from './ws-gateway.ts';
import { startGateway } from '../../../tests/support/ws-gateway-harness.ts';

declare global {
  var wsKeepAliveEvents: { route: string; connectionId: string; body?: string }[];
}

const idleTimeoutMs = 600;

let harness: Awaited<ReturnType<typeof startGateway>>;
let url: string;

beforeAll(async () => {
  globalThis.wsKeepAliveEvents = [];
  harness = await startGateway('wsKeepAliveEvents', { body: 'event.body' }, (routes) => new WsGateway(routes, 'local', 60_000, { idleTimeoutMs }));
  ({ url } = harness);
});

afterAll(() => harness.close());

async function connect() {
  const before = globalThis.wsKeepAliveEvents.filter((e) => e.route === '$connect').length;
  const socket = new WebSocket(url);
  const frames: string[] = [];
  socket.on('message', (data) => frames.push(String(data)));
  const closed = new Promise<number>((r) => socket.once('close', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const connectionId = globalThis.wsKeepAliveEvents.filter((e) => e.route === '$connect')[before]!.connectionId;
  return { socket, frames, closed, connectionId };
}

const eventsOf = (connectionId: string, route: string) => globalThis.wsKeepAliveEvents.filter((e) => e.connectionId === connectionId && e.route === route);

describe('the local WebSocket gateway keeps API Gateway’s idle timeout', () => {
  it('closes a connection that sends nothing for the idle timeout (1001) and runs $disconnect', async () => {
    const started = Date.now();
    const { closed, connectionId } = await connect();
    expect(await closed).toBe(1001);
    expect(Date.now() - started).toBeGreaterThanOrEqual(idleTimeoutMs - 50);
    expect(Date.now() - started).toBeLessThan(idleTimeoutMs * 4);
    await expect.poll(() => eventsOf(connectionId, '$disconnect')).toHaveLength(1);
  });

  it('keeps a connection that pings open: each ping answered with a pong by the gateway, no handler run', async () => {
    const { socket, frames, closed, connectionId } = await connect();
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    // Pings at half the idle timeout, for three idle timeouts.
    for (let i = 0; i < 6; i++) {
      socket.send(pingMessage);
      await new Promise((r) => setTimeout(r, idleTimeoutMs / 2));
    }
    expect(isClosed).toBe(false);
    expect(frames).toEqual(Array.from({ length: 6 }, () => pongMessage));
    expect(eventsOf(connectionId, '$default')).toEqual([]);
    socket.close();
    await closed;
  });

  it('sends any other message to $default, and a message counts as activity too', async () => {
    const { socket, frames, closed, connectionId } = await connect();
    socket.send('{"action":"something-else"}');
    socket.send('not json');
    await expect.poll(() => eventsOf(connectionId, '$default').map((e) => e.body)).toEqual(['{"action":"something-else"}', 'not json']);
    expect(frames).toEqual([]);
    socket.close();
    await closed;
  });
});
