/**
 * The real ports, built once per process from configuration: the composition root of the
 * functions. The mail port depends on configuration (an outbox folder where MAIL_OUTBOX_DIR is
 * set, the local runtime; SES otherwise). The channel adapters are the product's own
 * (`./channels.ts`) unless the process that hosts the functions chose others first
 * (`installChannels`: the channel worker's process and the local runtime install the worker's
 * adapters, which hold sessions; tests hand doubles).
 */
import { sortableId } from './sortable-ids.ts';
import { defaultTable } from '#db/client.ts';
import type { Ports } from '#domain/ports.ts';
import { jwtTokens } from './jwt-tokens.ts';
import { outboxMailer } from './outbox-mailer.ts';
import { scryptPasswords } from './scrypt-passwords.ts';
import { sesMailer } from './ses-mailer.ts';
import { secretBytes, signingSecret } from './signing-secret.ts';
import { aesVault } from './aes-vault.ts';
import { s3Storage } from './s3-storage.ts';
import { channelRegistry } from '#domain/channels/registry.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { productChannels } from './channels.ts';
import { stripeBilling } from './stripe-billing.ts';
import { sqsWorkerQueue } from './sqs-worker-queue.ts';
import { traced } from './observability.ts';
import { createSafeWebhookSender } from './safe-webhook-sender.ts';

let ports: Ports | undefined;
let channels: readonly ChannelAdapter[] = productChannels;

/** Sets the channel adapters of this process; only before the ports are first built. */
export function installChannels(adapters: readonly ChannelAdapter[]): void {
  if (ports) throw new Error('installChannels must be called before the ports are built');
  channels = adapters;
}

export function defaultPorts(): Ports {
  ports ??= {
    table: defaultTable(traced),
    mailer: process.env.MAIL_OUTBOX_DIR ? outboxMailer(process.env.MAIL_OUTBOX_DIR) : sesMailer(process.env.MAIL_FROM ?? 'nao-responda@example.com'),
    tokens: jwtTokens(signingSecret),
    passwords: scryptPasswords(),
    vault: aesVault(() => secretBytes('DATA_KEY')),
    storage: s3Storage(process.env.BUCKET_NAME ?? 'conversa-media'),
    channels: channelRegistry(channels),
    billing: stripeBilling(),
    workerQueue: sqsWorkerQueue(),
    // Loopback only where the local runtime is started with WEBHOOKS_ALLOW_LOOPBACK=1 (tests' receivers on 127.0.0.1); the cloud stack never sets it.
    webhooks: createSafeWebhookSender({ allowLoopback: process.env.WEBHOOKS_ALLOW_LOOPBACK === '1' }),
    clock: () => new Date(),
    newId: (at) => sortableId(at),
    appUrl: process.env.APP_URL ?? 'http://localhost:3000',
  };
  return ports;
}
