/**
 * Baileys' auth state (creds and signal keys) kept in the table, never on local disk, so a worker
 * restart or another worker resumes a session with no new QR scan. Modelled on Baileys'
 * `useMultiFileAuthState`, with channel records (./auth-records.ts) instead of files. Every value
 * is serialised with Baileys' `BufferJSON` (Buffers survive) and sealed with the vault (AES-GCM,
 * like Telegram tokens). Values are written as Baileys changes them and kept in a small
 * in-memory cache: one session owns its state, so reads after the first come from memory. A value
 * set while a read of it is under way wins over that read's (older) answer.
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

/** A value as the table keeps it: `BufferJSON` text sealed with the vault. */
export async function seal(ports: StatePorts, value: unknown): Promise<SealedRecord> {
  return { sealed: await ports.vault.seal(JSON.stringify(value, BufferJSON.replacer)) };
}

export async function unseal<T>(ports: StatePorts, record: SealedRecord | undefined): Promise<T | null> {
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

  /**
   * Reads of the table under way, by slot. A `set` while one is under way marks it superseded:
   * its answer (read before the write landed) must not go back over the newer value, or the next
   * decryption finds an older ratchet ("Bad MAC") or none ("no session"). Baileys' own
   * `makeCacheableSignalKeyStore` gets the same guarantee with one mutex over get and set; this
   * keeps reads and writes of different keys from waiting on each other.
   */
  const reading = new Map<string, Set<{ newer?: { value: unknown } }>>();
  /** Values set whose write has not landed yet: answered from here should the cache have dropped them. */
  const unwritten = new Map<string, unknown>();

  const readSlot = async (type: KeyType, id: string, slot: string): Promise<unknown> => {
    const marker: { newer?: { value: unknown } } = {};
    const markers = reading.get(slot) ?? new Set();
    reading.set(slot, markers.add(marker));
    try {
      const value = revive(type, await unseal(ports, await getChannelRecord<SealedRecord>(ports.table, keyAt(connection, type, id))));
      if (marker.newer) return marker.newer.value;
      cache.set(slot, value);
      return value;
    } finally {
      markers.delete(marker);
      if (!markers.size && reading.get(slot) === markers) reading.delete(slot);
    }
  };

  const keys: AuthenticationState['keys'] = {
    async get<T extends KeyType>(type: T, ids: string[]) {
      const values = new Map<string, unknown>();
      const missing: string[] = [];
      for (const id of ids) {
        const slot = `${type}#${id}`;
        if (cache.has(slot)) values.set(id, cache.get(slot));
        else if (unwritten.has(slot)) values.set(id, unwritten.get(slot));
        else missing.push(id);
      }
      await eachLimited(missing, async (id) => void values.set(id, await readSlot(type, id, `${type}#${id}`)));
      const found: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const id of ids) {
        const value = values.get(id);
        if (value !== null && value !== undefined) found[id] = value as SignalDataTypeMap[T];
      }
      return found;
    },
    async set(data) {
      if (cleared) return;
      const changes: { type: string; id: string; value: unknown }[] = [];
      for (const [type, values] of Object.entries(data)) {
        for (const [id, value] of Object.entries(values ?? {})) changes.push({ type, id, value: value ?? null });
      }
      // Every change is visible at once, before any write: a read that started earlier is superseded.
      for (const { type, id, value } of changes) {
        const slot = `${type}#${id}`;
        cache.set(slot, value);
        unwritten.set(slot, value);
        for (const marker of reading.get(slot) ?? []) marker.newer = { value };
      }
      await eachLimited(changes, async ({ type, id, value }) => {
        const slot = `${type}#${id}`;
        const address = keyAt(connection, type, id);
        await inOrder(slot, async () =>
          value === null ? deleteChannelRecord(ports.table, address) : putChannelRecord(ports.table, address, await seal(ports, value)),
        ).finally(() => unwritten.get(slot) === value && unwritten.delete(slot));
      });
    },
  };

  return {
    state: { creds, keys },
    saveCreds: () => inOrder('creds', async () => putChannelRecord(ports.table, credsAt(connection), await seal(ports, creds))),
    async clear() {
      cleared = true;
      cache.clear();
      unwritten.clear();
      await Promise.allSettled([...writes.values()]);
      await clearAuthState(ports, connection);
    },
  };
}
