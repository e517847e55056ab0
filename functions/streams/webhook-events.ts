/**
 * Stream consumer: webhook events from the table's changes (shared/domain/webhooks/webhook-events.ts,
 * ADR-0233). Messages, contacts, deletion tombstones and campaigns become
 * deliveries for the accounts whose subscriptions take them; a subscription's own change refreshes
 * the account's cached subscriptions. Idempotent: a delivery's key is made from the stream record.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { subscriptionCache } from '#domain/webhooks/subscription-cache.ts';
import { enqueueWebhookEvents, type TableChange } from '#domain/webhooks/webhook-events.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

/** Kept across calls of this process: an account's subscriptions are read once a while, not per record. */
const cache = subscriptionCache();

export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const changes: TableChange[] = event.Records.map((record) => {
    const { change, next, previous } = imagesOf(record);
    const keys = record.dynamodb?.Keys;
    return {
      recordId: `${record.eventID}|${keys?.pk?.S}|${keys?.sk?.S}|${record.dynamodb?.SequenceNumber}`,
      change,
      next,
      previous,
      at: (record.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000,
    };
  });
  await enqueueWebhookEvents(defaultPorts(), cache, changes);
}
