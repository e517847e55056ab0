/**
 * WhatsApp's auth state in the table: real Baileys creds and signal keys go through the runtime's
 * table (dynalite), sealed, and come back equal, Buffers included; logout removes all of it.
 */
import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { proto } from 'baileys';
import { connectionRecordsOf, getChannelRecord } from '#db/channel-records.ts';
import { clearAuthState, loadAuthState } from '#connectors/whatsapp/auth-state.ts';
import type { Ports } from '#domain/ports.ts';
import { workerPorts } from './worker.ts';

const connection = () => ({ accountId: ulid(), serviceId: ulid() });
const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

type AnyCommand = { constructor: { name: string }; input: { Key?: { sk?: string }; Item?: { sk?: string } } };

/**
 * The runtime's table, but the reads (GetItem) of the records `slow` picks are held: each is sent
 * at once (so it reads what the table holds then) and its answer handed back only when `release`
 * is called, as a slow DynamoDB call does. `held` counts the reads waiting.
 */
function slowTable(ports: Ports, slow: (sk: string) => boolean) {
  const gates: (() => void)[] = [];
  const doc = new Proxy(ports.table.doc, {
    get: (target, property, receiver) =>
      property === 'send'
        ? async (command: AnyCommand) => {
            const answer = target.send(command as never);
            if (command.constructor.name !== 'GetCommand' || !slow(command.input.Key?.sk ?? '')) return answer;
            const read = await answer;
            await new Promise<void>((resolve) => gates.push(resolve));
            return read;
          }
        : Reflect.get(target, property, receiver),
  });
  return {
    ports: { ...ports, table: { ...ports.table, doc } },
    get held() {
      return gates.length;
    },
    release: () => {
      for (const open of gates.splice(0)) open();
    },
  };
}

async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** One key of each kind Baileys stores, as Baileys hands them over. */
function realKeys() {
  return {
    'pre-key': { '1': { public: bytes(33, 1), private: bytes(32, 2) }, '2': { public: bytes(33, 3), private: bytes(32, 4) } },
    session: { '5511912345678.0': bytes(120, 5) },
    'sender-key': { '120363025246125888@g.us::5511912345678::0': bytes(80, 6) },
    'sender-key-memory': { '120363025246125888@g.us': { '5511912345678:0@s.whatsapp.net': true } },
    'app-state-sync-key': {
      AAAAAFjV: proto.Message.AppStateSyncKeyData.fromObject({
        keyData: bytes(32, 7),
        fingerprint: { rawId: 12345, currentIndex: 2, deviceIndexes: [0, 1] },
        timestamp: 1_700_000_000,
      }),
    },
    'app-state-sync-version': { regular: { version: 3, hash: bytes(128, 8), indexValueMap: { abc: { valueMac: bytes(32, 9) } } } },
  };
}

