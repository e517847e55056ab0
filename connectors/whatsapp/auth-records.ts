/**
 * Where WhatsApp's auth state lives in the table, and its removal (logout), apart from Baileys so
 * the functions that stop connections load no Baileys code:
 *   creds                  `WHATSAPP-CREDS` under the connection
 *   each signal key        `WHATSAPP-KEY-<type>#<id>` under the connection (pre-key, session, sender-key, ...)
 *   a key's parts          `WHATSAPP-KEY-PART-<type>#<id>#<generation>#<n>` when its sealed value passes
 *                          `maxSealedChars` (an app-state version of a large account): the key's own
 *                          record then holds `{ parts, gen }` and each part a slice of the sealed text
 * Every value is sealed with the vault: `{ sealed }`.
 */
import { connectionRecordsOf, deleteChannelRecord, type RecordAddress } from '#db/channel-records.ts';
import type { Ports } from '#domain/ports.ts';

const channel = 'whatsapp';
const keyKindPrefix = 'KEY-';
/** What the device sent, kept for retries (./sent-store.ts): the device's too, so a logout removes it. */
export const sentKind = 'SENT';
/** How many table calls run at once. */
const parallelCalls = 16;

export interface ConnectionRef {
  accountId: string;
  serviceId: string;
}

export interface SealedRecord {
  sealed: string;
}

/** A key whose sealed value is kept in `parts` records of generation `gen`. */
export interface ChunkedRecord {
  parts: number;
  gen: string;
}

export interface PartRecord {
  part: string;
}

/**
 * The longest sealed text one item holds. DynamoDB refuses an item over 400 KB (names and values);
 * this leaves room for the keys and attributes around it. An app-state version passes it at about
 * 2,000 patches (some 176 bytes each, sealed).
 */
export const maxSealedChars = 350_000;

export const credsAt = (c: ConnectionRef): RecordAddress => ({ scope: 'connection', accountId: c.accountId, serviceId: c.serviceId, channel, kind: 'CREDS' });
export const keyAt = (c: ConnectionRef, type: string, id: string): RecordAddress => ({
  scope: 'connection',
  accountId: c.accountId,
  serviceId: c.serviceId,
  channel,
  kind: `${keyKindPrefix}${type}`,
  id,
});

/** One part of a split key (see the header). */
export const partAt = (c: ConnectionRef, type: string, id: string, gen: string, n: number): RecordAddress => keyAt(c, `PART-${type}`, `${id}#${gen}#${n}`);

/** Runs `fn` over `items`, at most `limit` (16) at a time. */
export async function eachLimited<T>(items: readonly T[], fn: (item: T) => Promise<void>, limit = parallelCalls): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Removes a connection's creds, every signal key and the messages the device sent from the table
 * (logout): a new pairing is a new device, which no retry of the old one's messages reaches.
 */
export async function clearAuthState(ports: Pick<Ports, 'table'>, connection: ConnectionRef): Promise<void> {
  const records = await connectionRecordsOf<SealedRecord>(ports.table, { ...connection, channel, kind: keyKindPrefix });
  const prefix = `${channel.toUpperCase()}-${keyKindPrefix}`;
  await eachLimited(records, async ({ sk }) => {
    // `WHATSAPP-KEY-<type>#<id>`: the type before the first '#', the id after it (parts alike: type `PART-<type>`).
    const at = sk.indexOf('#');
    await deleteChannelRecord(ports.table, keyAt(connection, sk.slice(prefix.length, at), sk.slice(at + 1)));
  });
  const sent = await connectionRecordsOf<object>(ports.table, { ...connection, channel, kind: `${sentKind}#` });
  await eachLimited(sent, async ({ sk }) => {
    await deleteChannelRecord(ports.table, { scope: 'connection', ...connection, channel, kind: sentKind, id: sk.slice(sk.indexOf('#') + 1) });
  });
  await deleteChannelRecord(ports.table, credsAt(connection));
}
