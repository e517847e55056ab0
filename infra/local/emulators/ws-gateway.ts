/**
 * The API Gateway WebSocket API emulator: `$connect`, `$disconnect` and `$default` events with the
 * shape API Gateway delivers, to the same handler modules Lambda runs, and the `@connections`
 * management endpoint (POST to send, GET to describe, DELETE to close; 410 Gone for unknown ids) on
 * a loopback port, so code written against the API Gateway Management API works unchanged. Like API
 * Gateway, it closes every connection after its maximum duration (2 hours; code 1001, Going away),
 * one that has sent nothing for the idle timeout (10 minutes; 1001), and one that sends a frame
 * over 32 KB or a message over 128 KB (1009, Message too big: ws-frame-limit.ts); a `@connections`
 * post over 128 KB is refused with 413. A client message is routed as the API's route selection
 * expression (`$request.body.action`) routes it: to a MOCK route (functions/ws/routes.ts, the
 * keep-alive `ping`), answered by the gateway itself with the route's response and no handler, or
 * else to `$default`.
 *
 * AWS's quota table does not say which direction of traffic resets API Gateway's idle timer; this
 * double takes the stricter reading, only the client's messages, so a client that counts on the
 * server's events to stay open fails here rather than on AWS.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import type { APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { type WebSocketMockRoute, webSocketMockRoutes } from '#functions/ws/routes.ts';
import { handlerOf } from '../runtime/handler-modules.ts';
import { lambdaContext } from '../runtime/lambda-context.ts';
import { readBodyWithin, refuseTooLarge } from './request-body.ts';
import { maxFrameBytes, maxMessageBytes, watchFrameSizes } from './ws-frame-limit.ts';

/** The `message` of a `@connections` post over the message quota (PayloadTooLargeException, 413). */
const tooLargeText = 'Request entity too large';

type WsHandler = (event: unknown, context: Context) => Promise<APIGatewayProxyResultV2 | undefined>;

export interface WsRoutes {
  $connect: string;
  $disconnect: string;
  $default: string;
}

/** A management call's answer: the status, the headers and the JSON body (empty when none). */
export interface ManagementAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Connection {
  socket: WebSocket;
  connectedAt: Date;
  lastActiveAt: Date;
  sourceIp: string;
  userAgent: string;
}

/** API Gateway's WebSocket quotas that are times, and the routes it answers itself. */
export interface WsGatewayOptions {
  /** API Gateway's idle connection timeout: a connection that sent nothing for this long is closed. @default 10 minutes */
  idleTimeoutMs?: number;
  /** Routes with a MOCK integration, answered without a handler. @default functions/ws/routes.ts's */
  mockRoutes?: readonly WebSocketMockRoute[];
}

/** The route key `$request.body.action` selects for a client message: the body's `action`, when it is JSON with a string one. */
function selectedRouteKey(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const action = parsed && typeof parsed === 'object' ? (parsed as { action?: unknown }).action : undefined;
    return typeof action === 'string' ? action : undefined;
  } catch {
    return undefined;
  }
}