describe("WhatsApp's auth state in the table", () => {
  it('starts with fresh creds, and round-trips real creds, with their Buffers, through the table', async () => {
    const ports = workerPorts();
    const at = connection();
    const first = await loadAuthState(ports, at);
    expect(first.state.creds.registered).toBe(false);
    expect(Buffer.isBuffer(first.state.creds.noiseKey.public)).toBe(true);

    first.state.creds.me = { id: '5511912345678:3@s.whatsapp.net', name: 'Loja' };
    first.state.creds.registered = true;
    await first.saveCreds();

    const again = await loadAuthState(ports, at);
    expect(again.state.creds).toEqual(first.state.creds);
    expect(Buffer.isBuffer(again.state.creds.signedPreKey.keyPair.private)).toBe(true);
    expect(again.state.creds.signedPreKey.signature).toEqual(first.state.creds.signedPreKey.signature);
  });

  it('round-trips pre-keys, sessions, sender keys and app-state keys as Baileys types', async () => {
    const ports = workerPorts();
    const at = connection();
    const written = await loadAuthState(ports, at);
    const keys = realKeys();
    await written.state.keys.set(keys);

    // A fresh load reads from the table, not from the writer's cache.
    const read = (await loadAuthState(ports, at)).state.keys;
    expect(await read.get('pre-key', ['1', '2', '3'])).toEqual(keys['pre-key']);
    expect(await read.get('session', ['5511912345678.0'])).toEqual(keys.session);
    expect(await read.get('sender-key', ['120363025246125888@g.us::5511912345678::0'])).toEqual(keys['sender-key']);
    expect(await read.get('sender-key-memory', ['120363025246125888@g.us'])).toEqual(keys['sender-key-memory']);
    expect(await read.get('app-state-sync-version', ['regular'])).toEqual(keys['app-state-sync-version']);
    const syncKey = (await read.get('app-state-sync-key', ['AAAAAFjV'])).AAAAAFjV!;
    expect(syncKey).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(syncKey.keyData!)).toEqual(bytes(32, 7));
    expect(syncKey.fingerprint?.deviceIndexes).toEqual([0, 1]);
    expect(Buffer.isBuffer((await read.get('session', ['5511912345678.0']))['5511912345678.0'])).toBe(true);
  });

  it('keeps values sealed: nothing of the key material is readable in the item', async () => {
    const ports = workerPorts();
    const at = connection();
    const state = await loadAuthState(ports, at);
    await state.saveCreds();
    await state.state.keys.set({ session: { 'x.0': bytes(64, 0xab) } });
    const record = await getChannelRecord<{ sealed: string }>(ports.table, { scope: 'connection', ...at, channel: 'whatsapp', kind: 'KEY-session', id: 'x.0' });
    expect(record?.sealed).toMatch(/^v1\./);
    expect(record?.sealed).not.toContain(bytes(64, 0xab).toString('base64').slice(0, 24));
    const creds = await getChannelRecord<{ sealed: string }>(ports.table, { scope: 'connection', ...at, channel: 'whatsapp', kind: 'CREDS' });
    expect(creds?.sealed).not.toContain(state.state.creds.advSecretKey);
  });

  it('deletes a key set to null, and answers from memory after the first read', async () => {
    const ports = workerPorts();
    const at = connection();
    const state = await loadAuthState(ports, at);
    await state.state.keys.set({ 'pre-key': { '7': { public: bytes(33, 1), private: bytes(32, 2) } } });
    await state.state.keys.set({ 'pre-key': { '7': null } });
    expect(await (await loadAuthState(ports, at)).state.keys.get('pre-key', ['7'])).toEqual({});

    await state.state.keys.set({ session: { 'y.0': bytes(10, 1) } });
    let reads = 0;
    const counting = {
      ...ports,
      table: {
        ...ports.table,
        doc: new Proxy(ports.table.doc, {
          get: (t, p, r) =>
            p === 'send'
              ? (c: never) => {
                  reads++;
                  return t.send(c);
                }
              : Reflect.get(t, p, r),
        }),
      },
    };
    const cached = await loadAuthState(counting, at);
    reads = 0;
    await cached.state.keys.get('session', ['y.0']);
    await cached.state.keys.get('session', ['y.0']);
    expect(reads).toBe(1);
  });

  it('logout removes the creds and every key of the connection, and later writes of that state are dropped', async () => {
    const ports = workerPorts();
    const at = connection();
    const other = connection();
    const state = await loadAuthState(ports, at);
    await state.saveCreds();
    await state.state.keys.set(realKeys());
    const neighbour = await loadAuthState(ports, other);
    await neighbour.saveCreds();
    await neighbour.state.keys.set({ session: { 'z.0': bytes(4, 1) } });

    await state.clear();
    await state.saveCreds();
    await state.state.keys.set({ session: { 'late.0': bytes(4, 2) } });

    expect(await connectionRecordsOf(ports.table, { ...at, channel: 'whatsapp', kind: '' })).toEqual([]);
    expect((await loadAuthState(ports, at)).state.creds.registered).toBe(false);
    // Another connection's state is untouched.
    expect(await (await loadAuthState(ports, other)).state.keys.get('session', ['z.0'])).toEqual({ 'z.0': bytes(4, 1) });

    // Clearing without a loaded state (no live session in this process) removes the same.
    await clearAuthState(ports, other);
    expect(await connectionRecordsOf(ports.table, { ...other, channel: 'whatsapp', kind: '' })).toEqual([]);
  });

  it('a slow read never puts an older key back over a newer one written meanwhile (no session, Bad MAC)', async () => {
    const ports = workerPorts();
    const at = connection();
    // The table holds an older session for one peer and none for another.
    await (await loadAuthState(ports, at)).state.keys.set({ session: { 'old.0': bytes(16, 1) } });
    const table = slowTable(ports, (sk) => sk.includes('KEY-session#'));
    const { keys } = (await loadAuthState(table.ports, at)).state;

    // Baileys reads both sessions (outside a transaction: no lock) and the table is slow to answer...
    const reading = keys.get('session', ['old.0', 'new.0']);
    await until(() => table.held === 2);
    // ...while a message ratchets the one and starts the other (a transaction's commit).
    await keys.set({ session: { 'old.0': bytes(16, 2), 'new.0': bytes(16, 3) } });
    table.release();
    await reading;

    // The next decryption must see the newer sessions, from memory and from the table alike.
    expect(await keys.get('session', ['old.0', 'new.0'])).toEqual({ 'old.0': bytes(16, 2), 'new.0': bytes(16, 3) });
    expect(await (await loadAuthState(ports, at)).state.keys.get('session', ['old.0', 'new.0'])).toEqual({ 'old.0': bytes(16, 2), 'new.0': bytes(16, 3) });
  });
});
