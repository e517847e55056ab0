/**
 * The table's physical shape: the single definition both the CDK stack and the local runtime
 * (dynalite) create the table from.
 */
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const tableShape = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
  /** Epoch seconds after which DynamoDB (or the local sweeper) deletes the item. */
  ttlAttribute: 'ttl',
  streamView: 'NEW_AND_OLD_IMAGES',
} as const;

/** CreateTable input for the local runtime, derived from `tableShape`. */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const attrs = new Set<string>([tableShape.partitionKey, tableShape.sortKey]);
  for (const g of tableShape.globalIndexes) {
    attrs.add(g.partitionKey);
    attrs.add(g.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attrs].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: tableShape.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableShape.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: tableShape.globalIndexes.map((g) => ({
      IndexName: g.indexName,
      KeySchema: [
        { AttributeName: g.partitionKey, KeyType: 'HASH' },
        { AttributeName: g.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: tableShape.streamView },
  };
}
