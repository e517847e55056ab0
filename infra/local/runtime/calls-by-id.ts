/**
 * Calls answered by message, matched by id: what the local runtime's ports to its threads share
 * (table-port.ts to the DynamoDB thread, handler-thread.ts to the handler thread). Each call gets
 * the next id and waits for its answer; when the other side stops, every call still waiting fails.
 */
export class CallsById<T> {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (answer: T) => void; reject: (error: Error) => void }>();

  /** Starts a call: `post` sends it under the id it is given; resolves with its answer. */
  call(post: (id: number) => void): Promise<T> {
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      post(id);
    });
  }

  /** Settles call `id` (a stray id is ignored). */
  answer(id: number, outcome: { answer: T } | { error: Error }): void {
    const call = this.waiting.get(id);
    this.waiting.delete(id);
    if ('error' in outcome) call?.reject(outcome.error);
    else call?.resolve(outcome.answer);
  }

  /** Fails every call still waiting. */
  failAll(error: Error): void {
    for (const call of this.waiting.values()) call.reject(error);
    this.waiting.clear();
  }
}
