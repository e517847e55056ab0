/** Recognising DynamoDB's conditional failures, single or inside a transaction. */

export function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === 'ConditionalCheckFailedException';
}

/** For a cancelled transaction, the index of each operation whose condition failed. */
export function failedConditions(error: unknown): number[] | null {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (e?.name !== 'TransactionCanceledException') return null;
  return (e.CancellationReasons ?? []).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
}

/**
 * The write of an item's next version, refused when the stored one is no longer the version that
 * was read (optimistic concurrency on `updatedAt`). Usable alone (PutCommand input) or as a
 * transaction step (`{ Put: ... }`).
 */
export function replaceIfUnchanged<T extends { updatedAt: string }>(tableName: string, next: T, seenUpdatedAt: string) {
  return {
    TableName: tableName,
    Item: next,
    ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
    ExpressionAttributeValues: { ':seen': seenUpdatedAt },
  };
}
