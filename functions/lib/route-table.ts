/**
 * One function serving several routes of `functions/http/routes.ts`: API Gateway names the route it
 * matched (`event.routeKey`, `POST /api/auth/login`) and the table gives that route's handler, the
 * same module a per-route function would run (ADR-0202).
 * The tables are generated from the route list when the stack is built
 * (`infra/constructs/http-function-groups.ts`), never written by hand.
 *
 * The table is also this process's way to run a route in process: the read batch
 * (`functions/lib/read-batch.ts`) hands each of its GETs to `dispatchInProcess`, which runs the
 * handler the table gives for that route key. The local runtime, which loads each route's module
 * by path instead of a generated table, registers its own dispatcher the same way
 * (`serveRoutesInProcess`).
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { fail } from '#domain/errors.ts';
import { errorResponse } from './render-error.ts';
import type { HttpResult } from './responses.ts';

type RouteHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>;

/** Runs the handler of the route named by `event.routeKey` in this process. */
export type RouteDispatcher = RouteHandler;

let dispatcher: RouteDispatcher | undefined;

/** Makes `dispatch` the way this process runs a route in process (the read batch's sub-requests). */
export function serveRoutesInProcess(dispatch: RouteDispatcher): void {
  dispatcher = dispatch;
}

/**
 * Runs the route `event.routeKey` names with this process's table; a route this process does not
 * serve answers the catalogue's 404, as the table does.
 */
export function dispatchInProcess(event: APIGatewayProxyEventV2, context: Context): Promise<HttpResult> {
  if (!dispatcher) return Promise.reject(new Error('No route table in this process'));
  return dispatcher(event, context);
}

/**
 * A handler that runs the handler of the route API Gateway matched; a route not in the table is a
 * 404 (a stack wired wrong). The table becomes the process's in-process dispatcher too.
 */
export function routeTable(table: Readonly<Record<string, RouteHandler>>): RouteHandler {
  const handler: RouteHandler = (event, context) => {
    const route = Object.hasOwn(table, event.routeKey) ? table[event.routeKey] : undefined;
    return route ? route(event, context) : Promise.resolve(errorResponse(fail.notFound()));
  };
  serveRoutesInProcess(handler);
  return handler;
}
