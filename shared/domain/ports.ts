/** The outside world as the business rules see it. Handlers pass real ones; tests pass local ones. */
import type { Table } from '#db/client.ts';

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

export interface Ports {
  table: Table;
  mailer: Mailer;
  tokens: TokenService;
  passwords: PasswordHasher;
  clock: () => Date;
  newId: () => string;
  /** Where the web app lives, for links in e-mails. */
  appUrl: string;
}
