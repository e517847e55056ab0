/** Uploaded file records; the bytes live in the bucket. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { MessageType } from '#contracts/messages.ts';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';

export interface FileItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.file;
  id: string;
  accountId: string;
  serviceId: string;
  name: string;
  mimetype: string;
  size: number;
  messageType: MessageType;
  isPtt: boolean;
  objectKey: string;
  createdAt: string;
}

export type FileFields = Omit<FileItem, 'pk' | 'sk' | 'type'>;

/** Stores a file record; answers the stored item. */
export async function putFile(table: Table, fields: FileFields): Promise<FileItem> {
  const item: FileItem = { ...keys.file(fields.accountId, fields.id), type: entityTypes.file, ...fields };
  await table.doc.send(new PutCommand({ TableName: table.name, Item: item }));
  return item;
}

export async function getFileItem(table: Table, accountId: string, fileId: string): Promise<FileItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.file(accountId, fileId) }));
  return Item as FileItem | undefined;
}
