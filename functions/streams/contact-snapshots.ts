/**
 * Stream consumer: keeps each account's contact snapshot in the bucket current (ADR-0058), so a cold process loads the directory in one GET plus the changes since.
 * Its own directory view follows the change index like any other; a cold consumer starts from the
 * snapshot too. An account's snapshot is rewritten at most every `minRewriteMs` by one container: a
 * burst of writes (a send-heavy minute) costs a few re-encodings, and what a skipped batch changed
 * stays in the change index, which every cold directory reads from the snapshot's position on.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { refreshContactSnapshot } from '#domain/contacts/contacts.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

const minRewriteMs = 10_000;
const writtenAt = new Map<string, number>();

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  const ports = defaultPorts();
  const accounts = new Set<string>();
  for (const record of event.Records) {
    const { next, previous } = imagesOf(record);
    const accountId = (next ?? previous)?.accountId;
    if (typeof accountId === 'string') accounts.add(accountId);
  }
  // Only the accounts written within the window are remembered: the map stays as small as one window's writes.
  for (const [accountId, at] of writtenAt) if (Date.now() - at >= minRewriteMs) writtenAt.delete(accountId);
  for (const accountId of accounts) {
    const last = writtenAt.get(accountId);
    if (last !== undefined && Date.now() - last < minRewriteMs) continue;
    writtenAt.set(accountId, Date.now());
    await refreshContactSnapshot(ports, accountId);
  }
});
