/**
 * Baileys' auth state (creds and signal keys) kept in the table, never on local disk, so a worker
 * restart or another worker resumes a session with no new QR scan. Modelled on Baileys'
 * `useMultiFileAuthState`, with channel records (./auth-records.ts) instead of files. Every value
 * is serialised with Baileys' `BufferJSON` (Buffers survive) and sealed with the vault (AES-GCM,
 * like Telegram tokens). Values are written as Baileys changes them and kept in a small
 * in-memory cache: one session owns its state, so reads after the first come from memory.
 */
import { BufferJSON, initAuthCreds, proto, type AuthenticationCreds, type AuthenticationState, type SignalDataTypeMap } from 'baileys';
import { deleteChannelRecord, getChannelRecord, putChannelRecord } from '#db/channel-records.ts';
import type { Ports } from '#domain/ports.ts';
import { clearAuthState, credsAt, eachLimited, keyAt, type ConnectionRef, type SealedRecord } from './auth-records.ts';
import { Lru } from './lru.ts';

export { clearAuthState, type ConnectionRef };

/** How many values are kept in memory; the least recently used go first. */
const cacheSize = 5000;

type StatePorts = Pick<Ports, 'table' | 'vault'>;
type KeyType = keyof SignalDataTypeMap;

export interface TableAuthState {
  /** What `makeWASocket({ auth })` takes. */
  state: AuthenticationState;
  /** Writes the creds as they are now (on `creds.update`). */
  saveCreds(): Promise<void>;
  /** Removes creds and every key (logout); later writes of this state are dropped. */
  clear(): Promise<void>;
}

async function seal(ports: StatePorts, value: unknown): Promise<SealedRecord> {
  return { sealed: await ports.vault.seal(JSON.stringify(value, BufferJSON.replacer)) };
}

async function unseal<T>(ports: StatePorts, record: SealedRecord | undefined): Promise<T | null> {
  if (!record?.sealed) return null;
  return JSON.parse(await ports.vault.open(record.sealed), BufferJSON.reviver) as T;
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
      await eachLimited(missing, async (id) => {
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
      await eachLimited(changes, async ({ type, id, value }) => {
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
    saveCreds: () => inOrder('creds', async () => putChannelRecord(ports.table, credsAt(connection), await seal(ports, creds))),
    async clear() {
      cleared = true;
      cache.clear();
      await Promise.allSettled([...writes.values()]);
      await clearAuthState(ports, connection);
    },
  };
}
