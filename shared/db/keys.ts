/**
 * The one module that owns every key format of the table. No other file writes a key prefix.
 * See ACCESS_PATTERNS.md beside this file for the patterns these keys serve.
 */

export type Key = { pk: string; sk: string };

const ACCOUNT = 'ACCOUNT#';
const USER = 'USER#';

export const entityTypes = {
  account: 'Account',
  user: 'User',
  userEmail: 'UserEmail',
  code: 'Code',
  revokedToken: 'RevokedToken',
  rate: 'RateCounter',
  wsConnection: 'WsConnection',
} as const;
export type EntityType = (typeof entityTypes)[keyof typeof entityTypes];

export const keys = {
  account: (accountId: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: 'ACCOUNT' }),

  /** A user lives in its account's partition; before it has an account, in a partition of its own. */
  user: (accountId: string | null, userId: string): Key => ({
    pk: accountId ? `${ACCOUNT}${accountId}` : `${USER}${userId}`,
    sk: `${USER}${userId}`,
  }),
  /** Query prefix for the users of an account. */
  accountUsers: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}`, skPrefix: USER }),
  /** gsi1: every user that has an e-mail, across accounts (login, reset). */
  userByEmail: (email: string, userId: string) => ({ gsi1pk: `EMAIL#${email}`, gsi1sk: `${USER}${userId}` }),
  usersByEmail: (email: string) => ({ gsi1pk: `EMAIL#${email}` }),
  /** gsi2: a user by id, wherever it lives. */
  userById: (userId: string) => ({ gsi2pk: `${USER}${userId}`, gsi2sk: 'USER' }),

  /** Uniqueness guard: one user per e-mail inside an account. */
  userEmail: (accountId: string, email: string): Key => ({ pk: `${ACCOUNT}${accountId}`, sk: `USEREMAIL#${email}` }),

  /** One-time codes: e-mail verification per user, password reset per e-mail. */
  verifyCode: (userId: string): Key => ({ pk: `${USER}${userId}`, sk: 'CODE#VERIFY' }),
  resetCode: (email: string): Key => ({ pk: `EMAIL#${email}`, sk: 'CODE#RESET' }),

  /** Revoked access tokens, kept until they would have expired. */
  revokedToken: (jti: string): Key => ({ pk: `TOKEN#${jti}`, sk: 'REVOKED' }),

  /** Realtime connections of an account (fan-out), and each connection's own pointer (disconnect). */
  accountConnection: (accountId: string, connectionId: string): Key => ({ pk: `${ACCOUNT}${accountId}#WS`, sk: `CONN#${connectionId}` }),
  accountConnections: (accountId: string) => ({ pk: `${ACCOUNT}${accountId}#WS`, skPrefix: 'CONN#' }),
  connection: (connectionId: string): Key => ({ pk: `WSCONN#${connectionId}`, sk: 'CONN' }),

  /** Fixed-window rate counters. */
  rate: (scope: string, subject: string, windowStart: number): Key => ({
    pk: `RATE#${scope}#${subject}`,
    sk: `W#${windowStart}`,
  }),
} as const;

/** The account id in an account partition key, or null. */
export function accountIdOf(pk: string): string | null {
  return pk.startsWith(ACCOUNT) ? (pk.slice(ACCOUNT.length).split('#')[0] ?? null) : null;
}

/** Strips the key and index attributes of a stored item. */
export function withoutKeys<T extends Record<string, unknown>>(item: T): Omit<T, 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk' | 'ttl' | 'type'> {
  const { pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, ttl, type, ...rest } = item;
  void pk; void sk; void gsi1pk; void gsi1sk; void gsi2pk; void gsi2sk; void ttl; void type;
  return rest;
}
