/**
 * Stream consumer: the reports' daily rollups (ADR-0234). The conversation events
 * a batch wrote name their (account, local day)s; each is computed again from its day's events, so
 * a redelivered batch or events out of order leave the same rollups.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { ConversationEventItem } from '#db/conversation-timers.ts';
import { entityTypes } from '#db/keys.ts';
import { rollUpEventDays } from '#domain/reports/report-rollups.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const events = event.Records.map((record) => imagesOf(record).next).filter((next) => next?.type === entityTypes.conversationEvent);
  await rollUpEventDays(defaultPorts(), events as unknown as ConversationEventItem[]);
}
