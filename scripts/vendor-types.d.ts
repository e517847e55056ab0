// Declarations for the packages the benchmarks use that ship none.

// The part of autocannon 9's API the load benchmark uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    headers?: Record<string, string>;
    requests?: Request[];
    /** Seconds before a request counts as timed out. */
    timeout?: number;
  }

  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }

  interface Instance extends EventEmitter {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    stop(): void;
  }

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}

// dynalite's store and its BatchWriteItem action, which the benchmarks' seeding calls without the HTTP front.
declare module 'dynalite/db/index.js' {
  export interface Store {
    lifecycleManager: { gracefulClose(callback: (error?: Error) => void): void };
  }
  export function create(options: { path: string; createTableMs?: number }): Store;
}

declare module 'dynalite/actions/batchWriteItem.js' {
  import type { Store } from 'dynalite/db/index.js';
  import type { AttributeValue } from '@aws-sdk/client-dynamodb';
  export default function batchWriteItem(
    store: Store,
    data: { RequestItems: Record<string, { PutRequest: { Item: Record<string, AttributeValue> } }[]> },
    callback: (error: Error | null) => void,
  ): void;
}
