/**
 * Stream consumer: runs the next step of an account's purge for every change of its job item
 * (shared/domain/accounts/account-deletion.ts). Each step changes the item again, which brings the
 * step after it here, until the job is done and its item removed.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { runDeletionStep } from '#domain/accounts/account-deletion.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  const ports = defaultPorts();
  const accounts = new Set<string>();
  for (const record of event.Records) {
    const accountId = imagesOf(record).next?.accountId;
    if (typeof accountId === 'string') accounts.add(accountId);
  }
  // A failure retries the batch; every step deletes only what is still there.
  for (const accountId of accounts) await runDeletionStep(ports, accountId);
});
