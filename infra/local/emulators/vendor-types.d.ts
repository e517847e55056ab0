// Minimal type declarations for the local stand-ins that ship none.
declare module 'dynalite' {
  import type { Server } from 'node:http';
  export default function dynalite(options?: {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
  }): Server;
}

declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type { AddressInfo } from 'node:net';
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
      allowMismatchedSignatures?: boolean;
      vhostBuckets?: boolean;
    });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** Creates the configured buckets and applies their configurations, without listening. */
    configureBuckets(): Promise<void>;
    /** The request handler (s3rver is a Koa application), for a server of one's own. */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
