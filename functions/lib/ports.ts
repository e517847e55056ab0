/**
 * The real ports, built once per process from configuration. The mail port is the only one whose
 * kind depends on configuration: an outbox folder where MAIL_OUTBOX_DIR is set (local runtime),
 * SES otherwise.
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

let ports: Ports | undefined;

export function defaultPorts(): Ports {
  ports ??= {
    table: defaultTable(),
    mailer: process.env.MAIL_OUTBOX_DIR
      ? outboxMailer(process.env.MAIL_OUTBOX_DIR)
      : sesMailer(process.env.MAIL_FROM ?? 'nao-responda@example.com'),
    tokens: jwtTokens(signingSecret),
    passwords: scryptPasswords(),
    vault: aesVault(() => secretBytes('DATA_KEY')),
    storage: s3Storage(process.env.BUCKET_NAME ?? 'conversa-media'),
    clock: () => new Date(),
    newId: (at) => sortableId(at),
    appUrl: process.env.APP_URL ?? 'http://localhost:3000',
  };
  return ports;
}
