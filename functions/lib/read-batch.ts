/**
 * The read batch (`POST /batch`, docs/api.md#read-batch, ADR-0209): each GET of a batch runs in this process
 * through the route's own handler, found by its route key as API Gateway would match it, with the
 * batch's headers (its session, its caller), so authentication, account scoping, validation and error
 * rendering are the route's own; its answer is what the route answers alone, as `{ status, body }`.
 *
 * A batch may only hold GETs of routes its own function serves in the stack's layout
 * (`infra/constructs/http-function-groups.ts`: never a payment or channel-control route, whose
 * rights this function does not have); anything else refuses the whole batch before any runs.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { type BatchAnswer, type BatchRequest, batchRefusalTexts } from '#contracts/batch.ts';
import { errorTexts } from '#contracts/errors.ts';
import { fail } from '#domain/errors.ts';
import { type HttpRoute, httpRoutes } from '#functions/http/routes.ts';
import { functionOf, stackLayout } from '../../infra/constructs/http-function-groups.ts';
import { dispatchInProcess } from './route-table.ts';
import type { HttpResult } from './responses.ts';

/** The batch route itself, as the route list has it. */
export const batchRoute: HttpRoute = httpRoutes.find((route) => route.handler === 'batch')!;

interface Compiled {
  route: HttpRoute;
  pattern: RegExp;
  names: string[];
}

/** The GET routes a batch may carry: those its own function serves. */
const batchable: Compiled[] = httpRoutes
  .filter((route) => route.method === 'GET' && functionOf(stackLayout, route) === functionOf(stackLayout, batchRoute))
  .map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, names, pattern: new RegExp(`^${source}$`) };
  });
/** Every GET route, to tell another function's route from no route. */
const allGets = httpRoutes.filter((route) => route.method === 'GET');

const pathPattern = (path: string) => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);

/** The route a GET path reaches (as the gateway matches it: the path normalised as a URL), or why it may not run here. */
function match(path: string): { route: HttpRoute; path: string; params: Record<string, string> } | { refused: string } {
  const normal = new URL(path, 'http://batch').pathname;
  for (const { route, pattern, names } of batchable) {
    const m = pattern.exec(normal);
    if (!m) continue;
    try {
      return { route, path: normal, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
    } catch {
      // A malformed escape: no route, as at the gateway.
    }
  }
  return { refused: allGets.some((route) => pathPattern(route.path).test(normal)) ? batchRefusalTexts.otherFunction : batchRefusalTexts.notARoute };
}

/** Headers of the batch that describe its own body or answer, not the caller: a GET has no body, and the batch compresses its answer once. */
const ownHeaders = new Set(['content-type', 'content-length', 'content-encoding', 'accept-encoding', 'transfer-encoding']);

/** The event API Gateway would have delivered for the GET alone, from the batch's event. */
function subEvent(
  event: APIGatewayProxyEventV2,
  index: number,
  prefix: string,
  target: { route: HttpRoute; path: string; params: Record<string, string> },
  query: Record<string, string> | undefined,
): APIGatewayProxyEventV2 {
  const routeKey = `GET ${prefix}${target.route.path}`;
  const rawPath = `${prefix}${target.path}`;
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).filter(([name]) => !ownHeaders.has(name.toLowerCase())));
  const queryParameters = query && Object.keys(query).length ? { ...query } : undefined;
  return {
    ...event,
    routeKey,
    rawPath,
    rawQueryString: queryParameters ? new URLSearchParams(queryParameters).toString() : '',
    headers,
    queryStringParameters: queryParameters,
    pathParameters: Object.keys(target.params).length ? target.params : undefined,
    body: undefined,
    isBase64Encoded: false,
    requestContext: {
      ...event.requestContext,
      routeKey,
      requestId: `${event.requestContext.requestId}-${index}`,
      http: { ...event.requestContext.http, method: 'GET', path: rawPath },
    },
  };
}

/** A route's result as a sub-answer: its status and its JSON body (null when it has none; text when it is not JSON). */
function answerOf(result: HttpResult | string | undefined): BatchAnswer {
  if (typeof result !== 'object' || result === null || !('statusCode' in result)) return { status: 200, body: result ?? null };
  const raw = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8').toString('utf8') : '';
  const type = Object.entries(result.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  let body: unknown = raw || null;
  if (raw && /^application\/json\b/i.test(String(type ?? ''))) body = JSON.parse(raw);
  return { status: result.statusCode ?? 200, body };
}

/**
 * Runs a batch's GETs side by side and answers each in order. A sub-request that is not a GET of a
 * route this function serves refuses the batch (400, `Invalid params`, its `details` naming each
 * refused `requests.<i>.path`) before any runs.
 */
export async function readBatch(event: APIGatewayProxyEventV2, context: Context, requests: readonly BatchRequest[]): Promise<BatchAnswer[]> {
  const prefix = event.routeKey.slice(event.routeKey.indexOf(' ') + 1, -batchRoute.path.length);
  const targets = requests.map((request) => match(request.path));
  const refused = targets.flatMap((target, i) => ('refused' in target ? [{ path: `requests.${i}.path`, message: target.refused }] : []));
  if (refused.length) throw fail.invalid(errorTexts.invalidParams, refused);
  return Promise.all(
    requests.map(async (request, i) => {
      const target = targets[i] as Exclude<(typeof targets)[number], { refused: string }>;
      try {
        return answerOf(await dispatchInProcess(subEvent(event, i, prefix, target, request.query), context));
      } catch {
        // What API Gateway answers when the function itself fails.
        return { status: 500, body: { message: 'Internal Server Error' } };
      }
    }),
  );
}
