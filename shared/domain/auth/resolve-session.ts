import { tokenSessionItems } from '#db/revocations.ts';
import { apiTokenSession, isApiTokenSecret } from '../api-tokens/api-token-session.ts';
import { fail } from '../errors.ts';
import type { Ports, TokenClaims } from '../ports.ts';
import type { Session } from '../session.ts';

/**
 * The session behind a bearer: an API token's (`apiTokenSession`), or a session token's, well
 * signed, unexpired, not revoked, its user present and active, and issued in the user's current
 * session generation (a password reset ends the older ones).
 * `whileChecking` is told a well-signed token's claims before its revocation and user are read, so
 * a caller can start reads of its own meanwhile; it must use nothing it reads unless this resolves.
 */
export async function resolveSession(ports: Ports, token: string | undefined, whileChecking?: (claims: TokenClaims) => void): Promise<Session> {
  if (!token) throw fail.unauthorized();
  if (isApiTokenSecret(token)) {
    // An API token (ADR-0232): its creator's session, within its scopes (the route checks them).
    const session = await apiTokenSession(ports, token);
    whileChecking?.(session.claims);
    return session;
  }
  const claims = await ports.tokens.verify(token);
  if (!claims) throw fail.unauthorized();
  whileChecking?.(claims);
  return liveSession(ports, claims);
}

/**
 * The session of claims already verified (a token's, or those a realtime ticket carries): refused
 * when revoked, when its user is gone or archived, or when its generation is not the user's.
 */
export async function liveSession(ports: Ports, claims: TokenClaims): Promise<Session> {
  const { revoked, user } = await tokenSessionItems(ports.table, { jti: claims.jti, accountId: claims.acc, userId: claims.sub });
  if (revoked || !user || user.archivedAt || (user.sessionGeneration ?? 0) !== claims.gen) throw fail.unauthorized();
  return { claims, user, accountId: claims.acc };
}
