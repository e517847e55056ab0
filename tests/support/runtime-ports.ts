/**
 * Ports against a running local runtime's table, bucket and secrets, for tests that act as a
 * worker process would (inbound messages, status changes) from outside the runtime's process.
 * No channel adapters: the tests hand theirs where they need one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localS3Client } from './local-bucket.ts';
import type { Ports } from '#domain/ports.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import { aesVault } from '#lib/aes-vault.ts';
import { jwtTokens } from '#lib/jwt-tokens.ts';
import { outboxMailer } from '#lib/outbox-mailer.ts';
import { s3Storage } from '#lib/s3-storage.ts';
import { scryptPasswords } from '#lib/scrypt-passwords.ts';
import { stripeBilling } from '#lib/stripe-billing.ts';
import { createSafeWebhookSender } from '#lib/safe-webhook-sender.ts';

export interface RuntimeAddress {
  url: string;
  dynamoUrl: string;
  tableName: string;
  s3Url: string;
  bucketName: string;
  dataDir: string;
  outboxDir: string;
}

export function runtimePorts(runtime: RuntimeAddress): Ports {
  const secret = (file: string) => async () => new TextEncoder().encode(readFileSync(join(runtime.dataDir, file), 'utf8').trim());
  return {
    table: {
      name: runtime.tableName,
      doc: DynamoDBDocumentClient.from(
        new DynamoDBClient({ endpoint: runtime.dynamoUrl, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
        { marshallOptions: { removeUndefinedValues: true } },
      ),
    },
    storage: s3Storage(runtime.bucketName, localS3Client(runtime.s3Url)),
    vault: aesVault(secret('data-key')),
    tokens: jwtTokens(secret('jwt-secret')),
    passwords: scryptPasswords(),
    mailer: outboxMailer(runtime.outboxDir),
    channels: channelRegistry([]),
    // Tests acting from outside the runtime make no payment calls.
    billing: stripeBilling(),
    workerQueue: {
      enqueue: async () => {
        throw new Error('these ports have no worker queue');
      },
    },
    // Tests acting from outside the runtime deliver to receivers on 127.0.0.1, as the runtime they drive does.
    webhooks: createSafeWebhookSender({ allowLoopback: true }),
    clock: () => new Date(),
    newId: (at) => ulid(at),
    appUrl: runtime.url,
  };
}
