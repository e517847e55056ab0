/**
 * Stream consumer: runs the next step of an export of an account's data for every change of its
 * item while it runs (shared/domain/accounts/account-export.ts).
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { runExportStep } from '#domain/accounts/account-export.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { imagesOf } from './stream-images.ts';

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  const ports = defaultPorts();
  const exports = new Map<string, { accountId: string; id: string }>();
  for (const record of event.Records) {
    const next = imagesOf(record).next;
    if (typeof next?.accountId === 'string' && typeof next.id === 'string')
      exports.set(`${next.accountId}#${next.id}`, { accountId: next.accountId, id: next.id });
  }
  for (const { accountId, id } of exports.values()) await runExportStep(ports, accountId, id);
});
