import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type LocalTable, startLocalTable } from '../../tests/support/local-table.ts';
import type { Table } from './client.ts';
import { deleteExistingStep, putNewStep, putStep, refusedBy, replaceIfUnchangedStep, TransactionRefused, writeTogether } from './transaction.ts';

// Transactions need the local DynamoDB front (tests/support/local-table.ts): dynalite alone has no TransactWriteItems.
let local: LocalTable;
let table: Table;

beforeAll(async () => {
  local = await startLocalTable('transaction-test');
  table = local.ports.table;
});

afterAll(async () => {
  await local.close();
});

const get = async (pk: string) => (await table.doc.send(new GetCommand({ TableName: table.name, Key: { pk, sk: 'A' } }))).Item;
const put = (item: Record<string, unknown>) => table.doc.send(new PutCommand({ TableName: table.name, Item: item }));
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the transaction was not refused'),
    (error: unknown) => error,
  );

describe('writeTogether', () => {
  it('writes every named member when all conditions hold', async () => {
    await put({ pk: 'w1', sk: 'A', updatedAt: 't1', n: 1 });
    await put({ pk: 'w2', sk: 'A' });
    await writeTogether(table, {
      created: putNewStep({ pk: 'w3', sk: 'A' }),
      replaced: replaceIfUnchangedStep({ pk: 'w1', sk: 'A', updatedAt: 't2', n: 2 }, 't1'),
      deleted: deleteExistingStep({ pk: 'w2', sk: 'A' }),
    });
    expect(await get('w3')).toEqual({ pk: 'w3', sk: 'A' });
    expect((await get('w1'))?.n).toBe(2);
    expect(await get('w2')).toBeUndefined();
  });

  it('names the member whose condition failed, and writes none of the others', async () => {
    await put({ pk: 'r1', sk: 'A', updatedAt: 't1' });
    const error = await refusal(
      writeTogether(table, {
        fresh: putNewStep({ pk: 'r2', sk: 'A' }),
        stale: replaceIfUnchangedStep({ pk: 'r1', sk: 'A', updatedAt: 't3' }, 'not-t1'),
        other: putNewStep({ pk: 'r3', sk: 'A' }),
      }),
    );
    expect(error).toBeInstanceOf(TransactionRefused);
    expect(refusedBy(error, 'stale')).toBe(true);
    expect(refusedBy(error, 'fresh')).toBe(false);
    expect(refusedBy(error, 'fresh', 'stale')).toBe(true);
    expect(refusedBy(error)).toBe(true);
    expect(await get('r2')).toBeUndefined();
    expect(await get('r3')).toBeUndefined();
    expect((await get('r1'))?.updatedAt).toBe('t1');
  });

  it('tells refusals apart by name whatever the position of the member', async () => {
    await put({ pk: 'p1', sk: 'A' });
    // The local front stops at the first failed condition; AWS names every one. Either way the
    // refused member is found by its name.
    const taken = await refusal(writeTogether(table, { first: putNewStep({ pk: 'p2', sk: 'A' }), taken: putNewStep({ pk: 'p1', sk: 'A' }) }));
    const missing = await refusal(writeTogether(table, { missing: deleteExistingStep({ pk: 'p-none', sk: 'A' }), second: putNewStep({ pk: 'p3', sk: 'A' }) }));
    expect([...(taken as TransactionRefused).refused]).toEqual(['taken']);
    expect([...(missing as TransactionRefused).refused]).toEqual(['missing']);
  });

  it('leaves out members given as false, null or undefined', async () => {
    await put({ pk: 'o1', sk: 'A' });
    const skipped = false as boolean;
    await writeTogether(table, {
      kept: putNewStep({ pk: 'o2', sk: 'A' }),
      // Would be refused (o1 exists) if it were sent.
      notSent: skipped && putNewStep({ pk: 'o1', sk: 'A' }),
      none: null,
      absent: undefined,
    });
    expect(await get('o2')).toBeDefined();
  });

  it('does nothing when every member is left out', async () => {
    await expect(writeTogether(table, { a: false, b: null })).resolves.toBeUndefined();
  });

  it('rethrows failures that are not refused conditions as they came', async () => {
    const error = await refusal(writeTogether(table, { bad: putStep({ pk: 'no sort key' }) }));
    expect(error).not.toBeInstanceOf(TransactionRefused);
    expect(refusedBy(error)).toBe(false);
    expect((error as { name?: string }).name).toBe('ValidationException');
  });

  it('a cancellation without a failed condition (a conflicting transaction) is a refusal naming no member', async () => {
    // The front serialises writes, so it never answers a conflict; AWS does.
    const conflict = Object.assign(new Error('Transaction cancelled'), {
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
    });
    const conflicting: Table = { name: table.name, doc: { send: async () => Promise.reject(conflict) } as unknown as Table['doc'] };
    const error = await refusal(writeTogether(conflicting, { a: putNewStep({ pk: 'c1', sk: 'A' }), b: putNewStep({ pk: 'c2', sk: 'A' }) }));
    expect(refusedBy(error)).toBe(true);
    expect(refusedBy(error, 'a', 'b')).toBe(false);
  });

  it('refusedBy is false for errors that are not refused transactions', () => {
    expect(refusedBy(new Error('boom'), 'x')).toBe(false);
    expect(refusedBy(undefined)).toBe(false);
  });
});
