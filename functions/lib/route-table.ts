/**
 * One function serving several routes of `functions/http/routes.ts`: API Gateway names the route it
 * matched (`event.routeKey`, `POST /api/auth/login`) and the table gives that route's handler, the
 * same module a per-route function would run (ADR-0202).
 * The tables are generated from the route list when the stack is built
 * (`infra/constructs/http-function-groups.ts`), never written by hand.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { fail } from '#domain/errors.ts';
import { errorResponse } from './render-error.ts';
import type { HttpResult } from './responses.ts';

type RouteHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>;

/** A handler that runs the handler of the route API Gateway matched; a route not in the table is a 404 (a stack wired wrong). */
export function routeTable(table: Readonly<Record<string, RouteHandler>>): RouteHandler {
  return (event, context) => {
    const handler = Object.hasOwn(table, event.routeKey) ? table[event.routeKey] : undefined;
    return handler ? handler(event, context) : Promise.resolve(errorResponse(fail.notFound()));
  };
}
