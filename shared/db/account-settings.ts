/**
 * The account's settings documents (business hours, and the automations' settings next), one item
 * each in the account's partition, beside the account item rather than on it: the account item is
 * read on every request, a settings document only by the screens and automations that use it. The
 * account's purge removes them with its partition.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { type AccountSettingName, entityTypes, keys } from './keys.ts';

export interface AccountSettingItem<T> {
  pk: string;
  sk: string;
  type: typeof entityTypes.accountSetting;
  accountId: string;
  name: AccountSettingName;
  value: T;
  updatedAt: string;
  /** Who saved it last. */
  updatedBy: string;
}

export async function getAccountSetting<T>(table: Table, accountId: string, name: AccountSettingName): Promise<AccountSettingItem<T> | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.accountSetting(accountId, name) }));
  return Item as AccountSettingItem<T> | undefined;
}

/** Replaces the document whole (a settings screen saves all of it at once). */
export async function putAccountSetting<T>(
  table: Table,
  accountId: string,
  name: AccountSettingName,
  value: T,
  by: { userId: string; now: string },
): Promise<AccountSettingItem<T>> {
  const item: AccountSettingItem<T> = {
    ...keys.accountSetting(accountId, name),
    type: entityTypes.accountSetting,
    accountId,
    name,
    value,
    updatedAt: by.now,
    updatedBy: by.userId,
  };
  await table.doc.send(new PutCommand({ TableName: table.name, Item: item }));
  return item;
}
