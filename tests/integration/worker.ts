/**
 * The tests' stand-in for the channel worker: the same domain calls a connector makes (status
 * changes, inbound messages, acks), made from the test process against the runtime's table and
 * bucket, as the worker process does in the cloud.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { ulid } from 'ulid';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import type { Ports } from '../../shared/domain/ports.ts';
import { channelRegistry } from '../../shared/domain/channels/registry.ts';
import { keys } from '../../shared/db/keys.ts';
import { aesVault } from '../../functions/lib/aes-vault.ts';
import { jwtTokens } from '../../functions/lib/jwt-tokens.ts';
import { outboxMailer } from '../../functions/lib/outbox-mailer.ts';
import { s3Storage } from '../../functions/lib/s3-storage.ts';
import { scryptPasswords } from '../../functions/lib/scrypt-passwords.ts';
import type { ServiceStatus } from '../../shared/contracts/services.ts';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let ports: Ports | undefined;

export function workerPorts(): Ports {
  if (!ports) {
    const secret = (file: string) => async () => new TextEncoder().encode(readFileSync(join(inject('dataDir'), file), 'utf8').trim());
    ports = {
      table: {
        name: inject('tableName'),
        doc: DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: inject('dynamoUrl'), region: 'us-east-1', credentials }), {
          marshallOptions: { removeUndefinedValues: true },
        }),
      },
      storage: s3Storage(
        inject('bucketName'),
        new S3Client({
          endpoint: inject('s3Url'),
          region: 'us-east-1',
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
          forcePathStyle: true,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }),
      ),
      vault: aesVault(secret('data-key')),
      tokens: jwtTokens(secret('jwt-secret')),
      passwords: scryptPasswords(),
      mailer: outboxMailer(inject('outboxDir')),
      channels: channelRegistry([]),
      clock: () => new Date(),
      newId: (at) => ulid(at),
      appUrl: inject('baseUrl'),
    };
  }
  return ports;
}

/** Sets a connection's status, as the worker does when a channel connects or drops. */
export async function setServiceStatus(accountId: string, serviceId: string, status: ServiceStatus): Promise<void> {
  const { table } = workerPorts();
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.service(accountId, serviceId),
      UpdateExpression: 'SET #status = :status, updatedAt = :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':now': new Date().toISOString() },
    }),
  );
}

export const fakeChannel = {
  async sent(): Promise<any[]> {
    return (await fetch(`${inject('fakeChannelUrl')}/sent`)).json() as Promise<any[]>;
  },
  async script(answers: unknown[]): Promise<void> {
    await fetch(`${inject('fakeChannelUrl')}/script`, { method: 'POST', body: JSON.stringify(answers) });
  },
};

/** Waits until `check` answers something truthy (polling), or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
