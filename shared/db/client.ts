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

export function defaultTable(instrument: (client: DynamoDBClient) => DynamoDBClient = (client) => client): Table {
  if (!shared) {
    const name = process.env.TABLE_NAME;
    if (!name) throw new Error('TABLE_NAME is not set');
    const client = followTableClock(instrument(new DynamoDBClient({})));
    shared = {
      name,
      doc: DynamoDBDocumentClient.from(client, {
        marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
      }),
    };
  }
  return shared;
}
