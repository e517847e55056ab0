/**
 * Priority for writes and realtime delivery over reads in the local runtime's one event loop. In
 * the cloud every API request and every stream batch runs in a Lambda container of its own; here
 * they share the main thread, and ten connections of list reads kept its ready queue so long that
 * each step of a send (its handler's awaits, the stream record, the fan-out's query and post)
 * waited behind a turn of every read in flight. API reads (GET) pass this gate a few at a time, in
 * arrival order; writes, stream consumers and the WebSocket gateway never queue behind it, so their
 * next step waits for at most `limit` reads' turns (docs/decisions.md "The send path under load").
 */
export class ReadGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Runs `task` once fewer than `limit` reads run. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next read in line.
      if (next) next();
      else this.active--;
    }
  }
}
