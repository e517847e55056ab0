/**
 * The HTTP edge's side of API tokens (ADR-0232): the scope a route asks of a token,
 * read from the route list (functions/http/routes.ts, the one place that states it) by the route
 * API Gateway names in `event.routeKey`; and the audit of every call made with a token, written
 * once its answer (or rendered error) is known.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ApiTokenScope } from '#contracts/api-tokens.ts';
import { auditApiTokenCall } from '#domain/api-tokens/api-token-calls.ts';
import type { Ports } from '#domain/ports.ts';
import { httpRoutes } from '#functions/http/routes.ts';
import { logger } from './observability.ts';
import type { HttpResult } from './responses.ts';

const routesByKey = new Map(httpRoutes.map((route) => [`${route.method} ${route.path}`, route]));

/** The route list's key of an event's route (`GET /contacts/{id}`): API Gateway's route key without the `/api` mount. */
export function routeOf(event: APIGatewayProxyEventV2): string {
  const [method = '', path = ''] = (event.routeKey ?? '').split(' ');
  return `${method} ${path.replace(/^\/api(?=\/)/, '')}`;
}

/** The scope a token needs for the event's route; undefined (tokens refused) for a route without one, or unknown. */
export const tokenScopeOf = (event: APIGatewayProxyEventV2): ApiTokenScope | undefined => routesByKey.get(routeOf(event))?.tokenScope;

interface TokenCall {
  ports: Ports;
  accountId: string;
  tokenId: string;
  /** The caller's address as rate limits read it: the viewer's behind CloudFront, not an edge server's (caller-address.ts). */
  address: string;
}

const tokenCalls = new WeakMap<APIGatewayProxyEventV2, TokenCall>();

/** Marks the event as a call made with a token: its answer is audited. */
export function markTokenCall(event: APIGatewayProxyEventV2, call: TokenCall): void {
  tokenCalls.set(event, call);
}

/** The middleware: after the handler, and after an error has been rendered as an answer. */
export function auditTokenCalls(): MiddlewareObj<APIGatewayProxyEventV2, HttpResult> {
  const audit = async (request: { event: APIGatewayProxyEventV2; response: HttpResult | undefined | null }) => {
    const call = tokenCalls.get(request.event);
    if (!call) return;
    tokenCalls.delete(request.event);
    const [method = '', route = ''] = routeOf(request.event).split(' ');
    try {
      await auditApiTokenCall(call.ports, call.accountId, {
        tokenId: call.tokenId,
        method,
        route,
        status: request.response?.statusCode ?? 500,
        address: call.address,
      });
    } catch (error) {
      // The call has had its effect (a message may be on its way): a lost audit record is logged,
      // never turned into a failure the caller would retry.
      logger.error('API token call not audited', { tokenId: call.tokenId, method, route, error: error as Error });
    }
  };
  return { after: audit, onError: audit };
}
