/**
 * What the Telegram adapter keeps for itself: the webhook of a connection (found by the connection
 * id alone, since the webhook URL carries only it), the getUpdates offset of a polled connection,
 * and which updates were handled. Stored through the channel records every adapter shares.
 */
import type { UserFromGetMe } from 'grammy/types';
import type { Table } from '#db/client.ts';
import { deleteChannelRecord, getChannelRecord, putChannelRecord, type RecordAddress } from '#db/channel-records.ts';

const channel = 'telegram';

/** The registered webhook of a connection: which account it belongs to and its sealed secret. */
export interface TelegramHook {
  accountId: string;
  serviceId: string;
  secretSealed: string;
  /** The bot as getMe described it at start, so deliveries need no getMe of their own. */
  botInfo: UserFromGetMe;
  createdAt: string;
}

const hookAt = (serviceId: string): RecordAddress => ({ scope: 'global', channel, kind: 'HOOK', id: serviceId });
const offsetAt = (accountId: string, serviceId: string): RecordAddress => ({ scope: 'connection', accountId, serviceId, channel, kind: 'OFFSET' });

export const putHook = (table: Table, hook: TelegramHook) => putChannelRecord(table, hookAt(hook.serviceId), hook);
export const getHook = (table: Table, serviceId: string) => getChannelRecord<TelegramHook>(table, hookAt(serviceId));
export const deleteHook = (table: Table, serviceId: string) => deleteChannelRecord(table, hookAt(serviceId));

/** The getUpdates offset a polled connection continues from (0 when none is stored). */
export async function getOffset(table: Table, accountId: string, serviceId: string): Promise<number> {
  const record = await getChannelRecord<{ offset?: number }>(table, offsetAt(accountId, serviceId));
  return typeof record?.offset === 'number' ? record.offset : 0;
}

export const putOffset = (table: Table, accountId: string, serviceId: string, offset: number) =>
  putChannelRecord(table, offsetAt(accountId, serviceId), { offset });
export const deleteOffset = (table: Table, accountId: string, serviceId: string) => deleteChannelRecord(table, offsetAt(accountId, serviceId));

const updateAt = (accountId: string, serviceId: string, updateId: number): RecordAddress => ({
  scope: 'connection',
  accountId,
  serviceId,
  channel,
  kind: 'UPDATE',
  id: String(updateId),
});

/** Kept longer than Telegram redelivers an update. */
const updateRetentionSeconds = 7 * 24 * 60 * 60;

/**
 * Updates already handled (Telegram redelivers on failure), kept under their connection so that
 * deleting the connection's account removes them with it.
 */
export const wasUpdateHandled = async (table: Table, accountId: string, serviceId: string, updateId: number) =>
  Boolean(await getChannelRecord(table, updateAt(accountId, serviceId, updateId)));
export const markUpdateHandled = (table: Table, accountId: string, serviceId: string, updateId: number, now: Date) =>
  putChannelRecord(table, updateAt(accountId, serviceId, updateId), { handledAt: now.toISOString() }, { now, ttlSeconds: updateRetentionSeconds });
