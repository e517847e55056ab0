/**
 * The product's table in process, for tests that need DynamoDB's behaviour but not the whole local
 * runtime: dynalite (which enforces DynamoDB's limits, the 400 KB item among them) behind the local
 * DynamoDB front (transactions, conditions), as the runtime runs them, and a vault with a random
 * data key. One per test file; `close` removes its folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { aesVault } from '#lib/aes-vault.ts';
import { DynamoFront } from '../../infra/local/emulators/dynamo-front.ts';
import type { Table } from '#db/client.ts';
import { createTableInput } from '#db/table-definition.ts';
import type { Ports } from '#domain/ports.ts';

export interface LocalTable {
  ports: Pick<Ports, 'table' | 'vault'>;
  close(): Promise<void>;
}

export async function startLocalTable(name = 'local-table-test'): Promise<LocalTable> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const db: Server = dynalite({ path: dir, createTableMs: 0 });
  await new Promise<void>((resolve) => db.listen(0, '127.0.0.1', () => resolve()));
  const front = new DynamoFront({ backendUrl: `http://127.0.0.1:${(db.address() as AddressInfo).port}`, onRecord: () => {}, sweepEveryMs: 3_600_000 });
  const client = new DynamoDBClient({ endpoint: await front.listen(), region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  await client.send(new CreateTableCommand(createTableInput(name)));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const table: Table = { name, doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }) };
  const key = randomBytes(32);
  return {
    ports: { table, vault: aesVault(async () => key) },
    async close() {
      client.destroy();
      await front.close();
      await new Promise<void>((resolve) => db.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
