/**
 * The handler thread (infra/local/runtime/handler-thread.ts): the local runtime's API reads and contact
 * snapshots' consumer run there. A call runs the named module's handler off the main thread, its
 * table calls reach the DynamoDB thread on the thread's own line (the SDK's endpoint is a closed
 * port: an answer could come no other way), a handler's error comes back as an error, an answer
 * that cannot be cloned fails its call only, and a thread that ends fails what it ran and is
 * started again at the next call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandlerThread } from '../../infra/local/runtime/handler-thread.ts';
import { createTableInput } from '../../shared/db/table-definition.ts';
import { root, threadEntry } from '../../infra/local/runtime/runtime-modules.ts';
import { TablePort } from '../../infra/local/runtime/table-port.ts';

const fixture = pathToFileURL(join(root, 'tests/support/handler-thread-fixture.ts')).href;
let dir: string;
let dynamo: Worker;
let thread: HandlerThread;
const environment = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'conversa-handler-thread-'));
  dynamo = new Worker(threadEntry('emulators/dynamo-worker'), { workerData: { path: join(dir, 'dynamo'), ttlAttribute: 'ttl' } });
  await new Promise<void>((resolve) => dynamo.on('message', (m: { type: string }) => m.type === 'ready' && resolve()));
  // What the runtime's environment holds for the ports (the thread shares this process's).
  Object.assign(process.env, {
    TABLE_NAME: 'handler-thread-test',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9',
  });
  const client = new DynamoDBClient({ endpoint: 'http://127.0.0.1:9', maxAttempts: 1 });
  client.config.requestHandler = new TablePort(dynamo);
  // The product's table, as the runtime makes it.
  await client.send(new CreateTableCommand(createTableInput('handler-thread-test')));
  thread = new HandlerThread(threadEntry('runtime/handler-worker'), dynamo, [fixture]);
}, 60_000);

afterAll(async () => {
  await thread?.stop();
  await dynamo?.terminate();
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  rmSync(dir, { recursive: true, force: true });
});

describe('handler thread', () => {
  it('runs a handler off the main thread, as the function it names', { timeout: 60_000 }, async () => {
    const answer = (await thread.invoke(fixture, { action: 'where' }, 'contacts-list-contacts')) as {
      isMainThread: boolean;
      threadId: number;
      functionName: string;
    };
    expect(answer).toMatchObject({ isMainThread: false, functionName: 'contacts-list-contacts' });
    expect(answer.threadId).toBeGreaterThan(0);
  });

  it('reaches the table on its own line to the DynamoDB thread', { timeout: 30_000 }, async () => {
    expect(await thread.invoke(fixture, { action: 'put', key: 'a', value: 'Olá' }, 'fixture')).toBe('stored');
    expect(await thread.invoke(fixture, { action: 'get', key: 'a' }, 'fixture')).toBe('Olá');
    expect(await thread.invoke(fixture, { action: 'get', key: 'b' }, 'fixture')).toBeNull();
  });

  it('fails a call with the handler’s error, or with an answer that cannot be cloned, and keeps running', { timeout: 30_000 }, async () => {
    await expect(thread.invoke(fixture, { action: 'fail' }, 'fixture')).rejects.toMatchObject({ name: 'TypeError', message: 'Recusado pelo teste' });
    await expect(thread.invoke(fixture, { action: 'unclonable' }, 'fixture')).rejects.toMatchObject({ name: 'DataCloneError' });
    expect(await thread.invoke(fixture, { action: 'get', key: 'a' }, 'fixture')).toBe('Olá');
  });

  it('fails what a thread that ends was running, and starts a new one at the next call', { timeout: 60_000 }, async () => {
    const before = (await thread.invoke(fixture, { action: 'where' }, 'fixture')) as { threadId: number };
    await expect(thread.invoke(fixture, { action: 'exit' }, 'fixture')).rejects.toThrow('The handler thread stopped');
    const after = (await thread.invoke(fixture, { action: 'where' }, 'fixture')) as { threadId: number };
    expect(after.threadId).not.toBe(before.threadId);
    expect(await thread.invoke(fixture, { action: 'get', key: 'a' }, 'fixture')).toBe('Olá');
  });
});
