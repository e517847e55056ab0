/**
 * The DynamoDB document client, created once per process. The endpoint comes from the SDK's own
 * configuration (AWS_ENDPOINT_URL_DYNAMODB locally), so no code branches on local versus cloud.
 * The process's composition root may instrument the low-level client (the functions trace its
 * calls with X-Ray); the first call decides.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { followTableClock } from './table-clock.ts';

export interface Table {
  doc: DynamoDBDocumentClient;
  name: string;
}

let shared: Table | undefined;

const notLogged = () => '(not logged)';

/**
 * The SDK's logger middleware builds a redacted copy of every call's input and output (a walk of
 * every item answered against the operation's schema) and hands it to `logger.info`, evaluated
 * even when the logger is the SDK's default no-op one: a few per cent of the CPU of every request
 * that reads items. No logger is configured on this client, so the copy is replaced by a constant.
 */
function skipLogCopies(client: DynamoDBClient): DynamoDBClient {
  client.middlewareStack.add(
    (next, context) => (args) => {
      const ctx = context as { dynamoDbDocumentClientOptions?: Record<string, unknown> };
      ctx.dynamoDbDocumentClientOptions = {
        ...ctx.dynamoDbDocumentClientOptions,
        overrideInputFilterSensitiveLog: notLogged,
        overrideOutputFilterSensitiveLog: notLogged,
      };
      return next(args);
    },
    { step: 'initialize', name: 'skipLogCopies', override: true },
  );
  return client;
}

export function defaultTable(instrument: (client: DynamoDBClient) => DynamoDBClient = (client) => client): Table {
  if (!shared) {
    const name = process.env.TABLE_NAME;
    if (!name) throw new Error('TABLE_NAME is not set');
    const client = followTableClock(skipLogCopies(instrument(new DynamoDBClient({}))));
    shared = {
      name,
      doc: DynamoDBDocumentClient.from(client, {
        marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
      }),
    };
  }
  return shared;
}
