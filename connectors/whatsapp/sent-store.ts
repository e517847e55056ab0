/**
 * What this connection sent, kept in the table for a few days so Baileys' `getMessage` can answer
 * a recipient's retry request after a restart, a deploy or a takeover by another worker: a phone
 * that could not decrypt a message asks the sender to encrypt it again, possibly days later (it
 * was off), and a sender that no longer has the message leaves "Aguardando esta mensagem" on that
 * phone for good.
 *   each sent message   `WHATSAPP-SENT#<key.id>` under the connection, forgotten after 7 days
 * A record holds the message's content (`proto.IMessage`, what `getMessage` answers) serialised
 * with Baileys' `BufferJSON` and sealed with the vault, as the auth state is: a medium's content
 * carries its `mediaKey`, with which anyone holding the CDN link can decrypt the file. A logout
 * removes them with the auth state (`clearAuthState`).
 */
import { proto, type WAMessage } from 'baileys';
import { getChannelRecord, putChannelRecord, type RecordAddress } from '#db/channel-records.ts';
import type { Ports } from '#domain/ports.ts';
import { sentKind, type ConnectionRef, type SealedRecord } from './auth-records.ts';
import { seal, unseal } from './auth-state.ts';

const channel = 'whatsapp';
const kind = sentKind;
/** How long a sent message can be encrypted again for a recipient who asks. */
export const sentTtlSeconds = 7 * 24 * 60 * 60;

export interface SentStore {
  /** Keeps what was sent (a message with a `key.id` and content; others are ignored). */
  put(connection: ConnectionRef, message: WAMessage): Promise<void>;
  /** The content of a message this connection sent, or undefined when unknown or forgotten. */
  get(connection: ConnectionRef, id: string): Promise<proto.IMessage | undefined>;
}

const at = (c: ConnectionRef, id: string): RecordAddress => ({ scope: 'connection', accountId: c.accountId, serviceId: c.serviceId, channel, kind, id });

/** The content as Baileys encodes it again: the protobuf class, bytes and longs restored. */
export function contentOf(stored: unknown): proto.IMessage {
  return proto.Message.fromObject(stored as object);
}

/** Sent messages in the table, as sealed channel records of the connection. */
export function tableSentStore(ports: Pick<Ports, 'table' | 'vault'>): SentStore {
  return {
    async put(connection, message) {
      if (!message.key.id || !message.message) return;
      await putChannelRecord(ports.table, at(connection, message.key.id), await seal(ports, message.message), { ttlSeconds: sentTtlSeconds });
    },
    async get(connection, id) {
      const stored = await unseal<object>(ports, await getChannelRecord<SealedRecord>(ports.table, at(connection, id)));
      return stored ? contentOf(stored) : undefined;
    },
  };
}
