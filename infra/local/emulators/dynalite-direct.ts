/**
 * dynalite called in-process: the DynamoDB front hands each call to dynalite's own validation and
 * action code instead of a second HTTP round trip to dynalite's server in the same thread. That hop
 * (undici's fetch, dynalite's HTTP handler and its CRC of every answer, a JSON encode and decode
 * each way) was over a third of the DynamoDB thread's CPU per read (ADR-0147). Answers and errors are what dynalite's server sends: the same validation
 * (`checkTypes`, `checkValidations`), the same action, the same `__type` and status.
 *
 * Item actions also read the table's description through a cache: dynalite reads it from LevelDB
 * (and decodes its JSON) on every call. A description is kept only once the table and its indexes
 * are ACTIVE, and any write of a description (CreateTable, UpdateTable, DeleteTable, and the status
 * changes dynalite makes after them) drops it.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// biome-ignore lint/suspicious/noExplicitAny: DynamoDB's JSON wire protocol, as dynalite takes and answers it
type Json = Record<string, any>;
type Callback = (error: DynaliteError | null, data?: Json) => void;
type DynaliteError = Error & { statusCode?: number; body?: Json };
type TableCallback = (error: DynaliteError | null, table?: Json) => void;

/** dynalite's store (dynalite/db/index.js), the parts used here. */
export interface DynaliteStore {
  tableDb: { put(key: string, value: Json, cb: (error?: Error) => void): void; del(key: string, cb: (error?: Error) => void): void };
  getTable(name: string, checkStatus: boolean | TableCallback, cb?: TableCallback): void;
  lifecycleManager: { gracefulClose(callback: (error?: Error) => void): void };
}

/** An answer as dynalite's server gives it: its HTTP status and its JSON body. */
export interface DynaliteAnswer {
  status: number;
  body: Json;
}

interface Validations {
  checkTypes(data: Json, types: Json): Json;
  checkValidations(data: Json, types: Json, custom: unknown, store: DynaliteStore): void;
}

/** The operations dynalite's server answers (dynalite/index.js, validOperations). */
const operations = [
  'BatchGetItem',
  'BatchWriteItem',
  'CreateTable',
  'DeleteItem',
  'DeleteTable',
  'DescribeTable',
  'DescribeTimeToLive',
  'GetItem',
  'ListTables',
  'PutItem',
  'Query',
  'Scan',
  'TagResource',
  'UntagResource',
  'ListTagsOfResource',
  'UpdateItem',
  'UpdateTable',
] as const;

/** Operations on items: they read the table's description and never change it. */
const itemOperations = new Set(['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'Scan', 'UpdateItem']);

const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/** A dynalite store on disk (`path`) with its tables' timings, as `dynalite(options)` makes its own. */
export function openDynaliteStore(options: { path: string; createTableMs?: number; deleteTableMs?: number; updateTableMs?: number }): DynaliteStore {
  const { create } = require('dynalite/db/index.js') as { create(o: typeof options): DynaliteStore };
  return create(options);
}

export function closeDynaliteStore(store: DynaliteStore): Promise<void> {
  return new Promise((resolve, reject) => store.lifecycleManager.gracefulClose((error) => (error ? reject(error) : resolve())));
}

/** Answers DynamoDB calls from `store` in-process, as dynalite's HTTP server would. */
export function dynaliteCaller(store: DynaliteStore): (op: string, body: Json) => Promise<DynaliteAnswer> {
  const validations = require('dynalite/validations/index.js') as Validations;
  const actions = new Map<string, { run: (store: DynaliteStore, data: Json, cb: Callback) => void; types: Json; custom: unknown }>();
  for (const op of operations) {
    const name = lowerFirst(op);
    const { types, custom } = require(`dynalite/validations/${name}.js`) as { types: Json; custom: unknown };
    actions.set(op, { run: require(`dynalite/actions/${name}.js`), types, custom });
  }
  const itemStore = withTableCache(store);
  return (op, body) =>
    new Promise((resolve) => {
      const action = actions.get(op);
      if (!action) return resolve({ status: 400, body: { __type: 'com.amazon.coral.service#UnknownOperationException' } });
      const failed = (error: unknown) => {
        const { statusCode, body: errorBody } = error as DynaliteError;
        resolve(
          statusCode && errorBody
            ? { status: statusCode, body: errorBody }
            : { status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(error) } },
        );
      };
      try {
        const data = validations.checkTypes(body, action.types);
        validations.checkValidations(data, action.types, action.custom, store);
        action.run(itemOperations.has(op) ? itemStore : store, data, (error, answer) => (error ? failed(error) : resolve({ status: 200, body: answer ?? {} })));
      } catch (error) {
        failed(error);
      }
    });
}

/**
 * `store` whose `getTable` answers ACTIVE descriptions from memory. Every write of a description
 * goes through `store.tableDb` (dynalite's table actions and their delayed status changes), which
 * drops that table's entry before writing.
 */
function withTableCache(store: DynaliteStore): DynaliteStore {
  const cache = new Map<string, Json>();
  // Bumped by every write of a description: a read that started before one is not kept.
  let writes = 0;
  const { tableDb } = store;
  const put = tableDb.put.bind(tableDb);
  const del = tableDb.del.bind(tableDb);
  const dropping =
    (key: string, cb: (error?: Error) => void) =>
    (error?: Error): void => {
      writes++;
      cache.delete(key);
      cb(error);
    };
  tableDb.put = (key, value, cb) => {
    writes++;
    cache.delete(key);
    put(key, value, dropping(key, cb));
  };
  tableDb.del = (key, cb) => {
    writes++;
    cache.delete(key);
    del(key, dropping(key, cb));
  };
  const settled = (table: Json) =>
    table.TableStatus === 'ACTIVE' && ((table.GlobalSecondaryIndexes ?? []) as { IndexStatus?: string }[]).every((index) => index.IndexStatus === 'ACTIVE');
  const getTable = (name: string, checkStatus: boolean | TableCallback, cb?: TableCallback) => {
    const callback = (typeof checkStatus === 'function' ? checkStatus : cb)!;
    const cached = cache.get(name);
    if (cached) return callback(null, cached);
    const before = writes;
    // dynalite's `getTable(name, cb)` checks the status, as `true` asks.
    store.getTable(name, typeof checkStatus === 'function' ? true : checkStatus, (error, table) => {
      if (!error && table && settled(table) && writes === before) cache.set(name, table);
      callback(error, table);
    });
  };
  return { ...store, getTable };
}
