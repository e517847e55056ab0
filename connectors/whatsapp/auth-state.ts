/**
 * Baileys' auth state (creds and signal keys) kept in the table, never on local disk, so a worker
 * restart or another worker resumes a session with no new QR scan. Modelled on Baileys'
 * `useMultiFileAuthState`, with channel records instead of files:
 *   creds                  `WHATSAPP-CREDS` under the connection
 *   each signal key        `WHATSAPP-KEY-<type>#<id>` under the connection (pre-key, session, sender-key, ...)
 * Every value is serialised with Baileys' `BufferJSON` (Buffers survive) and sealed with the vault
 * (AES-GCM, like Telegram tokens). Values are written as Baileys changes them and kept in a small
 * in-memory cache: one session owns its state, so reads after the first come from memory.
 */
import { BufferJSON, initAuthCreds, proto, type AuthenticationCreds, type AuthenticationState, type SignalDataTypeMap } from 'baileys';
import { connectionRecordsOf, deleteChannelRecord, getChannelRecord, putChannelRecord, type RecordAddress } from '#db/channel-records.ts';
import type { Ports } from '#domain/ports.ts';
import { Lru } from './lru.ts';

const channel = 'whatsapp';
const credsKind = 'CREDS';
const keyKindPrefix = 'KEY-';
/** How many values are kept in memory; the least recently used go first. */
const cacheSize = 5000;
/** How many table calls one `get` or `set` makes at once. */
const parallelCalls = 16;

export interface ConnectionRef {
  accountId: string;
  serviceId: string;
}

type StatePorts = Pick<Ports, 'table' | 'vault'>;
type KeyType = keyof SignalDataTypeMap;

interface SealedRecord {
  sealed: string;
}

export interface TableAuthState {
  /** What `makeWASocket({ auth })` takes. */
  state: AuthenticationState;
  /** Writes the creds as they are now (on `creds.update`). */
  saveCreds(): Promise<void>;
  /** Removes creds and every key (logout); later writes of this state are dropped. */
  clear(): Promise<void>;
}

const credsAt = (c: ConnectionRef): RecordAddress => ({ scope: 'connection', accountId: c.accountId, serviceId: c.serviceId, channel, kind: credsKind });
const keyAt = (c: ConnectionRef, type: string, id: string): RecordAddress => ({
  scope: 'connection',
  accountId: c.accountId,
  serviceId: c.serviceId,
  channel,
  kind: `${keyKindPrefix}${type}`,
  id,
});

async function seal(ports: StatePorts, value: unknown): Promise<SealedRecord> {
  return { sealed: await ports.vault.seal(JSON.stringify(value, BufferJSON.replacer)) };
}

async function unseal<T>(ports: StatePorts, record: SealedRecord | undefined): Promise<T | null> {
  if (!record?.sealed) return null;
  return JSON.parse(await ports.vault.open(record.sealed), BufferJSON.reviver) as T;
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Protobuf values lose their class in JSON (bytes become base64); Baileys expects the class back. */
function revive(type: KeyType, value: unknown): unknown {
  return type === 'app-state-sync-key' && value ? proto.Message.AppStateSyncKeyData.fromObject(value as object) : value;
}

/** Loads a connection's auth state from the table (fresh creds when none are stored). */
export async function loadAuthState(ports: StatePorts, connection: ConnectionRef): Promise<TableAuthState> {
  const stored = await unseal<AuthenticationCreds>(ports, await getChannelRecord<SealedRecord>(ports.table, credsAt(connection)));
  const creds = stored ?? initAuthCreds();
  const cache = new Lru<unknown>(cacheSize);
  // Writes of one record happen in the order they were asked for.
  const writes = new Map<string, Promise<void>>();
  let cleared = false;

  const inOrder = (slot: string, write: () => Promise<void>): Promise<void> => {
    const previous = writes.get(slot) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => (cleared ? undefined : write()));
    writes.set(slot, next);
    void next.finally(() => writes.get(slot) === next && writes.delete(slot)).catch(() => undefined);
    return next;
  };

  const keys: AuthenticationState['keys'] = {
    async get<T extends KeyType>(type: T, ids: string[]) {
      const found: { [id: string]: SignalDataTypeMap[T] } = {};
      const missing = ids.filter((id) => !cache.has(`${type}#${id}`));
      await eachLimited(missing, parallelCalls, async (id) => {
        const value = revive(type, await unseal(ports, await getChannelRecord<SealedRecord>(ports.table, keyAt(connection, type, id))));
        cache.set(`${type}#${id}`, value);
      });
      for (const id of ids) {
        const value = cache.get(`${type}#${id}`);
        if (value !== null && value !== undefined) found[id] = value as SignalDataTypeMap[T];
      }
      return found;
    },
    async set(data) {
      const changes: { type: string; id: string; value: unknown }[] = [];
      for (const [type, values] of Object.entries(data)) {
        for (const [id, value] of Object.entries(values ?? {})) changes.push({ type, id, value: value ?? null });
      }
      await eachLimited(changes, parallelCalls, async ({ type, id, value }) => {
        if (cleared) return;
        cache.set(`${type}#${id}`, value);
        const address = keyAt(connection, type, id);
        await inOrder(`${type}#${id}`, async () =>
          value === null ? deleteChannelRecord(ports.table, address) : putChannelRecord(ports.table, address, await seal(ports, value)),
        );
      });
    },
  };

  return {
    state: { creds, keys },
    saveCreds: () => inOrder(credsKind, async () => putChannelRecord(ports.table, credsAt(connection), await seal(ports, creds))),
    async clear() {
      cleared = true;
      cache.clear();
      await Promise.allSettled([...writes.values()]);
      await clearAuthState(ports, connection);
    },
  };
}

/** Removes a connection's creds and every signal key from the table (logout). */
export async function clearAuthState(ports: Pick<Ports, 'table'>, connection: ConnectionRef): Promise<void> {
  const records = await connectionRecordsOf<SealedRecord>(ports.table, { ...connection, channel, kind: keyKindPrefix });
  const prefix = `${channel.toUpperCase()}-`;
  await eachLimited(records, parallelCalls, async ({ sk }) => {
    // `WHATSAPP-KEY-<type>#<id>`: the kind before the first '#', the id after it.
    const at = sk.indexOf('#');
    await deleteChannelRecord(ports.table, keyAt(connection, sk.slice(prefix.length + keyKindPrefix.length, at), sk.slice(at + 1)));
  });
  await deleteChannelRecord(ports.table, credsAt(connection));
}
