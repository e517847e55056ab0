/** The outside world as the business rules see it. Handlers pass real ones; tests pass local ones. */
import type { Table } from '#db/client.ts';
import type { Channels } from './channels/registry.ts';
import type { WorkerQueue } from './channels/worker-commands.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one-time code the mail carries, if any (the local outbox keeps it for tests and newcomers). */
  code?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface TokenClaims {
  sub: string;
  acc: string | null;
  jti: string;
  exp: number;
}

export interface TokenService {
  issue(userId: string, accountId: string | null): Promise<{ token: string; claims: TokenClaims }>;
  /** The claims of a well-signed, unexpired token, or null. */
  verify(token: string): Promise<TokenClaims | null>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

/** Encrypts secrets kept in the table (channel tokens). */
export interface Vault {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

/** The media bucket. Keys are always built by `fileObjectKey`, under the account. */
export interface Storage {
  /** A URL the browser PUTs the bytes to, bound to the content type and length. */
  uploadUrl(key: string, mimetype: string, length: number): Promise<string>;
  /** A short-lived URL to read an object. */
  downloadUrl(key: string, filename: string): Promise<string>;
  put(key: string, bytes: Uint8Array, mimetype: string): Promise<void>;
  /** Size and type of a stored object, or null when there is none. */
  head(key: string): Promise<{ size: number; mimetype: string | null } | null>;
  get(key: string): Promise<Uint8Array>;
}

export interface Ports {
  table: Table;
  mailer: Mailer;
  tokens: TokenService;
  passwords: PasswordHasher;
  vault: Vault;
  storage: Storage;
  /** The channel adapters (Telegram, WhatsApp), registered at the composition root. */
  channels: Channels;
  /** The channel worker's queue: what must run where a connection's session is (sends of some channels, logouts). */
  workerQueue: WorkerQueue;
  clock: () => Date;
  /** A new ULID; `at` (epoch ms) stamps it with another moment than now. */
  newId: (at?: number) => string;
  /** Where the web app lives, for links in e-mails. */
  appUrl: string;
}
