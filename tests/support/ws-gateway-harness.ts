/**
 * The local WebSocket gateway on a loopback port for its unit tests: route handlers are tiny
 * modules written for the test, each pushing the events it gets onto `globalThis[recorder]` (the
 * connection id, the route, and the event's fields the test names).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WsGateway } from '../../infra/local/emulators/ws-gateway.ts';

type Routes = ConstructorParameters<typeof WsGateway>[0];

/**
 * Starts `make(routes)` behind an HTTP server on 127.0.0.1. `fields` maps a recorded property to a
 * JavaScript expression over `event` (for instance `{ body: 'event.body' }`).
 */
export async function startGateway(recorder: string, fields: Record<string, string>, make: (routes: Routes) => WsGateway | Promise<WsGateway>) {
  const dir = mkdtempSync(join(tmpdir(), `${recorder}-`));
  const extra = Object.entries(fields)
    .map(([name, expression]) => `, ${name}: ${expression}`)
    .join('');
  const routes = Object.fromEntries(
    ['$connect', '$disconnect', '$default'].map((route) => {
      const file = join(dir, `${route.slice(1)}.mjs`);
      writeFileSync(
        file,
        `export const handler = async (event) => { globalThis[${JSON.stringify(recorder)}].push({ route: ${JSON.stringify(route)}, connectionId: event.requestContext.connectionId${extra} }); return { statusCode: 200 }; };\n`,
      );
      return [route, file];
    }),
  ) as unknown as Routes;
  const gateway = await make(routes);
  const server = createServer();
  server.on('upgrade', (req, socket, head) => void gateway.upgrade(req, socket, head));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    gateway,
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`,
    async close() {
      await gateway.close();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
