/**
 * Stream consumer: runs the next step of a deleted contact's purge (its messages, files and avatar)
 * for every change of its tombstone while the purge lasts (shared/domain/contacts/contact-purge.ts).
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { runContactPurgeStep } from '#domain/contacts/contact-purge.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  const ports = defaultPorts();
  const contacts = new Map<string, { accountId: string; contactId: string }>();
  for (const record of event.Records) {
    const next = imagesOf(record).next;
    if (typeof next?.accountId === 'string' && typeof next.id === 'string')
      contacts.set(`${next.accountId}#${next.id}`, { accountId: next.accountId, contactId: next.id });
  }
  for (const { accountId, contactId } of contacts.values()) await runContactPurgeStep(ports, accountId, contactId);
});
