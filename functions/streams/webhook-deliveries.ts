/**
 * Stream consumer: the first attempt of every new webhook delivery, as soon as it is written
 * (shared/domain/webhooks/deliver-webhooks.ts, ADR-0233); a failure leaves it
 * due for the minute poller's retries (functions/schedules/deliver-webhooks.ts). Ten at a time.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { WebhookDeliveryItem } from '#db/webhooks.ts';
import { attemptWebhookDelivery } from '#domain/webhooks/deliver-webhooks.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const ports = defaultPorts();
  const deliveries = event.Records.flatMap((record) => {
    const { next } = imagesOf(record);
    return next ? [next as unknown as WebhookDeliveryItem] : [];
  });
  await Promise.all(deliveries.map((delivery) => attemptWebhookDelivery(ports, delivery)));
}
