/**
 * A thread that runs handler modules, as a Lambda container runs its function. The local runtime
 * runs the API's reads (GET) and the contact snapshots' consumer here, off its main thread. In the
 * cloud every request and stream batch has a container of its own; here they shared one event
 * loop, so ten connections of list reads kept it saturated and each hop of a send (its handler's
 * awaits, the stream record, the fan-out, the post to the socket) waited for turns of the reads'
 * handlers (ADR-0155). The main thread keeps
 * the HTTP and WebSocket servers, the writes, the other consumers and the channel worker.
 *
 * The thread has its own line to the DynamoDB thread (a `MessagePort`, table-port.ts), which
 * counts its calls as reads (table-call-gate.ts), and shares this process's environment. Events
 * and results cross by structured clone; a handler's error comes back as an error. A thread that
 * dies fails what it was running and is started again on the next call.
 */
import { MessageChannel, SHARE_ENV, Worker } from 'node:worker_threads';
import { CallsById } from './calls-by-id.ts';

/**
 * The thread's CPU priority (a nice value, Linux only): below the main thread's, so the write
 * path's hops there get a core first while the reads here keep the rest busy. Taken once its
 * handlers are loaded, so loading them does not lag behind the main thread's own start.
 */
const niceness = 10;
/**
 * Its young generation: semi-spaces of 8 MB instead of V8's 16 (bench:load's peak RSS 349 → 333 MB
 * with the DynamoDB thread's at the same size, reads within the noise; ADR-0136).
 */
const youngGenerationMb = 24;

/** What the main thread posts to the thread: a call, or word that the environment is set. */
export type ToHandlerThread = { type: 'invoke'; id: number; moduleUrl: string; event: unknown; functionName: string } | { type: 'environmentSet' };

/** Its outcome, posted back. */
export type Outcome = { type: 'result'; id: number; result: unknown } | { type: 'error'; id: number; error: { name: string; message: string; stack?: string } };

export class HandlerThread {
  private worker?: Worker;
  private ready?: Promise<void>;
  private readonly calls = new CallsById<unknown>();
  private stopped = false;

  /**
   * `entry`: the thread's module (runtime-modules.ts); `dynamo`: the DynamoDB thread it gets a line
   * to; `modules`: the handler modules it will run, loaded as it starts (as a Lambda container
   * loads its function before its first event), so a first request pays none of their loading.
   */
  constructor(
    private readonly entry: URL,
    private readonly dynamo: Worker,
    private readonly modules: readonly string[] = [],
  ) {}

  /** Starts the thread (if it is not running) and resolves once it listens. */
  start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('The handler thread has been stopped'));
    if (this.worker && this.ready) return this.ready;
    const line = new MessageChannel();
    this.dynamo.postMessage({ type: 'readPort', port: line.port1 }, [line.port1]);
    const worker = new Worker(this.entry, {
      env: SHARE_ENV,
      workerData: { tablePort: line.port2, niceness, modules: this.modules },
      transferList: [line.port2],
      resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
    });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', () => {
        worker.off('error', reject);
        resolve();
      });
    });
    worker.on('message', (message: Outcome | { type: 'ready' }) => {
      if (message.type === 'ready') return;
      this.calls.answer(
        message.id,
        message.type === 'result' ? { answer: message.result } : { error: Object.assign(new Error(message.error.message), message.error) },
      );
    });
    worker.on('error', (error) => console.error('[handler-thread]', error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.calls.failAll(new Error('The handler thread stopped'));
    });
    return this.ready;
  }

  /** Calls the handler of the module at `moduleUrl` in the thread, as the function `functionName`. */
  async invoke(moduleUrl: string, event: unknown, functionName: string): Promise<unknown> {
    await this.start();
    const worker = this.worker!;
    return this.calls.call((id) => worker.postMessage({ type: 'invoke', id, moduleUrl, event, functionName } satisfies ToHandlerThread));
  }

  /**
   * Tells the thread the environment its ports read is set (it shares this process's): it builds
   * them and primes its clients.
   */
  environmentSet(): void {
    this.worker?.postMessage({ type: 'environmentSet' } satisfies ToHandlerThread);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.worker?.terminate();
  }
}
