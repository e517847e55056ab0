/**
 * The runtime's API Gateway Management API client answered in this process: the SDK client keeps
 * its whole call path (middleware, SigV4, the REST-JSON serialiser and deserialiser, GoneException
 * from a 410), and only its request handler changes. In place of a loopback HTTP request to the
 * gateway's management port (a socket write, an HTTP request parsed, an answer written and parsed,
 * each a turn of this thread's event loop behind the API's reads), the request goes straight to
 * the gateway that holds the sockets (`WsGateway.manage`, which the loopback server answers with
 * too). ADR-0153.
 */
import { InProcessRequestHandler } from './sdk-request-handler.ts';
import type { ManagementAnswer } from '../emulators/ws-gateway.ts';

/** The parts of the SDK's HTTP request this handler reads. */
interface SdkRequest {
  method: string;
  path: string;
  body?: unknown;
}

/** What answers a management call (the local WebSocket gateway). */
export interface ManagementTarget {
  manage(method: string, path: string, body: Uint8Array): ManagementAnswer;
}

const encoder = new TextEncoder();

function bodyBytes(body: unknown): Uint8Array {
  if (body === undefined || body === null) return new Uint8Array();
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  throw new TypeError('A management call’s body is a string or bytes');
}

/** An SDK request handler (the `requestHandler` of a client's config) that hands calls to `target`. */
export class ManagementPort extends InProcessRequestHandler {
  readonly metadata = { handlerProtocol: 'in-process' };

  constructor(private readonly target: ManagementTarget) {
    super();
  }

  async handle(request: SdkRequest, options?: { abortSignal?: { aborted: boolean } }) {
    this.refuseAborted(options);
    const answer = this.target.manage(request.method, request.path, bodyBytes(request.body));
    return { response: { statusCode: answer.status, reason: undefined, headers: answer.headers, body: encoder.encode(answer.body) } };
  }
}
