/**
 * What every call with an API token goes through (ADR-0232): the token's rate limit
 * (`apiTokenLimit`, a sliding window: 120 calls in any 60 s), then the route's scope; and, whatever
 * it answered, an audit record of the call.
 */
import type { ApiTokenScope } from '#contracts/api-tokens.ts';
import { errorTexts } from '#contracts/errors.ts';
import { type ApiTokenCallItem, putApiTokenCall } from '#db/api-tokens.ts';
import { roomAt, takeHit } from '#db/rate-counters.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { Limit } from '../auth/rate-limits.ts';

export const apiTokenLimit: Limit = { scope: 'api-token', max: 120, windowSeconds: 60 };

/**
 * Takes the call's unit of the token's budget (429 with the seconds until there is room again when
 * spent), then refuses (403) a route without a token scope, or one the token does not hold.
 */
export async function admitApiTokenCall(ports: Ports, token: { id: string; scopes: ApiTokenScope[] }, routeScope: ApiTokenScope | undefined): Promise<void> {
  const now = ports.clock().getTime();
  if ((await takeHit(ports.table, apiTokenLimit.scope, token.id, apiTokenLimit, now)) === undefined) {
    const room = await roomAt(ports.table, apiTokenLimit.scope, token.id, apiTokenLimit, now);
    throw fail.tooMany(errorTexts.apiTokenRateLimited, Math.max(1, Math.ceil((room - now) / 1000)));
  }
  if (!routeScope) throw fail.forbidden(errorTexts.apiTokenRouteRefused);
  if (!token.scopes.includes(routeScope)) throw fail.forbidden(errorTexts.apiTokenScopeMissing);
}

/** Records one call made with a token (route as the route list names it, `GET /contacts/{id}`). */
export async function auditApiTokenCall(ports: Ports, accountId: string, call: Omit<ApiTokenCallItem, 'at'>): Promise<void> {
  const now = ports.clock();
  await putApiTokenCall(ports.table, accountId, ports.newId(now.getTime()), { ...call, at: now.toISOString() });
}