export class WsGateway {
  // `maxPayload` bounds a message, its frames together; each frame is bound by watchFrameSizes.
  private wss = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes });
  private connections = new Map<string, Connection>();
  private management?: Server;
  private readonly idleTimeoutMs: number;
  private readonly mockRoutes: ReadonlyMap<string, WebSocketMockRoute>;
  managementUrl = '';
  /** What `@connections` POSTs delivered so far: posts and their bytes (`npm run bench:tenants` reads them). */
  readonly delivered = { posts: 0, bytes: 0 };

  constructor(
    private readonly routes: WsRoutes,
    private readonly stage = 'local',
    /** API Gateway's maximum connection duration. */
    private readonly maxConnectionMs = 2 * 60 * 60 * 1000,
    options: WsGatewayOptions = {},
  ) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60 * 1000;
    this.mockRoutes = new Map((options.mockRoutes ?? webSocketMockRoutes).map((route) => [route.routeKey, route]));
  }

  private handler(route: keyof WsRoutes): Promise<WsHandler> {
    return handlerOf(pathToFileURL(this.routes[route]).href) as Promise<WsHandler>;
  }

  private event(route: keyof WsRoutes, connectionId: string, req: IncomingMessage | undefined, extra: Record<string, unknown> = {}) {
    const now = Date.now();
    const url = new URL(req?.url ?? '/', 'http://local');
    const eventType = route === '$connect' ? 'CONNECT' : route === '$disconnect' ? 'DISCONNECT' : 'MESSAGE';
    return {
      ...(req
        ? {
            headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)])),
            queryStringParameters: Object.fromEntries(url.searchParams),
          }
        : {}),
      requestContext: {
        routeKey: route,
        eventType,
        extendedRequestId: randomUUID(),
        requestTime: new Date(now).toUTCString(),
        messageDirection: 'IN',
        stage: this.stage,
        connectedAt: this.connections.get(connectionId)?.connectedAt.getTime() ?? now,
        requestTimeEpoch: now,
        identity: { sourceIp: (req?.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''), userAgent: req?.headers['user-agent'] },
        requestId: randomUUID(),
        domainName: req?.headers.host ?? 'localhost',
        connectionId,
        apiId: 'local',
      },
      isBase64Encoded: false,
      ...extra,
    };
  }

  /** Takes over an HTTP upgrade on the realtime path. */
  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const connectionId = randomBytes(12).toString('base64url');
    let status = 500;
    try {
      const result = await (await this.handler('$connect'))(this.event('$connect', connectionId, req), lambdaContext('ws-connect'));
      status = typeof result === 'object' && result && 'statusCode' in result ? (result.statusCode ?? 200) : 200;
    } catch (error) {
      console.error('[ws] $connect failed', error);
    }
    if (status < 200 || status > 299) {
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const now = new Date();
      this.connections.set(connectionId, {
        socket: ws,
        connectedAt: now,
        lastActiveAt: now,
        sourceIp: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''),
        userAgent: String(req.headers['user-agent'] ?? ''),
      });
      // A protocol error (a message over `maxPayload` among them): `ws` closes the socket with its
      // code (1009 for size); without a listener the error would be thrown and end the runtime.
      ws.on('error', () => {});
      let frameTooBig = false;
      watchFrameSizes(socket, maxFrameBytes, () => {
        frameTooBig = true;
        ws.close(1009);
      });
      // API Gateway's idle timeout: restarted by every message the client sends.
      let idle = setTimeout(() => ws.close(1001, 'Going away'), this.idleTimeoutMs);
      idle.unref();
      ws.on('message', (data) => {
        // The rest of a message whose frame was refused is never delivered.
        if (frameTooBig) return;
        const conn = this.connections.get(connectionId);
        if (conn) conn.lastActiveAt = new Date();
        clearTimeout(idle);
        idle = setTimeout(() => ws.close(1001, 'Going away'), this.idleTimeoutMs);
        idle.unref();
        const body = data.toString();
        const mock = this.mockRoutes.get(selectedRouteKey(body) ?? '');
        if (mock) {
          // A MOCK integration with a route response: the gateway answers, no function runs.
          ws.send(mock.response);
          return;
        }
        void this.handler('$default')
          .then((h) => h(this.event('$default', connectionId, undefined, { body }), lambdaContext('ws-default')))
          .catch((error) => console.error('[ws] $default failed', error));
      });
      const cap = setTimeout(() => ws.close(1001, 'Going away'), this.maxConnectionMs);
      cap.unref();
      ws.on('close', () => {
        clearTimeout(cap);
        clearTimeout(idle);
        this.connections.delete(connectionId);
        void this.handler('$disconnect')
          .then((h) => h(this.event('$disconnect', connectionId, undefined), lambdaContext('ws-disconnect')))
          .catch((error) => console.error('[ws] $disconnect failed', error));
      });
    });
  }

  /**
   * Answers one `@connections` call as API Gateway's management endpoint does (the loopback
   * management server's requests).
   */
  manage(method: string, path: string, body: Uint8Array): ManagementAnswer {
    const reply = (status: number, answer?: unknown): ManagementAnswer => {
      const text = answer === undefined ? '' : JSON.stringify(answer);
      return {
        status,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          ...(status === 410 ? { 'x-amzn-errortype': 'GoneException' } : {}),
          ...(status === 413 ? { 'x-amzn-errortype': 'PayloadTooLargeException' } : {}),
        },
        body: text,
      };
    };
    const match = /^(?:\/[^@]*)?\/@connections\/([^/?]+)/.exec(path);
    if (!match) return reply(404, { message: 'Not Found' });
    const conn = this.connections.get(decodeURIComponent(match[1]!));
    if (!conn || conn.socket.readyState !== conn.socket.OPEN) return reply(410, { message: 'Gone' });
    if (method === 'POST') {
      if (body.byteLength > maxMessageBytes) return reply(413, { message: tooLargeText });
      conn.socket.send(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
      this.delivered.posts++;
      this.delivered.bytes += body.byteLength;
      return reply(200);
    }
    if (method === 'GET') {
      return reply(200, {
        connectedAt: conn.connectedAt.toISOString(),
        lastActiveAt: conn.lastActiveAt.toISOString(),
        identity: { sourceIp: conn.sourceIp, userAgent: conn.userAgent },
      });
    }
    if (method === 'DELETE') {
      conn.socket.close(1000);
      return reply(204);
    }
    return reply(405, { message: 'Method Not Allowed' });
  }

  /** Starts the `@connections` management endpoint on a loopback port (for other processes: the tests, the benches). */
  async listenManagement(): Promise<string> {
    this.management = createServer(async (req, res) => {
      let body: Buffer | undefined;
      try {
        body = await readBodyWithin(req, maxMessageBytes);
      } catch {
        return void res.destroy();
      }
      if (!body) return refuseTooLarge(req, res, { message: tooLargeText }, { 'x-amzn-errortype': 'PayloadTooLargeException' });
      const answer = this.manage(req.method ?? 'GET', req.url ?? '', body);
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => this.management!.listen(0, '127.0.0.1', resolve));
    this.managementUrl = `http://127.0.0.1:${(this.management.address() as AddressInfo).port}/${this.stage}`;
    return this.managementUrl;
  }

  async close(): Promise<void> {
    for (const { socket } of this.connections.values()) socket.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => (this.management ? this.management.close(() => resolve()) : resolve()));
  }
}
