/**
 * The local runtime's table calls handed to the DynamoDB thread by message instead of HTTP. The
 * SDK client keeps its whole call path (the middleware stack, the table-call gate, SigV4, the
 * protocol's serialiser and deserialiser); only its request handler changes: in place of the Node
 * HTTP client (a loopback socket, an HTTP request written and parsed on each side) the request's
 * target and JSON body are posted to the thread, whose DynamoDB front answers it as its HTTP
 * server would (`DynamoFront.answer`), and the answer's bytes come back moved, not copied. The
 * front's HTTP server stays for other processes (the bench's seeders, the tests' clients).
 * ADR-0151.
 */
import type { MessagePort, Worker } from 'node:worker_threads';
import { CallsById } from './calls-by-id.ts';
import { InProcessRequestHandler } from './sdk-request-handler.ts';

/** A call posted to the DynamoDB thread. */
export interface TableCall {
  type: 'call';
  id: number;
  target: string;
  body: string;
}

/** Its answer, posted back: the status, the request id and the JSON body's bytes. */
export interface TableAnswer {
  type: 'answer';
  id: number;
  status: number;
  requestId: string;
  body: Uint8Array;
}

/** The parts of the SDK's HTTP request this handler reads. */
interface SdkRequest {
  headers: Record<string, string>;
  body?: unknown;
}

const decoder = new TextDecoder();

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return decoder.decode(body);
  throw new TypeError('A table call’s body is a string or bytes');
}

/**
 * An SDK request handler (the `requestHandler` of a client's config) that posts calls to the
 * DynamoDB thread: to the `Worker` itself (the main thread) or to a port the thread listens on
 * (the handler thread's, handler-thread.ts, whose calls the thread counts as reads).
 */
export class TablePort extends InProcessRequestHandler {
  readonly metadata = { handlerProtocol: 'worker-message' };
  private readonly calls = new CallsById<TableAnswer>();
  private closed = false;

  constructor(private readonly worker: Worker | MessagePort) {
    super();
    const onAnswer = (message: { type: string }) => {
      if (message.type !== 'answer') return;
      const answer = message as TableAnswer;
      this.calls.answer(answer.id, { answer });
    };
    const stopped = () => this.fail(new Error('The DynamoDB thread has stopped'));
    // A worker exits; a port closes when its other end does.
    if ('terminate' in worker) worker.on('message', onAnswer).on('exit', stopped);
    else worker.on('message', onAnswer).on('close', stopped);
  }

  async handle(request: SdkRequest, options?: { abortSignal?: { aborted: boolean } }) {
    this.refuseAborted(options);
    if (this.closed) throw new Error('The DynamoDB thread has stopped');
    const target = request.headers['x-amz-target'] ?? request.headers['X-Amz-Target'] ?? '';
    const body = bodyText(request.body);
    const answer = await this.calls.call((id) => this.worker.postMessage({ type: 'call', id, target, body } satisfies TableCall));
    return {
      response: {
        statusCode: answer.status,
        reason: undefined,
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': String(answer.body.byteLength),
          'x-amzn-requestid': answer.requestId,
        },
        body: answer.body,
      },
    };
  }

  private fail(error: Error): void {
    this.closed = true;
    this.calls.failAll(error);
  }
}
