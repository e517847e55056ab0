/**
 * Stream consumer: keeps each account's contact snapshot in the bucket current (docs/decisions.md
 * "Contact snapshots"), so a cold process loads the directory in one GET plus the changes since.
 * Its own directory view follows the change index like any other; a cold consumer starts from the
 * snapshot too.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { refreshContactSnapshot } from '#domain/contacts/contacts.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  const ports = defaultPorts();
  const accounts = new Set<string>();
  for (const record of event.Records) {
    const { next, previous } = imagesOf(record);
    const accountId = (next ?? previous)?.accountId;
    if (typeof accountId === 'string') accounts.add(accountId);
  }
  for (const accountId of accounts) await refreshContactSnapshot(ports, accountId);
});
