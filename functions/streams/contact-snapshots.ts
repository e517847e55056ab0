/**
 * Stream consumer: keeps each account's contact snapshot in the bucket current enough (ADR-0058),
 * so a cold process loads the directory in one GET plus the changes since. Its own directory view
 * follows the change index like any other; a cold consumer starts from the snapshot too. A snapshot
 * is written again once the changes since it are worth it, or an hour after the first of them, and
 * at most every 10 s per account (snapshot-rewrites.ts, ADR-0239): what is not written yet stays in
 * the change index, which every cold directory reads from the snapshot's position on.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { refreshContactSnapshot } from '#domain/contacts/contacts.ts';
import { SnapshotRewrites } from '#domain/contacts/snapshot-rewrites.ts';
import { contactDirectory } from '#domain/contacts/contact-directory.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

const rewrites = new SnapshotRewrites();

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  const ports = defaultPorts();
  const changes = new Map<string, number>();
  for (const record of event.Records) {
    const { next, previous } = imagesOf(record);
    const accountId = (next ?? previous)?.accountId;
    if (typeof accountId === 'string') changes.set(accountId, (changes.get(accountId) ?? 0) + 1);
  }
  for (const [accountId, count] of changes) {
    if (!rewrites.note(accountId, count)) continue;
    if (await refreshContactSnapshot(ports, accountId, contactDirectory, (contacts) => rewrites.due(accountId, contacts))) rewrites.written(accountId);
  }
});
