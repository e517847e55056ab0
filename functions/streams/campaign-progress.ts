/**
 * Stream consumer: a campaign's live counts (shared/domain/campaigns/campaign-progress.ts, ADR-0227). Campaign messages whose acks moved count delivered, read or failed; contacts
 * that received a campaign count a reply or an opt-out that came after it. Each once per
 * recipient, so a redelivered batch adds nothing.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { ContactItem } from '#db/contacts.ts';
import { entityTypes } from '#db/keys.ts';
import type { MessageItem } from '#db/messages.ts';
import { countContactProgress, countMessageProgress } from '#domain/campaigns/campaign-progress.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const ports = defaultPorts();
  for (const record of event.Records) {
    const { next, previous } = imagesOf(record);
    if (next?.type === entityTypes.message) await countMessageProgress(ports, previous as MessageItem | undefined, next as unknown as MessageItem);
    else if (next?.type === entityTypes.contact) await countContactProgress(ports, previous as ContactItem | undefined, next as unknown as ContactItem);
  }
}
