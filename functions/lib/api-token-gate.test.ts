/**
 * The route's token scope comes from the route list alone (ADR-0232): found by the
 * route key API Gateway and the local gateway put in the event, for every route; nothing for a
 * route the list does not hold; and no route of sign-in, accounts, users, tokens or the realtime
 * ticket ever takes a token.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';
import { routeOf, tokenScopeOf } from './api-token-gate.ts';

const eventOf = (routeKey: string) => ({ routeKey }) as APIGatewayProxyEventV2;

describe('the token scope of a route', () => {
  it("is the route list's, read by the route key under /api", () => {
    for (const route of httpRoutes) {
      const event = eventOf(`${route.method} /api${route.path}`);
      expect(routeOf(event)).toBe(`${route.method} ${route.path}`);
      expect(tokenScopeOf(event), `${route.method} ${route.path}`).toBe(route.tokenScope);
    }
    expect(tokenScopeOf(eventOf('GET /api/contacts'))).toBe('contacts:read');
    expect(tokenScopeOf(eventOf('POST /api/messages/send'))).toBe('messages:send');
  });

  it('is none for a route the list does not hold, or an event without a route key', () => {
    expect(tokenScopeOf(eventOf('GET /api/contacts/{id}/secret'))).toBeUndefined();
    expect(tokenScopeOf(eventOf('PATCH /api/contacts'))).toBeUndefined();
    expect(tokenScopeOf({} as APIGatewayProxyEventV2)).toBeUndefined();
  });

  it('is never set on sign-in, account, user, token or realtime-ticket routes, nor on the read batch', () => {
    const closed = httpRoutes.filter((r) => r.tokenScope && /^(auth|accounts|users|api-tokens|payments)\/|^batch$/.test(r.handler));
    expect(closed.concat(httpRoutes.filter((r) => r.path === '/ws-ticket' && r.tokenScope))).toEqual([]);
  });
});
