/**
 * The ledger of raw inbound events: every message Baileys upserts is written here before the sink
 * sees it and removed once the sink has taken it, so a crash (or a failure) in between leaves it
 * here and the next open of the session hands it over again. The domain keys messages by WhatsApp's
 * id, so handing over one that was already stored changes nothing.
 *   each pending message   `WHATSAPP-LEDGER#<key.id>` under the connection, forgotten after 7 days
 * A record holds the raw message serialised with Baileys' `BufferJSON` and when it was received.
 */
import { BufferJSON, proto, type WAMessage } from 'baileys';
import { connectionRecordsOf, deleteChannelRecord, putChannelRecord, type RecordAddress } from '#db/channel-records.ts';
import type { Table } from '#db/client.ts';
import type { ConnectionRef } from './auth-state.ts';

const channel = 'whatsapp';
const kind = 'LEDGER';
/** How long a message nobody marked done stays to be replayed. */
export const ledgerTtlSeconds = 7 * 24 * 60 * 60;

export interface LedgerRecord {
  /** The raw message, `JSON.stringify` with `BufferJSON.replacer`. */
  raw: string;
  /** When it was received (ms since the epoch), then the order it came in that millisecond: the replay order. */
  receivedAt: number;
  seq: number;
}

/** Where a connection's raw inbound messages wait until the sink has taken them. */
export interface InboundLedger {
  /** Writes a received message (it must have a `key.id`). */
  put(connection: ConnectionRef, message: WAMessage): Promise<void>;
  /** The sink took it: forgets it. */
  done(connection: ConnectionRef, id: string): Promise<void>;
  /** What was written and never marked done, in the order it was received. */
  pending(connection: ConnectionRef): Promise<WAMessage[]>;
}

let sequence = 0;

export function ledgerRecord(message: WAMessage, now = Date.now()): LedgerRecord {
  return { raw: JSON.stringify(message, BufferJSON.replacer), receivedAt: now, seq: ++sequence };
}

/** Fields Baileys adds to a message key beyond the protobuf's (`WAMessageKey`); `fromObject` drops them. */
const keyExtras = ['remoteJidAlt', 'remoteJidUsername', 'participantAlt', 'participantUsername', 'server_id', 'addressingMode', 'isViewOnce'] as const;

/** The message a record holds, as Baileys' own type again, its key's extra fields (the alternate JIDs) kept. */
export function messageOfRecord(record: LedgerRecord): WAMessage {
  const parsed = JSON.parse(record.raw, BufferJSON.reviver) as { key?: Record<string, unknown> };
  const message = proto.WebMessageInfo.fromObject(parsed) as WAMessage;
  for (const field of keyExtras) {
    const value = parsed.key?.[field];
    if (value !== undefined && value !== null) Object.assign(message.key, { [field]: value });
  }
  return message;
}

/** Records in the order they were received. */
export function replayOrder(records: readonly LedgerRecord[]): LedgerRecord[] {
  return [...records].sort((a, b) => a.receivedAt - b.receivedAt || a.seq - b.seq);
}

const at = (c: ConnectionRef, id?: string): RecordAddress => ({ scope: 'connection', accountId: c.accountId, serviceId: c.serviceId, channel, kind, id });

/** The ledger in the table, as channel records of the connection. */
export function tableLedger(table: Table): InboundLedger {
  return {
    async put(connection, message) {
      await putChannelRecord(table, at(connection, message.key.id!), ledgerRecord(message), { ttlSeconds: ledgerTtlSeconds });
    },
    async done(connection, id) {
      await deleteChannelRecord(table, at(connection, id));
    },
    async pending(connection) {
      const records = await connectionRecordsOf<LedgerRecord>(table, { ...connection, channel, kind });
      return replayOrder(records.map(({ data }) => data)).map(messageOfRecord);
    },
  };
}
