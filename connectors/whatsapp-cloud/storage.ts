/**
 * What the Cloud API adapter keeps for itself: which running connections use each WhatsApp
 * Business Account's webhook subscription. One subscription (`subscribed_apps`) serves every
 * number of a WABA, so stopping one connection unsubscribes the app only when no other connection
 * on the same WABA still runs. A string set in one channel record, changed atomically (ADD/DELETE).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from '#db/client.ts';
import { isConditionFailure } from '#db/conditions.ts';
import { entityTypes, keys } from '#db/keys.ts';

export const cloudChannel = 'whatsapp_cloud';

const wabaKey = (wabaId: string) => keys.channelRecord(cloudChannel, 'WABA', wabaId);

/** Records that this connection uses the WABA's subscription. */
export async function addWabaSubscriber(table: Table, wabaId: string, serviceId: string, now: Date): Promise<void> {
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: wabaKey(wabaId),
      UpdateExpression: 'ADD subscribers :me SET #type = :type, updatedAt = :now',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':me': new Set([serviceId]), ':type': entityTypes.channelRecord, ':now': now.toISOString() },
    }),
  );
}

/** Forgets this connection's use of the WABA's subscription; answers how many connections still use it. */
export async function removeWabaSubscriber(table: Table, wabaId: string, serviceId: string): Promise<number> {
  try {
    const { Attributes } = await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: wabaKey(wabaId),
        UpdateExpression: 'DELETE subscribers :me',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':me': new Set([serviceId]) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const left = Attributes?.subscribers as Set<string> | undefined;
    return left?.size ?? 0;
  } catch (error) {
    if (isConditionFailure(error)) return 0;
    throw error;
  }
}
