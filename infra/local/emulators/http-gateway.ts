/**
 * The API Gateway (HTTP API, payload format 2.0) emulator: matches a request against the route
 * list the stack also uses, builds the event API Gateway would deliver, has the very handler
 * module Lambda would run called (by the runtime's invoker),
 * and writes its result back.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { httpRoutes, type HttpRoute } from '#functions/http/routes.ts';
import { readBodyWithin, refuseTooLarge } from './request-body.ts';

/** Calls a route's handler with its event, as the function `functionName`; answers its result. */
export type RouteInvoker = (route: HttpRoute, event: APIGatewayProxyEventV2, functionName: string) => Promise<unknown>;

interface CompiledRoute extends HttpRoute {
  pattern: RegExp;
  names: string[];
}

/** An HTTP API's payload limit (API Gateway quotas: 10 MB, not adjustable). */
export const maxPayloadBytes = 10 * 1024 * 1024;
/** API Gateway's answer to a bigger body. */
const tooLargeAnswer = { message: 'Request Entity Too Large' };
/** The catalogue's 404, for a path no route matches. */
const notFoundBody = { statusCode: 404, error: 'Not Found', message: 'Not found' };

export function compileRoutes(routes: HttpRoute[]): CompiledRoute[] {
  return routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { ...route, names, pattern: new RegExp(`^${source}$`) };
  });
}

export class HttpGateway {
  private routes = compileRoutes(httpRoutes);

  constructor(
    private readonly invoke: RouteInvoker,
    private readonly basePath = '/api',
  ) {}

  /**
   * Runs the route `event.routeKey` names (`GET /api/contacts`) with its module, in this thread, as
   * the stack's route table does in a function (functions/lib/route-table.ts): the read batch's
   * GETs. A key no route has answers the catalogue's 404.
   */
  invokeRouteKey(event: APIGatewayProxyEventV2): Promise<unknown> {
    const route = this.routes.find((r) => `${r.method} ${this.basePath}${r.path}` === event.routeKey);
    if (!route) return Promise.resolve({ statusCode: 404, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(notFoundBody) });
    return this.invoke(route, event, route.handler.replace(/\//g, '-'));
  }

  /**
   * Handles a request under the base path, its body read within the payload limit: over it, the
   * answer is API Gateway's 413, before any route is matched or any more of the body is read (a
   * declared Content-Length over the limit: none of it), and the connection is closed.
   */
  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBodyWithin(req, maxPayloadBytes);
    if (!body) return refuseTooLarge(req, res, tooLargeAnswer);
    await this.handle(req, res, body);
  }

  /** Handles a request under the base path whose body has been read. */
  private async handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice(this.basePath.length) || '/';
    const method = (req.method ?? 'GET').toUpperCase();

    let matched: { route: CompiledRoute; params: Record<string, string> } | undefined;
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.pattern.exec(path);
      if (!m) continue;
      let params: Record<string, string>;
      try {
        params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
      } catch {
        continue;
      }
      matched = { route, params };
      break;
    }
    // An HTTP API answers 404 to any request no route matches, a known path with another method
    // included; the body is the catalogue's, as every other error.
    if (!matched) return send(res, 404, notFoundBody);

    const event = toEvent(req, url, matched.route, matched.params, body, this.basePath);
    let result: APIGatewayProxyResultV2;
    try {
      result = (await this.invoke(matched.route, event, matched.route.handler.replace(/\//g, '-'))) as APIGatewayProxyResultV2;
    } catch (error) {
      // API Gateway answers 500 with this body when the function itself fails.
      console.error(`[gateway] ${matched.route.handler} failed`, error);
      return send(res, 500, { message: 'Internal Server Error' });
    }
    writeResult(res, result);
  }
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

function toEvent(req: IncomingMessage, url: URL, route: HttpRoute, params: Record<string, string>, body: Buffer, basePath: string): APIGatewayProxyEventV2 {
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const contentType = String(req.headers['content-type'] ?? '');
  const textual = !body.length || /^(application\/(json|x-www-form-urlencoded)|text\/)/.test(contentType) || !contentType;
  const now = new Date();
  const routeKey = `${route.method} ${basePath}${route.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: req.headers.cookie ? req.headers.cookie.split(/;\s*/) : undefined,
    headers: headersOf(req),
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: String(req.headers.host ?? 'localhost'),
      domainPrefix: 'localhost',
      http: {
        method: route.method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
        userAgent: String(req.headers['user-agent'] ?? ''),
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: Boolean(body.length) && !textual,
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Writes a Lambda result as API Gateway does (a bare value becomes a 200 JSON answer). */
function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2) {
  if (typeof result !== 'object' || result === null || !('statusCode' in result)) {
    return send(res, 200, result);
  }
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  headers['content-length'] = String(body.length);
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(body);
}
