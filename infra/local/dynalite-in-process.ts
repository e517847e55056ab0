/**
 * dynalite called in the thread that holds it, without its HTTP server: the same type checks,
 * validations and actions its request handler runs (dynalite/index.js, `httpHandler`), minus the
 * loopback HTTP request, the JSON text both ways and the event-loop turns between them that every
 * call of the DynamoDB front used to pay (docs/decisions.md "The send path under load: table calls
 * by priority"). Errors come back as dynalite's HTTP handler would have answered them: the status
 * and the JSON body, for the front to map as before.
 */
import { createRequire } from 'node:module';
import { create, type Store } from 'dynalite/db/index.js';

// biome-ignore lint/suspicious/noExplicitAny: DynamoDB's JSON wire protocol, as dynalite takes and answers it
type Json = Record<string, any>;

interface ActionValidation {
  types: Json;
  custom?: unknown;
}

interface Validations {
  checkTypes(data: Json, types: Json): Json;
  checkValidations(data: Json, types: Json, custom: unknown, store: Store): void;
  toLowerFirst(name: string): string;
}

type Action = (store: Store, data: Json, callback: (error: (Error & { statusCode?: number; body?: Json }) | null, answer?: Json) => void) => void;

/** A call's failure as dynalite's HTTP handler answers it. */
export class DynaliteAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message ?? body.__type));
  }
}

/** The operations dynalite's handler serves (its `validOperations`). */
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
];

export interface InProcessDynalite {
  call(op: string, body: Json): Promise<Json>;
  close(): Promise<void>;
}

export function inProcessDynalite(options: { path?: string; createTableMs?: number; deleteTableMs?: number; updateTableMs?: number }): InProcessDynalite {
  const require = createRequire(import.meta.url);
  const validations = require('dynalite/validations/index.js') as Validations;
  const store = create(options as { path: string });
  const actions = new Map<string, { action: Action; validation: ActionValidation }>();
  const load = (op: string) => {
    let loaded = actions.get(op);
    if (!loaded) {
      const name = validations.toLowerFirst(op);
      loaded = {
        action: require(`dynalite/actions/${name}.js`) as Action,
        validation: require(`dynalite/validations/${name}.js`) as ActionValidation,
      };
      actions.set(op, loaded);
    }
    return loaded;
  };
  return {
    call(op, body) {
      if (!operations.includes(op)) return Promise.reject(new DynaliteAnswer(400, { __type: 'com.amazon.coral.service#UnknownOperationException' }));
      const { action, validation } = load(op);
      let data: Json;
      try {
        data = validations.checkTypes(body, validation.types);
        validations.checkValidations(data, validation.types, validation.custom, store);
      } catch (error) {
        const failed = error as { statusCode?: number; body?: Json };
        return Promise.reject(failed.statusCode ? new DynaliteAnswer(failed.statusCode, failed.body ?? {}) : error);
      }
      return new Promise((resolve, reject) =>
        action(store, data, (error, answer) => {
          if (error?.statusCode) reject(new DynaliteAnswer(error.statusCode, error.body ?? {}));
          else if (error) reject(error);
          else resolve(answer ?? {});
        }),
      );
    },
    close: () => new Promise<void>((resolve, reject) => store.lifecycleManager.gracefulClose((error) => (error ? reject(error) : resolve()))),
  };
}
