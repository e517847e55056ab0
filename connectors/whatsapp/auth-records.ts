/**
 * Where WhatsApp's auth state lives in the table, and its removal (logout), apart from Baileys so
 * the functions that stop connections load no Baileys code:
 *   creds                  `WHATSAPP-CREDS` under the connection
 *   each signal key        `WHATSAPP-KEY-<type>#<id>` under the connection (pre-key, session, sender-key, ...)
 * Every value is sealed with the vault: `{ sealed }`.
 */
import { connectionRecordsOf, deleteChannelRecord, type RecordAddress } from '#db/channel-records.ts';
import type { Ports } from '#domain/ports.ts';

const channel = 'whatsapp';
const keyKindPrefix = 'KEY-';
/** How many table calls run at once. */
const parallelCalls = 16;

export interface ConnectionRef {
  accountId: string;
  serviceId: string;
}

export interface SealedRecord {
  sealed: string;
}

export const credsAt = (c: ConnectionRef): RecordAddress => ({ scope: 'connection', accountId: c.accountId, serviceId: c.serviceId, channel, kind: 'CREDS' });
export const keyAt = (c: ConnectionRef, type: string, id: string): RecordAddress => ({
  scope: 'connection',
  accountId: c.accountId,
  serviceId: c.serviceId,
  channel,
  kind: `${keyKindPrefix}${type}`,
  id,
});

/** Runs `fn` over `items`, at most `limit` (16) at a time. */
export async function eachLimited<T>(items: readonly T[], fn: (item: T) => Promise<void>, limit = parallelCalls): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Removes a connection's creds and every signal key from the table (logout). */
export async function clearAuthState(ports: Pick<Ports, 'table'>, connection: ConnectionRef): Promise<void> {
  const records = await connectionRecordsOf<SealedRecord>(ports.table, { ...connection, channel, kind: keyKindPrefix });
  const prefix = `${channel.toUpperCase()}-${keyKindPrefix}`;
  await eachLimited(records, async ({ sk }) => {
    // `WHATSAPP-KEY-<type>#<id>`: the type before the first '#', the id after it.
    const at = sk.indexOf('#');
    await deleteChannelRecord(ports.table, keyAt(connection, sk.slice(prefix.length, at), sk.slice(at + 1)));
  });
  await deleteChannelRecord(ports.table, credsAt(connection));
}
