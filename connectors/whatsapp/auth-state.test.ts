/**
 * WhatsApp's auth state survives what a real AWS account does to it (ADR-0171), on the
 * table as the local runtime runs it (dynalite, which enforces DynamoDB's 400 KB item limit, behind
 * the local DynamoDB front): a stop lets the lease go only after the state's writes landed, a
 * worker that lost the lease can no longer write, and a record past 400 KB is split.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { connectionRecordsOf, getChannelRecord } from '#db/channel-records.ts';
import { acquireLease } from '#db/leases.ts';
import { loadAuthState, type TableAuthState } from './auth-state.ts';
import { liveConnections } from './live.ts';
import { defaultSessionOptions, WhatsAppSession } from './session.ts';
import { startLocalTable, type LocalTable } from '../../tests/support/local-table.ts';
import { memoryLedger, sessionContext, SocketDouble, until } from '../../tests/support/whatsapp-double.ts';

let local: LocalTable;
beforeAll(async () => {
  local = await startLocalTable('whatsapp-auth-durability');
});
afterAll(() => local.close());

const connection = () => ({ accountId: ulid(), serviceId: ulid() });

/** The lease of a connection taken by a worker, as the channel worker takes it before opening the session. */
async function lease(at: { accountId: string; serviceId: string }, ownerId: string, now = Date.now()) {
  const taken = await acquireLease(local.ports.table, { ...at, ownerId, runId: 'RUN1', now, leaseMs: 30_000 });
  expect(taken).toBeDefined();
}

/** Baileys' app-state version of a collection with `entries` patches (an LTHash state). */
function appStateVersion(entries: number, fill: number) {
  const indexValueMap: Record<string, { valueMac: Buffer }> = {};
  for (let i = 0; i < entries; i++) indexValueMap[Buffer.alloc(32, i % 251).toString('base64') + String(i)] = { valueMac: Buffer.alloc(32, fill) };
  return { version: entries, hash: Buffer.alloc(128, fill), indexValueMap };
}

