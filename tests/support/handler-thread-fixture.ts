/**
 * A handler module for tests/unit/handler-thread.test.ts, run in the handler thread: it answers
 * where it runs, fails, writes and reads the table through the thread's ports, answers what
 * cannot be cloned, or ends its thread, as its event asks.
 */
import { isMainThread, threadId } from 'node:worker_threads';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { defaultPorts } from '../../functions/lib/ports.ts';

type FixtureEvent = { action: 'where' | 'fail' | 'unclonable' | 'exit' } | { action: 'put' | 'get'; key: string; value?: string };

export async function handler(event: FixtureEvent, context: Context): Promise<unknown> {
  switch (event.action) {
    case 'where':
      return { isMainThread, threadId, functionName: context.functionName };
    case 'fail':
      throw new TypeError('Recusado pelo teste');
    case 'unclonable':
      return { call: () => 1 };
    case 'exit':
      return process.exit(1);
    case 'put': {
      const { table } = defaultPorts();
      await table.doc.send(new PutCommand({ TableName: table.name, Item: { pk: event.key, sk: event.key, value: event.value } }));
      return 'stored';
    }
    case 'get': {
      const { table } = defaultPorts();
      const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: { pk: event.key, sk: event.key } }));
      return Item?.value ?? null;
    }
  }
}
