/** Stream consumer: hands each message stored with ack 0 to its channel (the outbox is the table). */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { MessageItem } from '#db/messages.ts';
import { dispatchMessage, needsDispatch } from '#domain/messages/dispatch.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const ports = defaultPorts();
  const due = event.Records.map(imagesOf)
    .filter(({ next, previous }) => needsDispatch(next as MessageItem | undefined, previous as MessageItem | undefined))
    .map(({ next }) => next as unknown as MessageItem);
  await Promise.all(due.map((message) => dispatchMessage(ports, message)));
}
