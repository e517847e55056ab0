/** Connection (service) items. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Service, ServiceStatus, ServiceType } from '#contracts/services.ts';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';
import { queryAll } from './users.ts';

export interface ServiceItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.service;
  id: string;
  accountId: string;
  name: string;
  channelType: ServiceType;
  status: ServiceStatus;
  statusReason: string | null;
  qrCode: string | null;
  /** The Telegram bot token, sealed by the vault. */
  tokenSealed: string | null;
  /** The token's last four characters, to show which token is set. */
  tokenHint: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toService(item: ServiceItem): Service {
  return {
    id: item.id,
    name: item.name,
    type: item.channelType,
    status: item.status,
    connected: item.status === 'connected',
    data: { qrCode: item.qrCode ?? null },
    internalData: item.tokenHint ? { token: `${'•'.repeat(8)}${item.tokenHint}` } : {},
    statusReason: item.statusReason ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

export async function getServiceItem(table: Table, accountId: string, serviceId: string): Promise<ServiceItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.service(accountId, serviceId) }));
  return Item as ServiceItem | undefined;
}

export function accountServices(table: Table, accountId: string): Promise<ServiceItem[]> {
  const { pk, skPrefix } = keys.accountServices(accountId);
  return queryAll<ServiceItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
  });
}
