/**
 * Priority for the write path's table calls over API reads' in the local runtime. In the cloud a
 * send's handler, the stream consumers and the fan-out each run in a Lambda container of their
 * own against a DynamoDB that serves them in parallel; here every call goes to one DynamoDB thread
 * (dynalite and its front, dynamo-worker.ts), which answers in arrival order. Under ten
 * connections of list reads, each of a send's calls (the session, the contact and the connection,
 * the transaction, the fan-out's connections query) queued behind every read call sent before it
 * (docs/decisions.md "The send path under load: table calls by priority").
 *
 * So a read's calls (those made while an API GET runs, `asRead`) pass a gate on their way to that
 * thread: at most `readLimit` of them in flight, and at most `readLimitBehindWrites` while any other
 * call (a write request's, a stream or queue consumer's, the WebSocket gateway's) is in flight.
 * Those others never wait, so one waits behind at most `readLimit` read calls, and the calls after
 * its first behind at most `readLimitBehindWrites`. Waiting reads go in arrival order.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export class TableCallGate {
  private readonly reading = new AsyncLocalStorage<true>();
  private readsInFlight = 0;
  private othersInFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly readLimit: number,
    private readonly readLimitBehindWrites = 1,
  ) {}

  /** Runs `task` as a read: every table call made in it, however deep, yields to the others. */
  asRead<T>(task: () => Promise<T>): Promise<T> {
    return this.reading.run(true, task);
  }

  /** One table call, gated if it is a read's. */
  async call<T>(send: () => Promise<T>): Promise<T> {
    if (!this.reading.getStore()) {
      this.othersInFlight++;
      try {
        return await send();
      } finally {
        this.othersInFlight--;
        this.admit();
      }
    }
    if (this.waiting.length || this.readsInFlight >= this.limit()) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.readsInFlight++;
    try {
      return await send();
    } finally {
      this.readsInFlight--;
      this.admit();
    }
  }

  /** Puts the gate on a client's calls (the SDK's build step: once per call, retries included). */
  install(client: Pick<DynamoDBDocumentClient, 'middlewareStack'>): void {
    client.middlewareStack.add((next) => (args) => this.call(() => next(args)), { step: 'build', name: 'localTableCallGate', override: true });
  }

  private limit(): number {
    return this.othersInFlight ? this.readLimitBehindWrites : this.readLimit;
  }

  /** Lets waiting reads go, in arrival order, while there is room; a slot counts as taken once handed over. */
  private admit(): void {
    while (this.waiting.length && this.readsInFlight < this.limit()) {
      this.readsInFlight++;
      this.waiting.shift()!();
    }
  }
}
