import type { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { tableShape } from '#db/table-definition.ts';

const stringKey = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

export interface DataTableProps {
  /** RETAIN keeps the table (and its data) when the stack is deleted. */
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  readonly pointInTimeRecovery: boolean;
}

/**
 * The single DynamoDB table, built from `tableShape` (the same object the local runtime creates
 * its dynalite table from): keys, GSIs, TTL attribute and stream view come from there, never
 * from literals here.
 */
export class DataTable extends Construct {
  readonly table: dynamodb.TableV2;

  constructor(scope: Construct, id: string, props: DataTableProps) {
    super(scope, id);

    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: stringKey(tableShape.partitionKey),
      sortKey: stringKey(tableShape.sortKey),
      globalSecondaryIndexes: tableShape.globalIndexes.map((index) => ({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      })),
      billing: dynamodb.Billing.onDemand(),
      timeToLiveAttribute: tableShape.ttlAttribute,
      dynamoStream: dynamodb.StreamViewType[tableShape.streamView],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: props.pointInTimeRecovery },
      deletionProtection: props.deletionProtection,
      removalPolicy: props.removalPolicy,
    });
  }
}
