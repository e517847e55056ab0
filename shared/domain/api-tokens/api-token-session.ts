/**
 * The session behind an API token's secret (ADR-0232): it acts as the admin who created
 * the token, restricted to the token's scopes. Refused (401) when the secret is unknown or revoked
 * (its lookup item is gone), the token expired, or its creator is gone, archived or no longer an
 * admin (a token never holds more than its creator could do now). A password reset of the creator
 * does not end it: a token is not a sign-in session.
 */
import { apiTokenPrefix } from '#contracts/api-tokens.ts';
import { apiTokenDigest, apiTokenSessionItems, findApiTokenLookup, touchApiToken } from '#db/api-tokens.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

/** A token's last use is written at most this often (not on every call). */
const lastUseEveryMs = 60_000;

/** Whether a bearer is an API token's secret (rather than a session's access token). */
export const isApiTokenSecret = (bearer: string) => bearer.startsWith(apiTokenPrefix);

export type ApiTokenSession = AccountSession & Required<Pick<AccountSession, 'apiToken'>>;

export async function apiTokenSession(ports: Ports, secret: string): Promise<ApiTokenSession> {
  const lookup = await findApiTokenLookup(ports.table, apiTokenDigest(secret));
  if (!lookup) throw fail.unauthorized();
  const { token, creator } = await apiTokenSessionItems(ports.table, lookup);
  const now = ports.clock();
  if (!token || token.revokedAt || (token.expiresAt && Date.parse(token.expiresAt) <= now.getTime())) throw fail.unauthorized();
  if (!creator || creator.archivedAt || !creator.isAdmin) throw fail.unauthorized();
  if (!token.lastUsedAt || Date.parse(token.lastUsedAt) <= now.getTime() - lastUseEveryMs) {
    await touchApiToken(ports.table, token.accountId, token.id, now.toISOString(), new Date(now.getTime() - lastUseEveryMs).toISOString());
  }
  const expiresAt = token.expiresAt ? Math.floor(Date.parse(token.expiresAt) / 1000) : Math.floor(now.getTime() / 1000) + 3600;
  return {
    // Claims in the shape of a session token's, for code that logs or reads them; `jti` names the API token.
    claims: { sub: creator.id, acc: token.accountId, jti: `api-token#${token.id}`, exp: expiresAt, gen: creator.sessionGeneration ?? 0 },
    user: creator,
    accountId: token.accountId,
    apiToken: { id: token.id, scopes: token.scopes },
  };
}
