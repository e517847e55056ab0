/**
 * The local runtime's table calls handed to the DynamoDB thread by message instead of HTTP. The
 * SDK client keeps its whole call path (the middleware stack, SigV4, the
 * protocol's serialiser and deserialiser); only its request handler changes: in place of the Node
 * HTTP client (a loopback socket, an HTTP request written and parsed on each side) the request's
 * target and JSON body are posted to the thread, whose DynamoDB front answers it as its HTTP
 * server would (`DynamoFront.answer`), and the answer's bytes come back moved, not copied. The
 * front's HTTP server stays for other processes (the bench's seeders, the tests' clients).
 * ADR-0151.
 */
import type { Worker } from 'node:worker_threads';

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
 * DynamoDB thread, each under the next id, and settles it when the answer with that id comes back.
 * Besides `handle`, what the SDK asks of a request handler: no HTTP configuration to update or
 * report, nothing to destroy, and an already aborted call refused as the SDK's own handlers refuse it.
 */
export class TablePort {
  readonly metadata = { handlerProtocol: 'worker-message' };
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (answer: TableAnswer) => void; reject: (error: Error) => void }>();
  private closed = false;

  constructor(private readonly worker: Worker) {
    worker
      .on('message', (message: { type: string }) => {
        if (message.type !== 'answer') return;
        const answer = message as TableAnswer;
        this.waiting.get(answer.id)?.resolve(answer);
        this.waiting.delete(answer.id);
      })
      .on('exit', () => this.fail(new Error('The DynamoDB thread has stopped')));
  }

  updateHttpClientConfig(): void {}

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  destroy(): void {}

  async handle(request: SdkRequest, options?: { abortSignal?: { aborted: boolean } }) {
    if (options?.abortSignal?.aborted) throw Object.assign(new Error('Request aborted'), { name: 'AbortError' });
    if (this.closed) throw new Error('The DynamoDB thread has stopped');
    const target = request.headers['x-amz-target'] ?? request.headers['X-Amz-Target'] ?? '';
    const body = bodyText(request.body);
    const id = ++this.nextId;
    const answer = await new Promise<TableAnswer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'call', id, target, body } satisfies TableCall);
    });
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

  /** Fails every call still waiting. */
  private fail(error: Error): void {
    this.closed = true;
    for (const call of this.waiting.values()) call.reject(error);
    this.waiting.clear();
  }
}
