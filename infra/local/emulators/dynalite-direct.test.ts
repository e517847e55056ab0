/**
 * dynalite called in-process (infra/local/emulators/dynalite-direct.ts) answers as dynalite's HTTP server
 * does: same statuses and bodies for reads, writes, validation errors, missing tables and unknown
 * operations; and its cached table descriptions follow CreateTable, UpdateTable and DeleteTable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dynalite from 'dynalite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDynaliteStore, dynaliteCaller, openDynaliteStore, type DynaliteAnswer, type DynaliteStore } from './dynalite-direct.ts';
import { createTableInput } from '#db/table-definition.ts';

let dirs: string[] = [];
let server: Server;
let serverUrl: string;
let store: DynaliteStore;
let direct: ReturnType<typeof dynaliteCaller>;

const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'dynalite-direct-'));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  server = dynalite({ path: dir(), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  store = openDynaliteStore({ path: dir(), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  direct = dynaliteCaller(store);
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await closeDynaliteStore(store);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

async function overHttp(op: string, body: unknown): Promise<DynaliteAnswer> {
  const res = await fetch(serverUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${op}`,
      authorization: 'AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      'x-amz-date': '20200101T000000Z',
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The same call both ways, each on its own copy of the body. */
async function both(op: string, body: unknown): Promise<[DynaliteAnswer, DynaliteAnswer]> {
  const [a, b] = [await overHttp(op, structuredClone(body)), await direct(op, structuredClone(body) as Record<string, unknown>)];
  return [a, JSON.parse(JSON.stringify(b)) as DynaliteAnswer];
}

/** Without what differs by nature between two databases: creation times and table ids. */
const withoutTimes = (answer: DynaliteAnswer) =>
  JSON.parse(
    JSON.stringify(answer)
      .replace(/"CreationDateTime":[\d.]+/g, '"CreationDateTime":0')
      .replace(/"TableId":"[^"]+"/g, '"TableId":""'),
  ) as DynaliteAnswer;

const TableName = 'direct-test';

/** `call` repeated until it answers `status` (or 2 s pass): dynalite changes table states a moment after the call. */
async function until(status: number, call: () => Promise<DynaliteAnswer>): Promise<DynaliteAnswer> {
  let answer = await call();
  for (let i = 0; i < 100 && answer.status !== status; i++) {
    await new Promise((r) => setTimeout(r, 20));
    answer = await call();
  }
  return answer;
}

describe('dynalite in-process', () => {
  it('answers table, item, query, batch and error calls as its HTTP server does', async () => {
    const calls: [string, unknown][] = [
      ['CreateTable', createTableInput(TableName)],
      ['PutItem', { TableName, Item: { pk: { S: 'a' }, sk: { S: '1' }, n: { N: '1' }, gsi1pk: { S: 'g' }, gsi1sk: { S: '1' } } }],
      ['PutItem', { TableName, Item: { pk: { S: 'a' }, sk: { S: '2' }, n: { N: '2' } } }],
      ['PutItem', { TableName, Item: { pk: { S: 'a' }, sk: { S: '3' }, n: { N: '3' } }, ReturnValues: 'ALL_OLD' }],
      ['GetItem', { TableName, Key: { pk: { S: 'a' }, sk: { S: '1' } } }],
      ['GetItem', { TableName, Key: { pk: { S: 'a' }, sk: { S: 'missing' } } }],
      ['Query', { TableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: 'a' } }, Limit: 2, ScanIndexForward: false }],
      ['Query', { TableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :p', ExpressionAttributeValues: { ':p': { S: 'g' } } }],
      [
        'Query',
        {
          TableName,
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': { S: 'a' } },
          ExclusiveStartKey: { pk: { S: 'a' }, sk: { S: '1' } },
        },
      ],
      [
        'BatchGetItem',
        {
          RequestItems: {
            [TableName]: {
              Keys: [
                { pk: { S: 'a' }, sk: { S: '2' } },
                { pk: { S: 'a' }, sk: { S: '9' } },
              ],
            },
          },
        },
      ],
      [
        'UpdateItem',
        {
          TableName,
          Key: { pk: { S: 'a' }, sk: { S: '2' } },
          UpdateExpression: 'SET n = n + :one',
          ExpressionAttributeValues: { ':one': { N: '1' } },
          ReturnValues: 'ALL_NEW',
        },
      ],
      [
        'UpdateItem',
        {
          TableName,
          Key: { pk: { S: 'a' }, sk: { S: '2' } },
          UpdateExpression: 'SET n = :n',
          ConditionExpression: 'n = :old',
          ExpressionAttributeValues: { ':n': { N: '0' }, ':old': { N: '99' } },
        },
      ],
      ['DeleteItem', { TableName, Key: { pk: { S: 'a' }, sk: { S: '3' } }, ReturnValues: 'ALL_OLD' }],
      ['Scan', { TableName, FilterExpression: 'n > :z', ExpressionAttributeValues: { ':z': { N: '1' } } }],
      ['GetItem', { TableName, Key: { pk: { S: 'a' } } }],
      ['GetItem', { TableName: 'no-such-table', Key: { pk: { S: 'a' }, sk: { S: '1' } } }],
      ['Query', { TableName, KeyConditionExpression: 'pk = :p' }],
      ['PutItem', { TableName, Item: { pk: { S: 'a' } } }],
      ['ExecuteStatement', { Statement: 'SELECT * FROM x' }],
    ];
    for (const [op, body] of calls) {
      const [http, inProcess] = await both(op, body);
      expect(withoutTimes(inProcess), op).toEqual(withoutTimes(http));
    }
    const [, missing] = await both('GetItem', { TableName: 'no-such-table', Key: { pk: { S: 'a' }, sk: { S: '1' } } });
    expect(missing.status).toBe(400);
    expect(missing.body.__type).toBe('com.amazonaws.dynamodb.v20120810#ResourceNotFoundException');
  });

  it('item calls follow the table description through DeleteTable and CreateTable', async () => {
    const name = 'cache-test';
    const table = (keys: string[]) => ({
      TableName: name,
      AttributeDefinitions: keys.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      KeySchema: keys.map((AttributeName, i) => ({ AttributeName, KeyType: i === 0 ? 'HASH' : 'RANGE' })),
      BillingMode: 'PAY_PER_REQUEST',
    });
    const byPk = { TableName: name, Key: { pk: { S: 'x' } } };
    expect((await direct('CreateTable', table(['pk']))).status).toBe(200);
    // Read once ACTIVE (dynalite makes it so a moment after the call): the description is cached now.
    expect((await until(200, () => direct('GetItem', byPk))).status).toBe(200);
    expect((await direct('GetItem', byPk)).status).toBe(200);

    expect((await until(200, () => direct('DeleteTable', { TableName: name }))).status).toBe(200);
    const gone = await until(400, () => direct('GetItem', byPk));
    expect(gone.body.__type).toBe('com.amazonaws.dynamodb.v20120810#ResourceNotFoundException');

    // The same name with another key: the key of the first table no longer fits.
    expect((await until(200, () => direct('CreateTable', table(['pk', 'sk'])))).status).toBe(200);
    expect((await until(200, () => direct('GetItem', { TableName: name, Key: { pk: { S: 'x' }, sk: { S: 'y' } } }))).status).toBe(200);
    const wrongKey = await direct('GetItem', byPk);
    expect(wrongKey.body.__type).toBe('com.amazon.coral.validate#ValidationException');
  });
});
