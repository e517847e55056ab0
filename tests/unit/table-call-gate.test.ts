/** The local runtime's gate on table calls: API reads' calls yield to the write path's. */
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { TableCallGate } from '../../infra/local/table-call-gate.ts';

const turn = () => new Promise((r) => setImmediate(r));

/** A call that answers when released, recording when it started. */
function calls() {
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  const call = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      releases.set(name, () => resolve(name));
    });
  const release = async (name: string) => {
    releases.get(name)!();
    await turn();
  };
  return { started, call, release };
}

describe('table call gate', () => {
  it('lets reads through up to its limit, in arrival order, and never holds the others', async () => {
    const gate = new TableCallGate(2, 1);
    const { started, call, release } = calls();
    const reads = ['r1', 'r2', 'r3', 'r4'].map((name) => gate.asRead(() => gate.call(call(name))));
    const write = gate.call(call('w1'));
    await turn();
    // Two reads in flight; the write starts at once beside them.
    expect(started).toEqual(['r1', 'r2', 'w1']);
    await release('w1');
    await release('r1');
    expect(started).toEqual(['r1', 'r2', 'w1', 'r3']);
    await release('r2');
    await release('r3');
    await release('r4');
    expect(await Promise.all([...reads, write])).toEqual(['r1', 'r2', 'r3', 'r4', 'w1']);
  });

  it('while a write-path call is in flight, admits reads only up to the lower limit', async () => {
    const gate = new TableCallGate(3, 1);
    const { started, call, release } = calls();
    const write = gate.call(call('w1'));
    const reads = ['r1', 'r2', 'r3'].map((name) => gate.asRead(() => gate.call(call(name))));
    await turn();
    expect(started).toEqual(['w1', 'r1']);
    await release('r1');
    // r1's slot goes to r2 only: the write still runs.
    expect(started).toEqual(['w1', 'r1', 'r2']);
    await release('w1');
    // The write is done: the full limit again.
    expect(started).toEqual(['w1', 'r1', 'r2', 'r3']);
    await release('r2');
    await release('r3');
    expect(await Promise.all([write, ...reads])).toEqual(['w1', 'r1', 'r2', 'r3']);
  });

  it('counts a read by where it was made, however deep, and frees the slot of a failed call', async () => {
    const gate = new TableCallGate(1, 1);
    const { started, call, release } = calls();
    // A read's call made after awaits is still the read's: it takes the only slot.
    const deep = gate.asRead(async () => {
      await turn();
      await turn();
      return gate.call(call('r1'));
    });
    await turn();
    await turn();
    await turn();
    const second = gate.asRead(() => gate.call(call('r2')));
    await turn();
    expect(started).toEqual(['r1']);
    await release('r1');
    expect(started).toEqual(['r1', 'r2']);
    await release('r2');
    expect([await deep, await second]).toEqual(['r1', 'r2']);
    // A failed call gives its slot back: the next read goes through.
    await expect(gate.asRead(() => gate.call(() => Promise.reject(new Error('refused'))))).rejects.toThrow('refused');
    expect(await gate.asRead(() => gate.call(async () => 'after'))).toBe('after');
  });

  it('gates the calls of an SDK client it is installed on', async () => {
    const gate = new TableCallGate(1, 0);
    const client = new DynamoDBClient({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const doc = DynamoDBDocumentClient.from(client);
    const seen: string[] = [];
    // Stands in for the network: answers an empty item, recording the operation.
    client.middlewareStack.add(
      () => async (args) => {
        seen.push(String((args.request as { headers: Record<string, string> }).headers['x-amz-target']));
        return { response: { statusCode: 200, headers: {}, body: undefined }, output: { $metadata: {} } } as never;
      },
      { step: 'finalizeRequest', name: 'fakeNetwork', priority: 'low' },
    );
    gate.install(doc);
    let releaseWrite!: () => void;
    const write = gate.call(() => new Promise<void>((r) => (releaseWrite = r)));
    // A read's call waits while the write-path call is in flight (no reads beside writes here)…
    const read = gate.asRead(() => doc.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } })));
    await turn();
    expect(seen).toEqual([]);
    releaseWrite();
    await write;
    await read;
    // …and goes through the client once it is let in.
    expect(seen).toEqual(['DynamoDB_20120810.GetItem']);
    // Other calls are not held.
    await client.send(new CreateTableCommand({ TableName: 't', KeySchema: [], AttributeDefinitions: [], BillingMode: 'PAY_PER_REQUEST' }));
    expect(seen).toEqual(['DynamoDB_20120810.GetItem', 'DynamoDB_20120810.CreateTable']);
  });
});
