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
  }
}
