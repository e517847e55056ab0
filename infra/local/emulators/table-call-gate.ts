/**
 * Priority for the write path's table calls over reads' in the local runtime. In the cloud a
 * send's handler, the stream consumers and the fan-out each run in a Lambda container of their
 * own against a DynamoDB that serves them in parallel; here every call goes to one DynamoDB thread
 * (dynalite and its front, dynamo-worker.ts), which would answer in arrival order. Under ten
 * connections of list reads, each of a send's calls (the session, the contact and the connection,
 * the transaction, the fan-out's connections query) queued behind every read call sent before it
 * (ADR-0148).
 *
 * So the DynamoDB thread passes reads' calls (those of the handler thread, handler-thread.ts:
 * API GETs and the contact snapshots' consumer) through this gate: at most `readLimit` of them in
 * flight, and at most `readLimitBehindWrites` while any other call (the main thread's: a write
 * request's, a stream or queue consumer's, the WebSocket gateway's) is in flight. Those others
 * never wait, so one waits behind at most `readLimit` read calls, and the calls after its first
 * behind at most `readLimitBehindWrites`. Waiting reads go in arrival order.
 */
export class TableCallGate {
  private readsInFlight = 0;
  private othersInFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly readLimit: number,
    private readonly readLimitBehindWrites = 1,
  ) {}

  /** One table call: a read's waits for room; any other goes at once. */
  async call<T>(send: () => Promise<T>, read: boolean): Promise<T> {
    if (!read) {
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
