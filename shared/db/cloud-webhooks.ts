/**
 * The webhook of a WhatsApp (API oficial) connection, found by the connection id alone (the
 * callback URL `/api/webhooks/whatsapp-cloud/{serviceId}` carries only it): which account holds
 * the connection, and the verify token Meta's `GET` handshake must bring. Written with the
 * connection and deleted with it (see the draft ADR whatsapp-cloud-webhook-route).
 */
import type { Table } from './client.ts';
import { getChannelRecord } from './channel-records.ts';
import { entityTypes, keys } from './keys.ts';
import type { DeleteStep, PutStep } from './transaction.ts';

const channel = 'whatsapp_cloud';
const kind = 'HOOK';

export interface CloudWebhook {
  accountId: string;
  serviceId: string;
  verifyToken: string;
}

export const cloudWebhookKey = (serviceId: string) => keys.channelRecord(channel, kind, serviceId);

/** The record's put, in the transaction that creates the connection. */
export function putCloudWebhookStep(hook: CloudWebhook, now: string): PutStep {
  return {
    Put: {
      Item: { ...cloudWebhookKey(hook.serviceId), type: entityTypes.channelRecord, data: hook, updatedAt: now },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The record's delete, in the transaction that deletes the connection. */
export function deleteCloudWebhookStep(serviceId: string): DeleteStep {
  return { Delete: { Key: cloudWebhookKey(serviceId) } };
}

export const getCloudWebhook = (table: Table, serviceId: string) => getChannelRecord<CloudWebhook>(table, { scope: 'global', channel, kind, id: serviceId });
