/** Stream consumer: closes the realtime connections of sessions that a table change ended (shared/domain/realtime/close-sessions.ts). */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { closeEndedSessions, sessionsEndedBy } from '#domain/realtime/close-sessions.ts';
import { observed } from '#lib/observability.ts';
import { defaultPorts } from '#lib/ports.ts';
import { managementBroadcaster } from '#lib/ws-broadcaster.ts';
import { imagesOf } from './stream-images.ts';

const broadcaster = managementBroadcaster();

export const handler = observed(async (event: DynamoDBStreamEvent): Promise<void> => {
  const ended = event.Records.map((record) => {
    const { change, previous, next } = imagesOf(record);
    return sessionsEndedBy(change, previous, next);
  }).filter((e) => e !== null);
  if (ended.length) await closeEndedSessions(defaultPorts(), broadcaster, ended);
});
