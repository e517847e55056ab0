/** Reading DynamoDB stream records as plain items. */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as StreamAttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type Change = 'INSERT' | 'MODIFY' | 'REMOVE';

export function imagesOf(record: DynamoDBRecord) {
  const read = (image: Record<string, StreamAttributeValue> | undefined) =>
    image ? (unmarshall(image as Record<string, AttributeValue>) as Record<string, unknown> & { type?: string }) : undefined;
  return { change: record.eventName as Change, next: read(record.dynamodb?.NewImage), previous: read(record.dynamodb?.OldImage) };
}
