/**
 * Baileys' auth state (creds and signal keys) kept in the table, never on local disk, so a worker
 * restart or another worker resumes a session with no new QR scan. Modelled on Baileys'
 * `useMultiFileAuthState`, with channel records (./auth-records.ts) instead of files. Every value
 * is serialised with Baileys' `BufferJSON` (Buffers survive) and sealed with the vault (AES-GCM,
 * like Telegram tokens). Values are written as Baileys changes them and kept in a small
 * in-memory cache: one session owns its state, so reads after the first come from memory. A value
 * set while a read of it is under way wins over that read's (older) answer.
 *
 * Durability (ADR-0171): given the worker that holds the connection's session lease, every write of
 * creds and keys is fenced by it (a transaction with a check of the lease: a worker that lost the
 * session can no longer overwrite its new holder's state); `flush` waits for the writes under way
 * (a stop calls it before the lease is let go); a key whose sealed value passes one item's room
 * (`maxSealedChars`) is split into parts (see ./auth-records.ts).
 */
import { randomBytes } from 'node:crypto';
import { BufferJSON, initAuthCreds, proto, type AuthenticationCreds, type AuthenticationState, type SignalDataTypeMap } from 'baileys';
import { deleteChannelRecord, getChannelRecord, putChannelRecord, type RecordAddress } from '#db/channel-records.ts';
import { deleteRecordUnderLease, putRecordUnderLease, type LeaseFence } from '#db/fenced-records.ts';
import type { Ports } from '#domain/ports.ts';
import {
  clearAuthState,
  credsAt,
  eachLimited,
  keyAt,
  maxSealedChars,
  partAt,
  type ChunkedRecord,
  type ConnectionRef,
  type PartRecord,
  type SealedRecord,
} from './auth-records.ts';
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
  /** Resolves once every write asked for so far has landed (or failed): a stop waits for it before the lease goes. */
  flush(): Promise<void>;
}

export interface AuthStateOptions {
  /**
   * The worker holding the connection's session lease (the channel worker's id). Given, every
   * write is refused once another worker holds the lease (`LeaseLostError`); absent (tools, tests
   * without a worker), writes are not fenced.
   */
  leaseOwner?: string | undefined;
}

/** A write refused because this worker no longer holds the connection's session lease. */
export class LeaseLostError extends Error {
  constructor(serviceId: string) {
    super(`The session lease of ${serviceId} is held by another worker: auth state not written`);
    this.name = 'LeaseLostError';
  }
}

type KeyRecord = SealedRecord | ChunkedRecord;
const isChunked = (record: KeyRecord | undefined): record is ChunkedRecord => Boolean(record && 'parts' in record && record.parts);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

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
export async function loadAuthState(ports: StatePorts, connection: ConnectionRef, options: AuthStateOptions = {}): Promise<TableAuthState> {
  const stored = await unseal<AuthenticationCreds>(ports, await getChannelRecord<SealedRecord>(ports.table, credsAt(connection)));
  const creds = stored ?? initAuthCreds();
  const cache = new Lru<unknown>(cacheSize);
  // Writes of one record happen in the order they were asked for.
  const writes = new Map<string, Promise<void>>();
  let cleared = false;
  const fence: LeaseFence | null = options.leaseOwner ? { serviceId: connection.serviceId, ownerId: options.leaseOwner } : null;
  /** Set once a fenced write was refused: this worker lost the session, every later write is refused at once. */
  let leaseLost = false;

  /** Writes a record of the state, fenced by the lease when there is one. */
  const put = async (address: RecordAddress, data: object): Promise<void> => {
    if (!fence) return putChannelRecord(ports.table, address, data);
    if (!(await putRecordUnderLease(ports.table, address as Extract<RecordAddress, { scope: 'connection' }>, data, fence))) lose();
  };
  const remove = async (address: RecordAddress): Promise<void> => {
    if (!fence) return deleteChannelRecord(ports.table, address);
    if (!(await deleteRecordUnderLease(ports.table, address as Extract<RecordAddress, { scope: 'connection' }>, fence))) lose();
  };
  const lose = (): never => {
    leaseLost = true;
    throw new LeaseLostError(connection.serviceId);
  };

  /** Where each split key's parts are (slot → generation and count), as last read or written here. */
  const chunked = new Map<string, ChunkedRecord>();

  /** A key's value from the table: one item, or its parts joined (a head whose parts a writer just replaced is read again). */
  const readValue = async (type: string, id: string, slot: string): Promise<unknown> => {
    for (let attempt = 1; ; attempt++) {
      const head = await getChannelRecord<KeyRecord>(ports.table, keyAt(connection, type, id));
      if (!isChunked(head)) {
        if (!writes.has(slot)) chunked.delete(slot);
        return unseal(ports, head);
      }
      if (!writes.has(slot)) chunked.set(slot, { parts: head.parts, gen: head.gen });
      const parts = await Promise.all(range(head.parts).map((n) => getChannelRecord<PartRecord>(ports.table, partAt(connection, type, id, head.gen, n))));
      if (parts.every(Boolean)) return unseal(ports, { sealed: parts.map((part) => part!.part).join('') });
      if (attempt >= 3) throw new Error(`Parts of ${slot} are missing`);
    }
  };

  /**
   * Writes a key's value (null: deletes it). A value past `maxSealedChars` goes in parts written
   * first under a new generation, then the key's record pointing at them; the previous
   * generation's parts go last, so a reader never joins parts of two values.
   */
  const writeValue = async (type: string, id: string, slot: string, value: unknown): Promise<void> => {
    const address = keyAt(connection, type, id);
    const previous = chunked.get(slot);
    if (value === null) await remove(address);
    else {
      const { sealed } = await seal(ports, value);
      if (sealed.length <= maxSealedChars) await put(address, { sealed });
      else {
        const gen = randomBytes(6).toString('hex');
        const slices = range(Math.ceil(sealed.length / maxSealedChars)).map((n) => sealed.slice(n * maxSealedChars, (n + 1) * maxSealedChars));
        // Parts are invisible until the key's record names their generation: not fenced.
        await eachLimited(range(slices.length), (n) => putChannelRecord(ports.table, partAt(connection, type, id, gen, n), { part: slices[n]! }), 4);
        await put(address, { parts: slices.length, gen });
        chunked.set(slot, { parts: slices.length, gen });
      }
    }
    if (value === null || chunked.get(slot) === previous) chunked.delete(slot);
    if (previous) await eachLimited(range(previous.parts), (n) => deleteChannelRecord(ports.table, partAt(connection, type, id, previous.gen, n)), 4);
  };

  const inOrder = (slot: string, write: () => Promise<void>): Promise<void> => {
    const previous = writes.get(slot) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => (cleared ? undefined : leaseLost ? lose() : write()));
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
      const value = revive(type, await readValue(type, id, slot));
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
        await inOrder(slot, () => writeValue(type, id, slot, value)).finally(() => unwritten.get(slot) === value && unwritten.delete(slot));
      });
    },
  };

  return {
    state: { creds, keys },
    saveCreds: () => inOrder('creds', async () => put(credsAt(connection), await seal(ports, creds))),
    async flush() {
      // Writes asked for while waiting are waited for too.
      while (writes.size) await Promise.allSettled([...writes.values()]);
    },
    async clear() {
      cleared = true;
      cache.clear();
      unwritten.clear();
      await Promise.allSettled([...writes.values()]);
      await clearAuthState(ports, connection);
    },
  };
}
