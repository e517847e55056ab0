/** Access tokens: HS256 JWTs with the user (sub), the account (acc), a revocable id (jti) and the user's session generation (gen). */
import { jwtVerify, SignJWT } from 'jose';
import { ulid } from 'ulid';
import type { TokenClaims, TokenService } from '#domain/ports.ts';

export const tokenLifetimeSeconds = 7 * 24 * 60 * 60;
const issuer = 'conversa';

/**
 * Tokens already verified, with their claims: a session sends the same token with every request,
 * and checking its HMAC again (a key import and a thread-pool job each time) is per-request work
 * for an answer that cannot change; only the expiry can, and it is checked on every use. Revocation
 * and the session generation are the store's, checked per request by `resolveSession`.
 */
const verifiedKept = 5_000;

export function jwtTokens(secret: () => Promise<Uint8Array>, now: () => Date = () => new Date()): TokenService {
  const verified = new Map<string, TokenClaims>();
  return {
    async issue(userId, accountId, generation = 0) {
      const iat = Math.floor(now().getTime() / 1000);
      const claims: TokenClaims = { sub: userId, acc: accountId, jti: ulid(), exp: iat + tokenLifetimeSeconds, gen: generation };
      const token = await new SignJWT({ acc: accountId, gen: generation })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setJti(claims.jti)
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(claims.exp)
        .sign(await secret());
      return { token, claims };
    },
    async verify(token) {
      const known = verified.get(token);
      // As jose: a token expires at `exp`, in whole seconds.
      if (known) return known.exp > Math.floor(now().getTime() / 1000) ? known : null;
      try {
        const { payload } = await jwtVerify(token, await secret(), {
          algorithms: ['HS256'],
          issuer,
          currentDate: now(),
        });
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return null;
        const acc = payload.acc;
        if (acc !== null && typeof acc !== 'string') return null;
        const gen = payload.gen ?? 0;
        if (typeof gen !== 'number' || !Number.isSafeInteger(gen) || gen < 0) return null;
        const claims: TokenClaims = { sub: payload.sub, acc, jti: payload.jti, exp: payload.exp, gen };
        if (verified.size >= verifiedKept) verified.delete(verified.keys().next().value!);
        verified.set(token, claims);
        return claims;
      } catch {
        return null;
      }
    },
  };
}
