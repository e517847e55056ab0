/**
 * A local runtime of a test file's own, in the test process (so the file hands it channel doubles
 * or subscribes to its stream emulator): started before the file's tests on a fresh data folder,
 * stopped after them with the folder removed and the environment it set put back. Also the WhatsApp
 * steps such files share: an owner with a WhatsApp connection, and pairing the socket double its
 * worker opens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Ports } from '#domain/ports.ts';
import { startLocalRuntime, type LocalRuntime, type RuntimeOptions } from '../../infra/local/runtime/runtime.ts';
import type { SocketDouble } from '../support/whatsapp-double.ts';
import { type Call, callAt } from './api.ts';
import { eventually } from './worker.ts';

export interface OwnRuntime {
  runtime(): LocalRuntime;
  /** The runtime's own ports (this process is its composition root). */
  ports(): Ports;
  /** The API of the runtime. */
  call: Call;
}

export function ownRuntime(folderPrefix: string, options: Omit<RuntimeOptions, 'port' | 'dataDir'>): OwnRuntime {
  let runtime: LocalRuntime | undefined;
  let ports: Ports | undefined;
  let dataDir: string;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), folderPrefix));
    runtime = await startLocalRuntime({ port: 0, dataDir, ...options });
    const { defaultPorts } = await import('#lib/ports.ts');
    ports = defaultPorts();
  }, 60_000);
  afterAll(async () => {
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    process.env = savedEnv;
  }, 60_000);
  return { runtime: () => runtime!, ports: () => ports!, call: callAt(() => runtime!.url) };
}

let people = 0;

/** A new owner with an account (the free plan's one connection) and a WhatsApp connection, not started. */
export async function whatsappTeam(call: Call, emailPrefix: string) {
  const email = `${emailPrefix}.${Date.now().toString(36)}.${++people}@example.com`;
  const registered = await call('POST', '/auth/register', { body: { name: 'Dona Zap', email, password: 'Senha#Forte123' } });
  const account = await call('POST', '/accounts', { token: registered.body.accessToken, body: { name: 'Loja Zap' } });
  const token = account.body.accessToken as string;
  const service = await call('POST', '/services', { token, body: { name: 'WhatsApp da loja', type: 'whatsapp' } });
  expect(service.status).toBe(201);
  return { token, accountId: account.body.id as string, serviceId: service.body.id as string };
}

/** Starts the connection through the API and pairs the socket its worker opens (`socketOf`). */
export async function pairWhatsapp<S extends SocketDouble>(
  call: Call,
  team: { token: string; serviceId: string },
  socketOf: (serviceId: string) => S | undefined,
): Promise<S> {
  expect((await call('POST', `/services/${team.serviceId}/start`, { token: team.token })).status).toBe(200);
  const socket = await eventually(async () => socketOf(team.serviceId));
  socket.emit('creds.update', { me: { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' } });
  socket.user = { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' };
  socket.emit('connection.update', { connection: 'open' });
  await eventually(async () => (await call('GET', `/services/${team.serviceId}`, { token: team.token })).body.status === 'connected');
  return socket;
}