describe("WhatsApp's auth state on a real table's terms", () => {
  it('the local table refuses an item over 400 KB, as DynamoDB does', async () => {
    const put = (size: number) =>
      local.ports.table.doc.send(new PutCommand({ TableName: local.ports.table.name, Item: { pk: `SIZE#${ulid()}`, sk: 'S', blob: 'x'.repeat(size) } }));
    await expect(put(399_000)).resolves.toBeDefined();
    await expect(put(410_000)).rejects.toThrow(/Item size has exceeded the maximum allowed size/);
  });

  it('an app-state version past 400 KB (3,000 patches) is written in parts, read back whole, and back in one item when it shrinks', async () => {
    const at = connection();
    const big = appStateVersion(3000, 7);
    const writer = await loadAuthState(local.ports, at);
    await writer.state.keys.set({ 'app-state-sync-version': { critical_unblock_low: big } });

    const read = (await loadAuthState(local.ports, at)).state.keys;
    expect(await read.get('app-state-sync-version', ['critical_unblock_low'])).toEqual({ critical_unblock_low: big });

    // The next sync writes it again, bigger; a fresh reader sees the new one whole.
    const bigger = appStateVersion(3500, 8);
    const again = (await loadAuthState(local.ports, at)).state.keys;
    await again.get('app-state-sync-version', ['critical_unblock_low']);
    await again.set({ 'app-state-sync-version': { critical_unblock_low: bigger } });
    expect(await (await loadAuthState(local.ports, at)).state.keys.get('app-state-sync-version', ['critical_unblock_low'])).toEqual({
      critical_unblock_low: bigger,
    });

    // A small value takes its place: one item again, no parts left behind.
    await again.set({ 'app-state-sync-version': { critical_unblock_low: appStateVersion(3, 9) } });
    expect(await (await loadAuthState(local.ports, at)).state.keys.get('app-state-sync-version', ['critical_unblock_low'])).toEqual({
      critical_unblock_low: appStateVersion(3, 9),
    });
    const records = await connectionRecordsOf(local.ports.table, { ...at, channel: 'whatsapp', kind: 'KEY-' });
    expect(records.map(({ sk }) => sk)).toEqual(['WHATSAPP-KEY-app-state-sync-version#critical_unblock_low']);
  });

  it('a worker that lost the lease can no longer write creds or keys over the new holder’s', async () => {
    const at = connection();
    await lease(at, 'worker-old');
    const old = await loadAuthState(local.ports, at, { leaseOwner: 'worker-old' });
    await old.saveCreds();

    // The old worker stalls past its lease; another takes the session over and writes its state.
    await lease(at, 'worker-new', Date.now() + 60_000);
    const current = await loadAuthState(local.ports, at, { leaseOwner: 'worker-new' });
    current.state.creds.me = { id: '5511900000000:9@s.whatsapp.net', name: 'Loja' };
    await current.saveCreds();
    await current.state.keys.set({ session: { '5511987654321.0': Buffer.alloc(16, 2) } });

    // The old one wakes up with writes of its own.
    old.state.creds.me = { id: '5511900000000:3@s.whatsapp.net', name: 'Antigo' };
    await expect(old.saveCreds()).rejects.toThrow(/lease/);
    await expect(old.state.keys.set({ session: { '5511987654321.0': Buffer.alloc(16, 1) } })).rejects.toThrow(/lease/);

    const stored = await loadAuthState(local.ports, at);
    expect(stored.state.creds.me).toEqual({ id: '5511900000000:9@s.whatsapp.net', name: 'Loja' });
    expect(await stored.state.keys.get('session', ['5511987654321.0'])).toEqual({ '5511987654321.0': Buffer.alloc(16, 2) });
  });

  it('a stop resolves (and the worker lets the lease go) only after the auth state’s writes landed', async () => {
    const at = connection();
    await lease(at, 'worker-1');
    // A table whose writes of the creds answer late.
    const gates: (() => void)[] = [];
    const doc = new Proxy(local.ports.table.doc, {
      get: (target, property, receiver) =>
        property === 'send'
          ? async (command: { constructor: { name: string } }) => {
              const slow = command.constructor.name !== 'GetCommand' && JSON.stringify(command).includes('WHATSAPP-CREDS');
              if (slow) await new Promise<void>((resolve) => gates.push(resolve));
              return target.send(command as never);
            }
          : Reflect.get(target, property, receiver),
    });
    const ports = { ...local.ports, table: { ...local.ports.table, doc } };
    const sockets: SocketDouble[] = [];
    let auth: TableAuthState | undefined;
    const { context } = sessionContext(at);
    context.ports = { ...context.ports, ...ports };
    context.leaseOwner = 'worker-1';
    const session = new WhatsAppSession(context, {
      ...defaultSessionOptions,
      live: liveConnections(),
      ledger: () => memoryLedger(),
      loadAuth: async (...args) => {
        auth = await loadAuthState(...args);
        return auth;
      },
      socketFactory: (options) => {
        const socket = new SocketDouble(options);
        sockets.push(socket);
        return socket;
      },
    });
    session.start();
    await until(() => sockets.length === 1);
    // The phone read the QR: Baileys changes the creds and emits creds.update; the session saves them.
    auth!.state.creds.me = { id: '5511900000000:7@s.whatsapp.net', name: 'Loja' };
    sockets[0]!.emit('creds.update', { me: auth!.state.creds.me });
    await until(() => gates.length === 1);

    let stopped = false;
    const stopping = session.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    for (const open of gates.splice(0)) open();
    await stopping;

    const creds = await getChannelRecord<{ sealed: string }>(local.ports.table, { scope: 'connection', ...at, channel: 'whatsapp', kind: 'CREDS' });
    expect(creds).toBeDefined();
    expect((await loadAuthState(local.ports, at)).state.creds.me?.id).toBe('5511900000000:7@s.whatsapp.net');
  });
});
